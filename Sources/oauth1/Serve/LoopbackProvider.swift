import Foundation
import Loopback
import NetworkClient
import OAuth1
import PercentEncoding

/// The OAuth 1.0a provider behind `oauth1 serve`: one consumer (and optionally one access
/// token), the three-legged flow, and every other path a protected resource that answers with
/// the verifier's verdict. It exists so that any client can be developed and tested against a
/// provider that explains itself (the public test provider, term.ie, is gone): every answer, a
/// refusal too, carries the base string and normalized parameters the provider computed, so
/// the client can find the first stage where its own differ.
///
/// Each request is checked by ``OAuthVerifier`` (header, query or form transmission, every
/// signature method, the body hash), against one in-memory nonce store shared by every
/// endpoint. A refusal is the Problem Reporting extension's: 400 or 401 with
/// `WWW-Authenticate: OAuth realm="…", oauth_problem="…"` and a JSON body (``refusal(_:of:authorization:realm:)``).
/// The tokens it issues live in memory, bounded (``maximumTokens``).
///
/// ```swift
/// let provider = LoopbackProvider(settings: .init(consumerKey: "key", consumer: OAuthConsumer(secret: "secret")))
/// let server = try LoopbackHTTPServer { request in await provider.respond(to: request) }
/// ```
final class LoopbackProvider: Sendable {
  /// What the provider accepts: its consumer, an access token it knows from the start, its
  /// timestamp window and the verifier's limits.
  struct Settings: Sendable {
    /// The one consumer key accepted; any other is `consumer_key_unknown`.
    var consumerKey: String
    /// The consumer's secret and/or RSA public key.
    var consumer: OAuthConsumer
    /// An access token accepted from the start (`--token`, `--token-secret`), beside those the
    /// flow issues; `nil` for none.
    var token: (key: String, secret: String)?
    /// How far `oauth_timestamp` may be from the clock, in seconds.
    var maxClockSkew: Int64 = 300
    /// The sizes and counts the verifier reads at most.
    var limits = OAuthVerifier.Limits()
    /// The clock timestamps are checked against.
    var clock: any OAuthClock = SystemClock()
    /// The known provider it behaves as (`--profile`); `nil` for plain RFC 5849.
    var profile: ServeProfile?
  }

  /// Which endpoint a request is for.
  enum Endpoint: String, Sendable {
    /// `POST /oauth/request_token`: temporary credentials, signed with the consumer alone.
    case requestToken = "request_token"
    /// `GET /oauth/authorize`: approves a request token at once.
    case authorize
    /// `POST /oauth/access_token`: token credentials for an authorized request token and its verifier.
    case accessToken = "access_token"
    /// Any other path: a protected resource.
    case resource

    init(path: String, profile: ServeProfile? = nil) {
      if let endpoint = profile?.endpointPaths[path] {
        self = endpoint
        return
      }
      switch path {
      case "/oauth/request_token": self = .requestToken
      case "/oauth/authorize": self = .authorize
      case "/oauth/access_token": self = .accessToken
      default: self = .resource
      }
    }
  }

  /// The request tokens, and the access tokens issued, kept at most (the oldest is dropped):
  /// only a client holding the consumer secret can make one, but a loop of them must not grow
  /// the process without end.
  static let maximumTokens = 10_000

  /// A request token waiting for authorization, then for its exchange.
  struct PendingToken: Sendable {
    let secret: String
    /// `oob` or the absolute URL the authorize page redirects to.
    let callback: String
    let verifier: String
    /// Whether the authorize page has approved it; only then can it be exchanged.
    var authorized = false
  }

  /// The tokens issued so far, each kind bounded by ``maximumTokens``.
  struct Tokens: Sendable {
    var pending = BoundedTable<PendingToken>()
    var access = BoundedTable<String>()
  }

