internal import CryptoPrimitives
import Foundation
import NetworkClient

#if canImport(Glibc)
  import Glibc
#endif

/// The sandbox calling a registered webhook as X does: the challenge-response check
/// (`GET URL?crc_token=T`, answered `{"response_token": "sha256=" + base64(HMAC-SHA256(consumer
/// secret, T))}`) and a signed event POST (`x-twitter-webhooks-signature: sha256=` +
/// base64(HMAC-SHA256(consumer secret, body))), with X's formulas (x-api/webhooks/*).
///
/// It talks to loopback only: a URL whose host is not an IP literal of this machine's loopback
/// (127.0.0.0/8 or ::1) is refused before any connection (``loopbackURL(_:)``), so that a
/// sandbox, which anyone can register a URL with, never reaches another host. Every call is
/// bounded: ``timeout`` seconds in all (X's 10 s for the CRC), at most ``maxAnswerBytes`` of
/// an answer read, no redirect followed, no proxy.
///
/// ```swift
/// guard let url = SandboxWebhookCaller.loopbackURL("http://127.0.0.1:8978/webhook") else { return refuse() }
/// let passed = await SandboxWebhookCaller.crc(url, secret: XSandbox.demoConsumer.secret)
/// ```
enum SandboxWebhookCaller {
  /// How long one call may take, connection included: X's 10 s for a CRC answer.
  static let timeout: TimeInterval = 10
  /// The most bytes of an answer read (64 KiB): a CRC answer is some 60 bytes; a larger one
  /// fails the call.
  static let maxAnswerBytes = 64 << 10
  /// The longest URL X takes (`CreateWebhooksRequest.url`: 200 characters).
  static let maxURLLength = 200
  /// The header the signature of an event POST goes in.
  static let signatureHeader = "x-twitter-webhooks-signature"

  /// The transport of every call: its own curl engine, bounded as above (loopback goes
  /// without a proxy; redirects are not followed).
  static let transport: CurlTransport = {
    var configuration = CurlTransport.Configuration(environment: [:])
    configuration.connectTimeout = timeout
    configuration.totalTimeout = timeout
    configuration.maxResponseBytes = maxAnswerBytes
    configuration.maxConnections = 8
    configuration.maxConnectionsPerHost = 4
    return CurlTransport(configuration: configuration)
  }()

  /// `text` as a URL the sandbox may call: `http` or `https`, no user or password, at most
  /// ``maxURLLength`` characters, and a host that is an IP literal of loopback (`127.0.0.1`,
  /// any 127.x.y.z in dotted-quad form, `[::1]`); `nil` for anything else (`localhost`, which a
  /// resolver could send elsewhere, `127.1`, a public host).
  static func loopbackURL(_ text: String) -> URL? {
    guard text.count <= maxURLLength, let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
      scheme == "http" || scheme == "https", components.user == nil, components.password == nil, let host = components.host,
      isLoopbackLiteral(host), let url = components.url
    else { return nil }
    return url
  }

  /// Whether `host` (brackets allowed) is 127.0.0.0/8 in dotted-quad form or `::1`.
  static func isLoopbackLiteral(_ host: String) -> Bool {
    var name = host
    if name.hasPrefix("[") && name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
    var v4 = in_addr()
    if !name.contains(":") {
      guard inet_pton(AF_INET, name, &v4) == 1 else { return false }
      return withUnsafeBytes(of: v4) { $0[0] } == 127
    }
    var v6 = in6_addr()
    guard inet_pton(AF_INET6, name, &v6) == 1 else { return false }
    return withUnsafeBytes(of: v6) { bytes in bytes.prefix(15).allSatisfy { $0 == 0 } && bytes[15] == 1 }
  }

  /// `sha256=` and the base64 of HMAC-SHA256 of `message` keyed with `secret`: the CRC's
  /// `response_token` and an event's signature alike.
  static func signature(of message: some Collection<UInt8>, secret: String) -> String {
    "sha256=" + Data(HMACKey(.sha256, key: Array(secret.utf8)).mac(of: message)).base64EncodedString()
  }

  /// Sends a CRC with a fresh random token to `url` and says whether the answer is X's: status
  /// 200 and a JSON object whose `response_token` is the token's signature, within ``timeout``.
  /// Otherwise, why not (for the refusal X sends: `CrcValidationFailed`).
  static func crc(_ url: URL, secret: String) async -> String? {
    let token = SandboxServer.randomToken()
    guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "the URL cannot take a query" }
    components.percentEncodedQuery = (components.percentEncodedQuery.map { $0 + "&" } ?? "") + "crc_token=" + token
    guard let target = components.url else { return "the URL cannot take a query" }
    let response: HTTPResponse
    do {
      response = try await transport.send(HTTPRequest(method: .get, url: target, timeout: timeout))
    } catch {
      return "no answer within \(Int(timeout)) s of at most \(maxAnswerBytes) bytes (\(error))"
    }
    guard response.statusCode == 200 else { return "the answer's status was \(response.statusCode), not 200" }
    let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any]
    guard let answered = object?["response_token"] as? String else { return "the answer is not a JSON object with a response_token" }
    guard answered == signature(of: Array(token.utf8), secret: secret) else { return "the response_token is not the token's HMAC-SHA256" }
    return nil
  }

  /// POSTs `body` to `url`, signed; the status of the answer, or `nil` when none came within
  /// ``timeout``.
  static func deliver(_ body: Data, to url: URL, secret: String) async -> Int? {
    let request = HTTPRequest(
      method: .post, url: url,
      headers: HTTPHeaders([("Content-Type", "application/json"), (signatureHeader, signature(of: body, secret: secret))]), body: body,
      timeout: timeout)
    return try? await transport.send(request).statusCode
  }
}
