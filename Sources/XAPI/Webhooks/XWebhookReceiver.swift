internal import CryptoPrimitives
import Foundation

/// The receiving end of X's webhooks, framework-neutral: a request in (method, target, header
/// fields, raw body), a response out, so that any Swift server (the package's loopback one,
/// Vapor, Hummingbird, a CGI script) can mount it at the URL registered with X.
///
/// It answers X's challenge-response check (`GET ?crc_token=T` with
/// `{"response_token":"sha256=" + base64(HMAC-SHA256(secret, T))}`) and, for an event `POST`,
/// checks the body's size (413 past ``maxBodyBytes``, before anything else) and its signature
/// header (`sha256=` + base64 of HMAC-SHA256 of the raw body, compared in constant time; 401
/// without one, 403 with a wrong, malformed or repeated one) before a byte of the body is
/// parsed; only then is the body read into ``XWebhookEvent``s. The secret is hashed into an HMAC
/// key at once and appears in no description, log or error (x-api/webhooks/introduction.mdx).
///
/// ```swift
/// let receiver = XWebhookReceiver(consumerSecret: secret)
/// let answer = receiver.handle(.init(method: "POST", target: "/webhook", headers: headers, body: body))
/// if case .delivery(let delivery) = answer.outcome {
///   for event in delivery.events { print(event.type) }
/// }
/// return (answer.response.status, answer.response.headers, answer.response.body)
/// ```
public struct XWebhookReceiver: Sendable, CustomStringConvertible {
  /// Which of the app's secrets X signs with, and so which header carries the signature.
  ///
  /// ```swift
  /// let receiver = XWebhookReceiver(secret: clientSecret, scheme: .oauth2ClientSecret)
  /// ```
  public enum Scheme: Sendable, Hashable {
    /// The OAuth 1.0a consumer secret (API secret key), in `X-Twitter-Webhooks-Signature`:
    /// the form every app that has a consumer secret receives.
    case consumerSecret
    /// The OAuth 2.0 client secret, in `X-Twitter-Webhooks-Signature-OAuth2`, which X
    /// recommends for apps that have one.
    case oauth2ClientSecret

    /// The header the signature arrives in, in lower case.
    public var signatureHeader: String {
      switch self {
      case .consumerSecret: "x-twitter-webhooks-signature"
      case .oauth2ClientSecret: "x-twitter-webhooks-signature-oauth2"
      }
    }
  }

  /// A request as a server received it.
  ///
  /// ```swift
  /// let request = XWebhookReceiver.Request(method: "GET", target: "/webhook?crc_token=abc")
  /// ```
  public struct Request: Sendable {
    /// `GET`, `POST`...
    public var method: String
    /// The request target: the path and the query as sent (`/webhook?crc_token=T`); a whole
    /// URL is taken too.
    public var target: String
    /// The header fields in order, repeated ones included (a repeated signature is refused).
    public var headers: [(name: String, value: String)]
    /// The body, exactly as received (the signature covers these bytes).
    public var body: Data

    /// A request from its parts.
    public init(method: String, target: String, headers: [(name: String, value: String)] = [], body: Data = Data()) {
      self.method = method
      self.target = target
      self.headers = headers
      self.body = body
    }
  }

  /// The answer to send back.
  ///
  /// ```swift
  /// let response = receiver.handle(request).response
  /// print(response.status, String(decoding: response.body, as: UTF8.self))
  /// ```
  public struct Response: Sendable {
    /// The HTTP status: 200, or the refusal's.
    public let status: Int
    /// `Content-Type`, and `Allow` with a 405.
    public let headers: [(name: String, value: String)]
    /// The CRC's JSON, a short reason for a refusal, or `{}` for an accepted event.
    public let body: Data
  }

  /// Why a request was refused: each with its status; none carries the body or the secret.
  ///
  /// ```swift
  /// if case .refused(let why) = receiver.handle(request).outcome { log("\(why.status) \(why)") }
  /// ```
  public enum Refusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// A POST without the signature header (401).
    case missingSignature
    /// More than one signature header (403): which one would count is not for the sender to pick.
    case repeatedSignature
    /// A signature header that is not `sha256=` and the base64 of 32 bytes (403).
    case malformedSignature
    /// A signature that does not match the body (403).
    case wrongSignature
    /// A body over the limit, in bytes (413), refused before it is hashed.
    case bodyTooLarge(limit: Int)
    /// A GET without exactly one non-empty `crc_token` of at most ``maxCRCTokenBytes`` (400).
    case badChallenge
    /// A method other than GET and POST (405).
    case methodNotAllowed(String)