  let settings: Settings
  /// Where each answered request is recorded, if anywhere.
  let log: ProviderLog?
  private let tokens = Locked(Tokens())
  private let requestTokenVerifier: OAuthVerifier
  private let accessTokenVerifier: OAuthVerifier
  private let resourceVerifier: OAuthVerifier

  /// A provider for `settings`, recording each request in `log`.
  init(settings: Settings, log: ProviderLog? = nil) {
    self.settings = settings
    self.log = log
    // PLAINTEXT is accepted over plain http: on loopback nothing travels, and a client's
    // PLAINTEXT must be testable.
    var options = OAuthVerifier.Options(
      allowPlaintextOverHTTP: true, maxClockSkew: settings.maxClockSkew, clock: settings.clock, limits: settings.limits)
    if let profile = settings.profile { options.allowedSignatureMethods = profile.allowedSignatureMethods }
    // One store for every endpoint: a nonce used at one is a replay at another.
    let window = max(1, settings.maxClockSkew).multipliedReportingOverflow(by: 2)
    let nonces = InMemoryNonceStore(window: window.overflow ? .max : window.partialValue, clock: settings.clock)
    let tokens = self.tokens
    func verifier(_ secret: @escaping @Sendable (String) -> String?) -> OAuthVerifier {
      OAuthVerifier(
        credentials: Credentials(consumerKey: settings.consumerKey, consumer: settings.consumer, tokenSecret: secret), nonceStore: nonces,
        options: options)
    }
    // The temporary-credentials request is signed with the consumer alone: no token is known there.
    requestTokenVerifier = verifier { _ in nil }
    accessTokenVerifier = verifier { token in tokens.withLock { $0.pending[token]?.secret } }
    let fixed = settings.token
    let emptyTokenIsTwoLegged = settings.profile?.emptyTokenIsTwoLegged == true
    resourceVerifier = verifier { token in
      // Schoology's two-legged requests send oauth_token="": signed with the consumer alone.
      if token.isEmpty && emptyTokenIsTwoLegged { return "" }
      if let fixed, fixed.key == token { return fixed.secret }
      return tokens.withLock { $0.access[token] }
    }
  }

  /// Answers one request and records it in the log.
  func respond(to request: LoopbackHTTPServer.Request) async -> LoopbackHTTPServer.Response {
    var entry = ProviderLog.Entry(method: request.method, target: request.target)
    let response = await answer(request, &entry)
    entry.status = response.status
    log?.record(entry)
    return response
  }

  /// Records in the log a request the loopback server refused itself (past one of its limits,
  /// or malformed): the provider never saw it.
  func record(_ refusal: LoopbackHTTPServer.Refusal) {
    var entry = ProviderLog.Entry(method: refusal.method, target: refusal.target ?? "")
    entry.status = refusal.status
    entry.outcome = "refused_by_server"
    log?.record(entry)
  }

