import DateFormats
import Foundation
import Loopback
import NetworkClient
import OAuth1

/// An offline imitation of the X (Twitter) API that runs inside the process: a transport that
/// answers requests itself instead of sending them, so `tweets --sandbox` (and tests) can use
/// every command with no network, no developer account and no real keys.
///
/// It is strict where X is strict, so that what works against it works against X: every
/// request's OAuth 1.0a signature is checked with the package's own ``OAuthVerifier``, against
/// the full URL as sent (scheme, host and port included), and a bad one is refused with X's
/// own status and body (codes 32, 89, 135, 215, or v2's `Unauthorized` problem). Endpoints,
/// JSON shapes, parameter ranges, paging tokens, duplicate checks and rate limits follow X.
///
/// The data is generated and deterministic: @sandbox_user (1001, the account every token
/// belongs to), @swift_lang (1002) and @oauth_fan (1003), each with `tweetsPerUser` tweets a
/// minute apart ending a couple of minutes before the clock's "now". Some of them reply to,
/// quote or retweet others, carry links, mentions, hashtags, photos, a video or a GIF, or were
/// edited (see ``SandboxData``); 1300 fan accounts follow and are followed, and list 1500 holds
/// @swift_lang's and @oauth_fan's tweets. Tweets posted through it are kept in memory for the
/// instance's lifetime. Safe to share between tasks.
///
/// ```swift
/// let sandbox = XSandbox()
/// let client = XClient(
///   authentication: .oauth1(consumer: XSandbox.demoConsumer, token: XSandbox.demoAccessToken),
///   transport: sandbox)
/// let me = try await client.v2.me()                        // @sandbox_user
/// for try await tweet in client.v2.homeTimeline(userID: me.id, limit: 20).tweets() {
///   print(tweet.author?.username ?? "?", tweet.text)
/// }
/// print(sandbox.stats)                                     // (verified: 2, rejected: 0)
/// ```
package final class XSandbox: HTTPTransport, Sendable {
  /// The app credentials the sandbox knows, so it works at once without a developer account.
  ///
  /// ```swift
  /// let login = XLogin(consumer: XSandbox.demoConsumer, transport: XSandbox())
  /// ```
  package static let demoConsumer = Credentials(key: "sandbox-consumer-key", secret: "sandbox-consumer-secret")

  /// A ready access token of @sandbox_user (1001), so user-context calls work without the PIN
  /// flow first.
  ///
  /// ```swift
  /// let auth = XAuthentication.oauth1(consumer: XSandbox.demoConsumer, token: XSandbox.demoAccessToken)
  /// ```
  package static let demoAccessToken = Credentials(key: "1001-sandbox-access-token", secret: "sandbox-access-token-secret")

  /// The app-only bearer token the sandbox accepts, to try app-only reads (search, lookups);
  /// like X, it refuses it for `/2/users/me`, home timelines and writes.
  ///
  /// ```swift
  /// let app = XClient(authentication: .bearer(XSandbox.demoBearerToken), transport: XSandbox())
  /// ```
  package static let demoBearerToken = "sandbox-bearer-token"

  /// How many requests the control API's log keeps by default (`GET /_control/stats`): the
  /// newest 10,000, far more than any test reads back, at a few hundred bytes each; older ones
  /// are dropped and counted (`requests_dropped`).
  package static let defaultRequestLogLimit = 10_000

  /// The path prefix of the control API.
  static let controlPrefix = "/_control/"

  /// Whether `url` is a control API request (`/_control/...`) of a sandbox that serves it: the
  /// one test ``exchange(_:)`` routes by, for ``SandboxServer`` to check the same requests
  /// before they get there.
  package static func isControlRequest(_ url: URL) -> Bool {
    (URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? url.path).hasPrefix(controlPrefix)
  }

  let clock: any OAuthClock
  let state: Locked<SandboxState>
  let nonceStore: InMemoryNonceStore
  let verifierOptions: OAuthVerifier.Options
  let controlAPI: Bool
  /// How long an OAuth 2.0 access token lives, in seconds (X: 7200).
  let oauth2Lifetime: Int64
  /// What the filtered stream's intervals (keep-alive, firehose) are multiplied by: 1 as X's.
  let streamTimeScale: Double

  /// A sandbox whose "now" is `clock`'s: it dates the generated tweets and the `Date` headers,
  /// checks `oauth_timestamp` (±300 s, as X) and runs the rate-limit windows, so a fixed clock
  /// gives reproducible answers.
  ///
  /// With `controlAPI`, it also serves `/_control/*` (scripted faults, clock skew, revoked
  /// tokens, statistics and the request log, of the newest `requestLogLimit` requests) for
  /// tests; see ``control(_:query:body:)``.
  ///
  /// ```swift
  /// let sandbox = XSandbox(clock: FixedClock(seconds: 1_714_564_800), tweetsPerUser: 25)
  /// ```
  /// `oauth2Lifetime` is how long an OAuth 2.0 access token lives (X: two hours), shorter to
  /// try renewals; `rateWindow` is the rate limits' window (X: 15 minutes), shorter for tests
  /// that make thousands of requests; `streamTimeScale` multiplies the filtered stream's
  /// keep-alive period (20 s) and the pace of its posts, so that tests of a 20-second stall run
  /// in one; `streamRules` are the filtered stream's rules at the start (values and tags), none
  /// by default.
  package init(
    clock: any OAuthClock = SystemClock(), tweetsPerUser: Int = 60, controlAPI: Bool = false,
    requestLogLimit: Int = XSandbox.defaultRequestLogLimit, oauth2Lifetime: Int64 = 7200, rateWindow: Int64 = 900,
    streamTimeScale: Double = 1, streamRules: [(value: String, tag: String?)] = []
  ) {
    self.streamTimeScale = streamTimeScale
    let now = clock.secondsSince1970()
    var initial = SandboxState(tweets: SandboxData.tweets(perUser: tweetsPerUser, newest: now - 120), demoToken: Self.demoAccessToken)
    initial.rateWindow = rateWindow
    initial.control.requests = SandboxRequestLog(capacity: requestLogLimit)
    for rule in streamRules {
      initial.stream.nextRule += 1
      initial.stream.rules.append(
        SandboxStreamRule(id: String(1_930_000_000_000_000_000 + initial.stream.nextRule), value: rule.value, tag: rule.tag))
    }
    state = Locked(initial)
    self.clock = SkewedClock(base: clock, state: state)
    self.controlAPI = controlAPI
    self.oauth2Lifetime = oauth2Lifetime
    verifierOptions = OAuthVerifier.Options(allowPlaintextOverHTTP: true, maxClockSkew: 300, clock: self.clock)
    nonceStore = InMemoryNonceStore(window: 600, clock: self.clock)
  }

  /// Answers `request` as X would, without any network: the ``HTTPTransport`` requirement, so
  /// the sandbox plugs in wherever a transport goes. Routes on the URL's path only, so any base
  /// URL works. Throws `CancellationError` for a cancelled task, and `URLError` where a scripted
  /// fault breaks the connection.
  ///
  /// ```swift
  /// let response = try await XSandbox().send(HTTPRequest(method: .get, url: URL(string: "https://api.x.com/2/users/me")!))
  /// response.statusCode  // 401: not signed
  /// ```
  package func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    try Task.checkCancellation()
    var request = request
    if request.body == nil, let file = request.bodyFile { request.body = try Data(contentsOf: file) }
    let exchange = await self.exchange(request)
    guard exchange.delivery == .whole else { throw URLError(.networkConnectionLost) }
    // A stream never ends: this transport, which returns whole bodies, closes it at once.
    exchange.response.stream?(RefusingWriter())
    return HTTPResponse(
      statusCode: exchange.response.status, headers: HTTPHeaders(exchange.response.headers),
      body: request.method == .head ? Data() : exchange.response.body, request: request)
  }

  /// An answer, how to deliver it, and what the sandbox concluded of the request's OAuth 1.0a
  /// signature (`verified`, or the reason it was refused; `nil` when none was checked), for an
  /// independent verifier in front of the HTTP server to compare with its own.
  struct Exchange: Sendable {
    var response: SandboxResponse
    var delivery: SandboxDelivery
    var verdict: String?
  }

  /// What ``respond(to:now:trace:)`` learns of a request on the way, for the request log and
  /// the verdict.
  struct Trace: Sendable {
    var auth = "none"
    var verdict: String?
  }

  /// Answers `request`, with the `Date` and `Content-Length` headers, logging it when the
  /// control API is on.
  func exchange(_ request: HTTPRequest) async -> Exchange {
    let now = clock.secondsSince1970()
    let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
    let rawPath = components?.percentEncodedPath ?? request.url.path
    var answer: (response: SandboxResponse, delivery: SandboxDelivery)
    var trace = Trace()
    if controlAPI, rawPath.hasPrefix(Self.controlPrefix) {
      let query = SandboxURL.pairs(components?.percentEncodedQuery ?? "").firstValues
      answer = (control(String(rawPath.dropFirst(Self.controlPrefix.count)), query: query, body: request.body), .whole)
    } else {
      let serial: Int? =
        controlAPI
        ? state.withLock { state in
          let serial = state.control.nextSerial
          state.control.nextSerial += 1
          state.control.requests.append(
            SandboxRecordedRequest(
              serial: serial, method: request.method.rawValue, path: rawPath, query: components?.percentEncodedQuery ?? "",
              authorization: request.headers["Authorization"] != nil))
          return serial
        } : nil
      let streamSerial = rawPath == Self.streamPath ? streamAttempt() : nil
      answer = await respond(to: request, rawPath: rawPath, now: now, trace: &trace)
      if let streamSerial { streamAnswered(streamSerial, answer: &answer) }
      if let serial {
        let status = answer.delivery == .reset ? 0 : answer.response.status
        state.withLock { state in
          state.control.requests.update(serial: serial) { entry in
            entry.status = status
            entry.auth = trace.auth
          }
        }
      }
    }
    answer.response.headers =
      [("Date", HTTPDate.string(from: Date(epochSeconds: now)))] + answer.response.headers
      + (answer.response.stream == nil ? [("Content-Length", String(answer.response.body.count))] : [])
    return Exchange(response: answer.response, delivery: answer.delivery, verdict: trace.verdict)
  }

  /// The PIN the sandbox's authorize page shows for a request token, or `nil` if the token is
  /// unknown or already exchanged: how a program (or test) plays the user who reads the PIN.
  ///
  /// ```swift
  /// let login = XLogin(consumer: XSandbox.demoConsumer, transport: sandbox)
  /// let pending = try await login.start()
  /// let pin = sandbox.pin(forRequestToken: pending.temporary.credentials.key)!
  /// let account = try await login.finish(pending, pin: pin)
  /// ```
  package func pin(forRequestToken token: String) -> String? {
    state.withLock { $0.requestTokens[token]?.verifier }
  }

  /// How many OAuth 1.0a requests passed every check and how many requests were refused for
  /// their authentication, for tests and `--verbose`.
  ///
  /// ```swift
  /// _ = try? await client.v2.me()
  /// print(sandbox.stats.rejected)  // 1 if the consumer secret was wrong
  /// ```
  package var stats: (verified: Int, rejected: Int) {
    state.withLock { ($0.verified, $0.rejected) }
  }

  /// Why requests were refused, by reason (`signature_invalid`, `timestamp_refused`,
  /// `token_rejected`, `missing_auth`, `bad_verifier`, `app_only_forbidden`, ...), to tell a
  /// user more than X would.
  ///
  /// ```swift
  /// sandbox.rejections  // ["signature_invalid": 1]
  /// ```
  package var rejections: [String: Int] {
    state.withLock { $0.rejections }
  }

  // MARK: - Answering

  func respond(to request: HTTPRequest, rawPath: String, now: Int64, trace: inout Trace) async -> (SandboxResponse, SandboxDelivery) {
    let method = request.method.rawValue
    if let edge = state.withLock({ $0.control.popAction(for: rawPath, redirectsOnly: true) }), let target = edge.redirect {
      let query = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? ""
      let location = target + (edge.keepQuery && !query.isEmpty ? "?" + query : "")
      return (SandboxResponse(status: edge.status ?? 307, contentType: "text/plain", body: Data(), headers: [("Location", location)]), .whole)
    }
    if Self.isOAuth2Path(rawPath) {
      return await deliver(scriptedFor: rawPath, family: .v2, route: nil, identity: "", now: now) { oauth2(request, path: rawPath, now: now) }
    }
    guard let url = SandboxURL(request.url) else { return (.html(404, XBodies.notFoundPage), .whole) }
    let family: SandboxFamily
    if url.path.hasPrefix("/2/") {
      family = .v2
    } else if url.path.hasPrefix("/1.1/") {
      family = .v1
    } else if url.path == "/oauth/request_token" || url.path == "/oauth/access_token" {
      family = .oauth
    } else {
      if method == "GET" || method == "HEAD", url.path == "/oauth/authorize" || url.path == "/oauth/authenticate" {
        return await deliver(scriptedFor: rawPath, family: .oauth, route: nil, identity: "", now: now) {
          authorizePage(token: url.query.firstValues["oauth_token"] ?? "")
        }
      }
      return (.html(404, XBodies.notFoundPage), .whole)
    }

    let caller: SandboxCaller
    switch await authenticate(request, url: url, family: family, trace: &trace) {
    case .caller(let who): caller = who
    case .denied(let response): return (response, .whole)
    }
    if family == .oauth {
      return await deliver(scriptedFor: rawPath, family: family, route: nil, identity: caller.identity, now: now) {
        oauthEndpoint(method: method, path: url.path, caller: caller)
      }
    }

    guard let (route, captures) = SandboxRoute.find(method: method, segments: url.segments) else {
      return (family == .v1 ? .v1(404, XBodies.pageDoesNotExist) : .html(404, XBodies.notFoundPage), .whole)
    }
    if caller.kind == .bearer && !route.bearerOK {
      state.withLock { $0.reject("app_only_forbidden") }
      if family == .v1 && method != "GET" {
        return (.v1(403, XBodies.v1Errors(220, "Your credentials do not allow access to this resource.")), .whole)
      }
      return (.v2(403, XBodies.appOnlyForbidden), .whole)
    }
    if caller.kind != .bearer && route.appOnly {
      state.withLock { $0.reject("user_context_forbidden") }
      return (.v2(403, XBodies.userContextForbidden), .whole)
    }
    let context = RouteContext(
      method: method, params: url.query, query: url.query.firstValues, body: request.body,
      contentType: request.headers["Content-Type"], caller: caller, family: family, now: now, captures: captures)
    return await deliver(scriptedFor: rawPath, family: family, route: route, identity: caller.identity, now: now) {
      if let allowed = route.allowed {
        for (name, value) in url.query where !name.hasPrefix("oauth_") && !allowed.contains(name) {
          return .v2(400, XBodies.invalidRequest(name, [value], "The query parameter [\(name)] is not one of [\(allowed.joined(separator: ","))]"))
        }
      }
      return state.withLock { state in
        guard let limit = route.limit else { return route.handler(&state, context) }
        let (allowed, headers) = state.takeRateLimit(route.name, limit: limit, identity: caller.identity, path: rawPath, now: now)
        guard allowed else {
          return family == .v2 ? .v2(429, XBodies.tooManyRequests, headers: headers) : .v1(429, XBodies.rateLimitExceeded, headers: headers)
        }
        var response = route.handler(&state, context)
        response.headers += headers
        return response
      }
    }
  }

  // MARK: - Authentication

  enum Authentication {
    case caller(SandboxCaller)
    case denied(SandboxResponse)
  }

  /// How a refusal is worded: X's answers differ by cause and by API.
  enum Refusal { case missing, signature, token, timestamp, verifier }

  func deny(_ family: SandboxFamily, reason: String, _ refusal: Refusal) -> Authentication {
    state.withLock { $0.reject(reason) }
    switch refusal {
    case .timestamp: return .denied(.v1(401, XBodies.timestampOutOfBounds))
    case .verifier: return .denied(.text(401, XBodies.verifierError))
    default: break
    }
    if family == .v2 { return .denied(.v2(401, XBodies.unauthorized)) }
    switch refusal {
    case .missing: return .denied(.v1(400, XBodies.badAuthentication))
    case .token: return .denied(.v1(401, XBodies.invalidToken))
    default: return .denied(.v1(401, XBodies.couldNotAuthenticate))
    }
  }

  /// A bearer token, or an OAuth 1.0a signature checked by ``OAuthVerifier`` plus what the
  /// OAuth endpoints need (a callback; the right PIN, once).
  func authenticate(_ request: HTTPRequest, url: SandboxURL, family: SandboxFamily, trace: inout Trace) async -> Authentication {
    let header = request.headers["Authorization"]
    let trimmed = (header ?? "").trimmingCharacters(in: .whitespaces)
    let scheme = trimmed.prefix { !$0.isWhitespace }.lowercased()
    if scheme == "bearer" && family != .oauth {
      trace.auth = "bearer"
      let token = trimmed.dropFirst(scheme.count).trimmingCharacters(in: .whitespaces)
      if token.hasPrefix("sbx2-at-") {
        trace.auth = "oauth2"
        let now = clock.secondsSince1970()
        switch state.withLock({ $0.oauth2.user(ofAccessToken: token, now: now) }) {
        case .failure(.expired): return deny(family, reason: "oauth2_token_expired", .token)
        case .failure: return deny(family, reason: "oauth2_token_invalid", .token)
        case .success(let grant):
          guard family == .v2 else {
            state.withLock { $0.reject("oauth2_on_v1") }
            return .denied(.v1(403, XBodies.v1Errors(220, "Your credentials do not allow access to this resource.")))
          }
          state.withLock { $0.control.oauth2 += 1 }
          return .caller(SandboxCaller(kind: .oauth2, userID: grant.userID, callback: nil))
        }
      }
      guard token == Self.demoBearerToken else {
        return deny(family, reason: "bearer_invalid", .token)
      }
      state.withLock { $0.control.bearer += 1 }
      return .caller(SandboxCaller(kind: .bearer, userID: nil, callback: nil))
    }

    let contentType = request.headers["Content-Type"]
    var names = url.query.map(\.0)
    if mediaType(contentType) == "application/x-www-form-urlencoded", let body = request.body {
      names += SandboxURL.pairs(String(decoding: body, as: UTF8.self)).map(\.0)
    }
    guard scheme == "oauth" || names.contains(where: { $0.hasPrefix("oauth_") }) else {
      return deny(family, reason: "missing_auth", .missing)
    }
    trace.auth = "oauth1"

    let lookup = SandboxCredentialLookup(
      state: state, consumer: Self.demoConsumer, tokens: url.path == "/oauth/access_token" ? .request : .access)
    let verifier = OAuthVerifier(credentials: lookup, nonceStore: nonceStore, options: verifierOptions)
    let oauthRequest = OAuthRequest(method: request.method.rawValue, url: request.url.absoluteString, body: request.body, contentType: contentType)
    let verified: VerifiedRequest
    do {
      verified = try await verifier.verify(oauthRequest, authorization: header)
      trace.verdict = "verified"
    } catch {
      trace.verdict = error.problem.rawValue
      switch error.problem {
      case .timestampRefused: return deny(family, reason: error.problem.rawValue, .timestamp)
      case .tokenRejected: return deny(family, reason: error.problem.rawValue, .token)
      default: return deny(family, reason: error.problem.rawValue, .signature)
      }
    }

    var userID = SandboxData.mainUserID
    switch family {
    case .oauth where url.path == "/oauth/request_token":
      guard let callback = verified.callback, !callback.isEmpty else { return deny(family, reason: "missing_callback", .signature) }
    case .oauth:
      let exchanged = state.withLock { state -> Bool in
        guard let token = verified.token, let pending = state.requestTokens[token], pending.verifier == verified.verifier else { return false }
        state.requestTokens[token] = nil  // single use
        return true
      }
      guard exchanged else { return deny(family, reason: "bad_verifier", .verifier) }
    case .v1, .v2:
      guard let token = verified.token, let owner = state.withLock({ $0.accessToken(token) }) else {
        return deny(family, reason: "missing_token", .token)
      }
      if state.withLock({ $0.control.revoked.contains(token) }) { return deny(family, reason: "token_revoked", .token) }
      userID = owner.userID
    }
    state.withLock { $0.verified += 1 }
    return .caller(SandboxCaller(kind: .oauth1, userID: userID, callback: verified.callback))
  }

  // MARK: - The PIN flow

  /// `POST /oauth/request_token` and `POST /oauth/access_token`, once authenticated: a request
  /// token with a PIN waiting for it, or an access token of @sandbox_user (form-encoded, with
  /// X's `text/html` content type).
  func oauthEndpoint(method: String, path: String, caller: SandboxCaller) -> SandboxResponse {
    guard method == "POST" else { return .v1(404, XBodies.pageDoesNotExist) }
    if path == "/oauth/request_token" {
      let token = SandboxTokens.randomString(length: 27)
      let pending = PendingRequestToken(
        secret: SandboxTokens.randomString(length: 32), verifier: String(Int.random(in: 1_000_000...9_999_999)),
        callback: caller.callback ?? "oob")
      state.withLock { $0.requestTokens[token] = pending }
      return .text(
        200, "oauth_token=\(token)&oauth_token_secret=\(pending.secret)&oauth_callback_confirmed=true",
        contentType: SandboxResponse.htmlContentType)
    }
    let user = SandboxData.usersByID[SandboxData.mainUserID]!
    let issued = SandboxTokens.issue(for: user.id)
    state.withLock { $0.accessTokens[issued.key] = (issued.secret, user.id) }
    return .text(
      200, "oauth_token=\(issued.key)&oauth_token_secret=\(issued.secret)&user_id=\(user.id)&screen_name=\(user.username)",
      contentType: SandboxResponse.htmlContentType)
  }

  /// `GET /oauth/authorize?oauth_token=`: the page a user would see after approving the app,
  /// with the PIN in `<code id="oauth_pin">` (and, for a web callback, the link back).
  func authorizePage(token: String) -> SandboxResponse {
    guard let pending = state.withLock({ $0.requestTokens[token] }) else { return .html(404, XBodies.notFoundPage) }
    var link = ""
    if pending.callback != "oob" {
      let separator = pending.callback.contains("?") ? "&" : "?"
      let target = pending.callback + separator + "oauth_token=" + OAuthPercentEncoding.encode(token) + "&oauth_verifier=" + pending.verifier
      link = "<p><a id=\"oauth_callback\" href=\"\(Self.escapeHTML(target))\">Return to the application</a></p>\n"
    }
    let user = SandboxData.usersByID[SandboxData.mainUserID]!
    let page = """
      <!DOCTYPE html>
      <html lang="en"><head><meta charset="utf-8"><title>Authorize application</title></head>
      <body><div class="oauth_pin_page"><p>You've granted access to the X sandbox app as @\(user.username).</p>
      <p>Next, return to the app and enter this PIN to complete the authorization process:</p>
      <p><kbd aria-labelledby="code-desc"><code id="oauth_pin">\(pending.verifier)</code></kbd></p></div>
      \(link)</body></html>

      """
    return .html(200, page)
  }

  static func escapeHTML(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }
}

/// A writer for a stream nobody reads: its producer stops at once.
private struct RefusingWriter: StreamingBodyWriter {
  func write(_ data: Data) -> Bool { false }
  func reset() {}
}