    /// The HTTP status that says it.
    public var status: Int {
      switch self {
      case .missingSignature: 401
      case .repeatedSignature, .malformedSignature, .wrongSignature: 403
      case .bodyTooLarge: 413
      case .badChallenge: 400
      case .methodNotAllowed: 405
      }
    }

    /// A sentence, without the body or the secret.
    public var description: String {
      switch self {
      case .missingSignature: "no signature header: an event must be signed by X"
      case .repeatedSignature: "more than one signature header"
      case .malformedSignature: "the signature header is not sha256= and the base64 of an HMAC-SHA256"
      case .wrongSignature: "the signature does not match the body"
      case .bodyTooLarge(let limit): "the body is over \(limit) bytes"
      case .badChallenge: "a GET is a challenge-response check and takes exactly one non-empty crc_token"
      case .methodNotAllowed(let method):
        "\(String(method.prefix(16)).unicodeScalars.filter { $0.isASCII && $0.value >= 0x20 }) is neither GET nor POST"
      }
    }
  }

  /// What a request turned out to be.
  ///
  /// ```swift
  /// switch answer.outcome {
  /// case .challenge: break
  /// case .delivery(let delivery): store(delivery.events)
  /// case .refused(let why): log(why)
  /// }
  /// ```
  public enum Outcome: Sendable {
    /// A challenge-response check, answered.
    case challenge
    /// A signed event POST, verified and read.
    case delivery(XWebhookDelivery)
    /// A request refused, and why.
    case refused(Refusal)
  }

  /// The response to send, and what the request was.
  ///
  /// ```swift
  /// let answer = receiver.handle(request)
  /// send(answer.response)
  /// ```
  public struct Answer: Sendable {
    /// What to answer.
    public let response: Response
    /// What was received.
    public let outcome: Outcome
  }

  /// 1 MiB: X documents no maximum, its largest documented deliveries (a `post.create` with
  /// its includes, a batch of Account Activity events) are a few KiB, and every byte of a
  /// forged body is hashed before it is refused.
  public static let defaultMaxBodyBytes = 1_048_576
  /// The longest `crc_token` answered, in bytes (1 KiB; X's are a few dozen characters).
  public static let maxCRCTokenBytes = 1024
  /// The longest signature header value looked at (256 bytes; a real one is 51).
  public static let maxSignatureBytes = 256

  /// The scheme: which secret, which header.
  public let scheme: Scheme
  /// The largest body accepted, in bytes; a longer one gets 413 before it is hashed.
  public let maxBodyBytes: Int
  private let key: HMACKey

  /// A receiver for the app's OAuth 1.0a consumer secret (`X-Twitter-Webhooks-Signature`).
  ///
  /// ```swift
  /// let receiver = XWebhookReceiver(consumerSecret: ProcessInfo.processInfo.environment["X_CONSUMER_SECRET"]!)
  /// ```
  public init(consumerSecret: String, maxBodyBytes: Int = defaultMaxBodyBytes) {
    self.init(secret: consumerSecret, scheme: .consumerSecret, maxBodyBytes: maxBodyBytes)
  }

  /// A receiver for `secret`, the one `scheme` names.
  ///
  /// ```swift
  /// let receiver = XWebhookReceiver(secret: clientSecret, scheme: .oauth2ClientSecret)
  /// ```
  public init(secret: String, scheme: Scheme, maxBodyBytes: Int = defaultMaxBodyBytes) {
    self.scheme = scheme
    self.maxBodyBytes = max(0, maxBodyBytes)
    key = HMACKey(.sha256, key: Array(secret.utf8))
  }

  /// Names the scheme and the limit, never the secret.
  public var description: String { "XWebhookReceiver(\(scheme.signatureHeader), at most \(maxBodyBytes) bytes)" }

  /// `sha256=` and the base64 of the HMAC-SHA256 of `message`: the CRC's `response_token`,
  /// and what X sends as a body's signature.
  ///
  /// ```swift
  /// let token = receiver.signature(of: Data("challenge".utf8))
  /// ```
  public func signature(of message: Data) -> String {
    "sha256=" + Data(key.mac(of: message)).base64EncodedString()
  }

  /// The CRC's answer body: `{"response_token":"sha256=…"}` for `crcToken`.
  ///
  /// ```swift
  /// let body = receiver.challengeResponse(crcToken: "abc")
  /// ```
  public func challengeResponse(crcToken: String) -> Data {
    let object = ["response_token": signature(of: Data(crcToken.utf8))]
    return (try? JSONSerialization.data(withJSONObject: object, options: [.withoutEscapingSlashes])) ?? Data("{}".utf8)
  }

  /// Checks `body` against the signature header among `headers`, in constant time, without
  /// parsing the body; throws why it is refused.
  ///
  /// ```swift
  /// try receiver.verify(body: body, headers: [("x-twitter-webhooks-signature", signature)])
  /// ```
  public func verify(body: Data, headers: [(name: String, value: String)]) throws(Refusal) {
    guard body.count <= maxBodyBytes else { throw .bodyTooLarge(limit: maxBodyBytes) }
    let values = headers.filter { $0.name.lowercased() == scheme.signatureHeader }.map(\.value)
    guard let value = values.first else { throw .missingSignature }
    guard values.count == 1 else { throw .repeatedSignature }
    let text = value.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
    guard text.utf8.count <= Self.maxSignatureBytes, text.hasPrefix("sha256="),
      let sent = Data(base64Encoded: String(text.dropFirst("sha256=".count))), sent.count == DigestAlgorithm.sha256.byteCount
    else { throw .malformedSignature }
    let expected = key.mac(of: body)
    let same = Array(sent).withUnsafeBufferPointer { sent in expected.withUnsafeBufferPointer { ConstantTime.equals(sent, $0) } }
    guard same else { throw .wrongSignature }
  }

  /// Answers `request`: a CRC, a verified delivery of events, or a refusal.
  ///
  /// ```swift
  /// let answer = receiver.handle(.init(method: "GET", target: "/webhook?crc_token=abc"))
  /// // answer.response.status == 200
  /// ```
  public func handle(_ request: Request) -> Answer {
    switch request.method.uppercased() {
    case "GET", "HEAD":
      guard let token = Self.crcToken(in: request.target) else { return refuse(.badChallenge) }
      let response = Response(status: 200, headers: [("Content-Type", "application/json")], body: challengeResponse(crcToken: token))
      return Answer(response: response, outcome: .challenge)
    case "POST":
      do {
        try verify(body: request.body, headers: request.headers)
      } catch {
        return refuse(error)
      }
      let delivery = XWebhookDelivery(body: request.body)
      return Answer(
        response: Response(status: 200, headers: [("Content-Type", "application/json")], body: Data("{}".utf8)), outcome: .delivery(delivery))
    default:
      return refuse(.methodNotAllowed(request.method))
    }
  }

  private func refuse(_ why: Refusal) -> Answer {
    var headers = [(name: "Content-Type", value: "text/plain; charset=utf-8")]
    if case .methodNotAllowed = why { headers.append((name: "Allow", value: "GET, POST")) }
    return Answer(response: Response(status: why.status, headers: headers, body: Data((why.description + "\n").utf8)), outcome: .refused(why))
  }

  /// The one non-empty `crc_token` of a target's query, at most ``maxCRCTokenBytes``.
  static func crcToken(in target: String) -> String? {
    guard let query = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).dropFirst().first else { return nil }
    var tokens: [String] = []
    for pair in query.split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard parts[0] == "crc_token" else { continue }
      let raw = parts.count > 1 ? String(parts[1]).replacingOccurrences(of: "+", with: " ") : ""
      guard let value = raw.removingPercentEncoding else { return nil }
      tokens.append(value)
    }
    guard tokens.count == 1, let token = tokens.first, !token.isEmpty, token.utf8.count <= maxCRCTokenBytes else { return nil }
    return token
  }
}