  private func answer(_ request: LoopbackHTTPServer.Request, _ entry: inout ProviderLog.Entry) async -> LoopbackHTTPServer.Response {
    guard request.target.hasPrefix("/") else {
      entry.outcome = "bad_target"
      return Self.plain(400, "the request target must be a path (/resource?query), not an absolute URL")
    }
    guard let host = request.header("Host"), Self.isHost(host) else {
      entry.outcome = "bad_host"
      return Self.plain(400, "the request needs a Host header naming this server (127.0.0.1:PORT or localhost:PORT)")
    }
    let path = String(request.target.prefix { $0 != "?" })
    let endpoint = Endpoint(path: path, profile: settings.profile)
    entry.endpoint = endpoint.rawValue
    let realm = settings.profile?.realm ?? "http://" + host + "/"
    let oauthRequest = OAuthRequest(
      method: request.method, url: "http://" + host + request.target, body: request.body.isEmpty ? nil : request.body,
      contentType: request.header("Content-Type"))
    let authorization = request.header("Authorization")

    switch endpoint {
    case .authorize:
      // Not signed: its oauth_token is the user's, in the query.
      return authorize(query: request.target.drop { $0 != "?" }.dropFirst(), method: request.method, &entry)
    case .requestToken, .accessToken:
      guard request.method == "POST" else {
        entry.outcome = "method_not_allowed"
        return .init(
          status: 405, headers: [("Allow", "POST"), ("Content-Type", "text/plain; charset=utf-8")],
          body: Data("\(path) takes POST, as RFC 5849 section 2 says\n".utf8))
      }
    case .resource:
      break
    }

    entry.transmission = Self.transmission(oauthRequest, authorization: authorization)
    let verifier = endpoint == .requestToken ? requestTokenVerifier : endpoint == .accessToken ? accessTokenVerifier : resourceVerifier
    let verified: VerifiedRequest
    do throws(OAuthVerificationError) {
      verified = try await verifier.verify(oauthRequest, authorization: authorization)
      entry.consumerKey = verified.consumerKey
      entry.token = verified.token
      entry.signatureMethod = verified.signatureMethod.rawValue
      try checkBodyHash(verified, oauthRequest)
      switch endpoint {
      case .requestToken: return try issueRequestToken(verified, &entry)
      case .accessToken: return try issueAccessToken(verified, &entry)
      default: break
      }
    } catch {
      entry.outcome = error.problem.rawValue
      if settings.profile?.problemBody == .atlassianForm {
        // Jira's challenge names the problem too, as every refusal of this server's does.
        let answer = error.response(realm: realm, includingBaseString: true)
        let challenge = OAuthAuthorizationHeader.make(parameters: [OAuthParameter("oauth_problem", error.problem.rawValue)], realm: realm)
        let headers = answer.headers.map { $0.0 == "WWW-Authenticate" ? ($0.0, challenge) : $0 }
        return .init(status: answer.status, headers: headers, body: Data(answer.body.utf8))
      }
      let response = refusal(error, of: oauthRequest, authorization: authorization, realm: realm)
      // Who the refused request says it is, from the parameters the provider read, for the log.
      if let normalized = response.normalizedParameters {
        let pairs = PercentEncoding.decodeForm(normalized)
        entry.consumerKey = pairs.first { $0.name == "oauth_consumer_key" }?.value
        entry.token = pairs.first { $0.name == "oauth_token" }?.value
        entry.signatureMethod = pairs.first { $0.name == "oauth_signature_method" }?.value
      }
      return response.response
    }
    entry.outcome = "valid"
    var json: [String: Any] = [
      "valid": true, "method": oauthRequest.method.uppercased(), "consumer_key": verified.consumerKey, "token": verified.token ?? NSNull(),
      "signature_method": verified.signatureMethod.rawValue, "transmission": entry.transmission ?? NSNull(),
      "parameters": verified.parameters.map { [$0.name, $0.value] },
    ]
    json.merge(Self.stages(verified.signatureBaseString)) { _, stage in stage }
    if let realm = verified.realm { json["realm"] = realm }
    return Self.json(200, json)
  }

  /// A profile that requires `oauth_body_hash` (Mastercard) refuses a request whose body is
  /// not a form and that carries none; the verifier has checked the value of one that is sent.
  private func checkBodyHash(_ verified: VerifiedRequest, _ request: OAuthRequest) throws(OAuthVerificationError) {
    guard settings.profile?.requiresBodyHash == true, !request.hasFormBody else { return }
    // The normalized parameters are the base string's third part, each pair after a `&` (the
    // first one's unencoded, the others' encoded as %26).
    let baseString = verified.signatureBaseString
    guard baseString.contains("&oauth_body_hash%3D") || baseString.contains("%26oauth_body_hash%3D") else {
      throw OAuthVerificationError(
        .parameterAbsent, advice: "this provider requires oauth_body_hash on every request whose body is not a form, an empty one included",
        parameters: ["oauth_body_hash"])
    }
  }

  /// `POST /oauth/request_token`, verified: a request token for the callback sent.
  private func issueRequestToken(_ verified: VerifiedRequest, _ entry: inout ProviderLog.Entry) throws(OAuthVerificationError)
    -> LoopbackHTTPServer.Response
  {
    guard let callback = verified.callback, !callback.isEmpty else {
      throw OAuthVerificationError(
        .parameterAbsent, advice: "a temporary-credentials request carries oauth_callback: an absolute URL, or oob for a PIN",
        parameters: ["oauth_callback"])
    }
    // The verifier and token are appended to its query: a fragment would swallow them.
    guard callback == "oob" || (RequestCommand.isAbsoluteHTTP(callback) && !callback.contains("#")) else {
      throw OAuthVerificationError(
        .parameterRejected, advice: "oauth_callback is neither oob nor an absolute http(s) URL without a fragment", parameters: ["oauth_callback"])
    }
    let token = Self.random(), pending = PendingToken(secret: Self.random(), callback: callback, verifier: Self.random())
    tokens.withLock { $0.pending[token] = pending }
    entry.outcome = "issued_request_token"
    return Self.form(200, [("oauth_token", token), ("oauth_token_secret", pending.secret), ("oauth_callback_confirmed", "true")])
  }

  /// `POST /oauth/access_token`, verified with the request token's secret: token credentials,
  /// once, for an authorized request token whose verifier matches.
  private func issueAccessToken(_ verified: VerifiedRequest, _ entry: inout ProviderLog.Entry) throws(OAuthVerificationError)
    -> LoopbackHTTPServer.Response
  {
    guard let sent = verified.verifier else {
      throw OAuthVerificationError(
        .parameterAbsent, advice: "a token-credentials request carries the oauth_verifier the authorize step gave", parameters: ["oauth_verifier"])
    }
    guard let token = verified.token else {
      throw OAuthVerificationError(
        .parameterAbsent, advice: "a token-credentials request is signed with the request token", parameters: ["oauth_token"])
    }
    let issued = tokens.withLock { tokens -> (key: String, secret: String)? in
      guard let pending = tokens.pending[token], pending.authorized, RedirectReceiver.constantTimeEquals(sent, pending.verifier) else { return nil }
      tokens.pending[token] = nil  // single use
      let access = (key: Self.random(), secret: Self.random())
      tokens.access[access.key] = access.secret
      return access
    }
    guard let issued else {
      throw OAuthVerificationError(
        .parameterRejected,
        advice: "oauth_verifier is not the one issued for this request token, or the token was not authorized (GET /oauth/authorize first)",
        parameters: ["oauth_verifier"], httpStatus: 401)
    }
    entry.outcome = "issued_access_token"
    return Self.form(200, [("oauth_token", issued.key), ("oauth_token_secret", issued.secret)])
  }

  /// `GET /oauth/authorize?oauth_token=…`: approves at once, then redirects to the callback
  /// with `oauth_token` and `oauth_verifier`, or for `oob` shows the verifier as a PIN.
  private func authorize(query: Substring, method: String, _ entry: inout ProviderLog.Entry) -> LoopbackHTTPServer.Response {
    guard method == "GET" || method == "HEAD" else {
      entry.outcome = "method_not_allowed"
      return .init(
        status: 405, headers: [("Allow", "GET"), ("Content-Type", "text/plain; charset=utf-8")], body: Data("/oauth/authorize takes GET\n".utf8))
    }
    let token = PercentEncoding.decodeForm(query).first { $0.name == "oauth_token" }?.value ?? ""
    guard
      let pending = tokens.withLock({ tokens -> PendingToken? in
        guard tokens.pending[token] != nil else { return nil }
        tokens.pending[token]!.authorized = true
        return tokens.pending[token]
      })
    else {
      entry.outcome = "unknown_request_token"
      return Self.plain(400, "no request token is waiting for authorization under that oauth_token: POST /oauth/request_token first")
    }
    entry.outcome = "authorized"
    if pending.callback == "oob" {
      let page = """
        <!doctype html><meta charset=utf-8><title>oauth1 serve: authorized</title>
        <p>The application is authorized. Enter this PIN (the oauth_verifier) in it:</p>
        <p><code id="oauth_verifier">\(pending.verifier)</code></p>

        """
      return .init(status: 200, headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store")], body: Data(page.utf8))
    }
    let separator = pending.callback.contains("?") ? "&" : "?"
    let location =
      pending.callback + separator
      + OAuthFormEncoding.encode([OAuthParameter("oauth_token", token), OAuthParameter("oauth_verifier", pending.verifier)])
    return .init(status: 302, headers: [("Location", location), ("Cache-Control", "no-store")])
  }

  /// A refusal as the Problem Reporting extension writes it, with the status the verifier gives
  /// the problem: `WWW-Authenticate: OAuth realm="…", oauth_problem="…"` (and the parameters
  /// absent or rejected, the acceptable timestamps), and a JSON body with the same fields, the
  /// advice, and the base string and normalized parameters computed here, for the client's
  /// ``OAuthBaseStringDiff``. No secret is in it: the base string holds none.
  ///
  /// Returns the normalized parameters too, when the request could be read that far.
  func refusal(
    _ error: OAuthVerificationError, of request: OAuthRequest, authorization: String?, realm: String
  ) -> (response: LoopbackHTTPServer.Response, normalizedParameters: String?) {
    var fields = [OAuthParameter("oauth_problem", error.problem.rawValue)]
    var json: [String: Any] = [
      "valid": false, "method": request.method.uppercased(), "oauth_problem": error.problem.rawValue, "oauth_problem_advice": error.advice,
    ]
    if !error.parameters.isEmpty {
      let name = error.problem == .parameterAbsent ? "oauth_parameters_absent" : "oauth_parameters_rejected"
      fields.append(OAuthParameter(name, error.parameters.joined(separator: "&")))
      json[name] = error.parameters
    }
    if let range = error.acceptableTimestamps {
      let text = "\(range.lowerBound)-\(range.upperBound)"
      fields.append(OAuthParameter("oauth_acceptable_timestamps", text))
      json["oauth_acceptable_timestamps"] = text
    }
    var normalized: String?
    // The verifier's own base string for signature_invalid; for the other problems, the same
    // routine over the request as received (none when the request is past a limit or unreadable).
    if let baseString = error.signatureBaseString
      ?? (try? OAuthSignatureBaseString.make(received: request, authorization: authorization, limits: settings.limits))
    {
      let stages = Self.stages(baseString)
      normalized = stages["normalized_parameters"] as? String
      json.merge(stages) { _, stage in stage }
    }
    var response = Self.json(error.httpStatus, json)
    response.headers.append(("WWW-Authenticate", OAuthAuthorizationHeader.make(parameters: fields, realm: realm)))
    return (response, normalized)
  }

  /// Where the request's protocol parameters came: `header`, `query` or `body` (where an
  /// `oauth_signature` field is); `nil` for none. A scan of the bytes, not a parse: it runs
  /// before the verifier's limits.
  static func transmission(_ request: OAuthRequest, authorization: String?) -> String? {
    if let authorization, authorization.trimmingCharacters(in: .whitespaces).lowercased().hasPrefix("oauth") { return "header" }
    if let query = request.url.utf8.firstIndex(of: UInt8(ascii: "?")), hasSignatureField(Data(request.url.utf8[query...].dropFirst())) {
      return "query"
    }
    if request.hasFormBody, let body = request.body, hasSignatureField(body) { return "body" }
    return nil
  }

  /// Whether a form (`a=1&b=2`) has a field named `oauth_signature`.
  static func hasSignatureField(_ form: Data) -> Bool {
    let name = Data("oauth_signature=".utf8)
    var start = form.startIndex
    while let found = form.range(of: name, in: start..<form.endIndex) {
      if found.lowerBound == form.startIndex || form[found.lowerBound - 1] == UInt8(ascii: "&") { return true }
      start = found.upperBound
    }
    return false
  }

  /// The stages of a base string a client compares with its own: the base string URI, the
  /// normalized parameters (both decoded) and the base string itself.
  static func stages(_ baseString: String) -> [String: Any] {
    var stages: [String: Any] = ["base_string": baseString]
    let parts = baseString.split(separator: "&", omittingEmptySubsequences: false)
    guard parts.count == 3 else { return stages }
    stages["base_string_uri"] = PercentEncoding.decode(parts[1]) ?? ""
    stages["normalized_parameters"] = PercentEncoding.decode(parts[2]) ?? ""
    return stages
  }

  /// Whether a `Host` header is a plain `host[:port]` (letters, digits, `.`, `-`, `:`, and the
  /// brackets of an IPv6 address): anything else would be copied into the URL verified.
  static func isHost(_ text: String) -> Bool {
    !text.isEmpty && text.utf8.count <= 255
      && text.utf8.allSatisfy { byte in
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
          || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || ".-:[]".utf8.contains(byte)
      }
  }

  /// A fresh token, secret or verifier: 192 random bits, URL-safe.
  static func random() -> String {
    // The system's random source does not fail on a working machine; if it did, a UUID still
    // makes a token nobody can guess from another.
    (try? OAuthNonce.random()) ?? UUID().uuidString
  }

  static func json(_ status: Int, _ object: [String: Any]) -> LoopbackHTTPServer.Response {
    let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
    return .init(status: status, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")], body: body + Data("\n".utf8))
  }

  static func form(_ status: Int, _ fields: [(String, String)]) -> LoopbackHTTPServer.Response {
    .init(
      status: status, headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Cache-Control", "no-store")],
      body: Data(OAuthFormEncoding.encode(fields.map { OAuthParameter($0.0, $0.1) }).utf8))
  }

  static func plain(_ status: Int, _ text: String) -> LoopbackHTTPServer.Response {
    .init(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Data((text + "\n").utf8))
  }

  /// The one consumer, and token secrets from the endpoint's own table.
  private struct Credentials: OAuthCredentialLookup {
    let consumerKey: String
    let consumer: OAuthConsumer
    let tokenSecret: @Sendable (String) -> String?

    func consumer(forKey key: String) async throws -> OAuthConsumer? { key == consumerKey ? consumer : nil }
    func tokenSecret(forToken token: String, consumerKey: String) async throws -> String? { tokenSecret(token) }
  }
}

/// A table of tokens holding at most ``LoopbackProvider/maximumTokens``: a new key past the
/// bound drops the oldest. Every operation costs a constant on average (the order of keys is
/// compacted now and then, never searched).
struct BoundedTable<Value: Sendable>: Sendable {
  private var values: [String: Value] = [:]
  /// The keys in the order they were added, from `head` on; a removed key stays until it is
  /// passed or compacted away. Keys are random and never added twice.
  private var order: [String] = []
  private var head = 0

  /// The value for `key`; setting `nil` removes it, setting a new key past the bound drops the oldest.
  subscript(key: String) -> Value? {
    get { values[key] }
    set {
      guard let newValue else {
        values[key] = nil
        return
      }
      if values.updateValue(newValue, forKey: key) == nil { order.append(key) }
      while values.count > LoopbackProvider.maximumTokens && head < order.count {
        values[order[head]] = nil
        head += 1
      }
      if order.count - head > 2 * LoopbackProvider.maximumTokens {
        order = order[head...].filter { values[$0] != nil }
        head = 0
      } else if head > 1024 && head * 2 > order.count {
        order.removeFirst(head)
        head = 0
      }
    }
  }

  /// How many values it holds.
  var count: Int { values.count }
}
