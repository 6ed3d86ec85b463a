import Foundation

/// Every way a request through ``NetworkClient`` can fail, each with what a person needs to
/// act on it.
///
/// ```swift
/// do {
///   let user = try await client.send(Request<User>(path: "users/me"))
/// } catch .httpStatus(let failure) where failure.statusCode == 429 {
///   print("rate limited; retry in", failure.retryAfter ?? 60, "s")
/// } catch {
///   print(error)  // a readable explanation, secrets redacted
/// }
/// ```
public enum NetworkError: Error, Sendable, CustomStringConvertible {
  /// The request could not be built (a path or query that makes no URL, a body that does not
  /// encode).
  case invalidRequest(reason: String)
  /// No HTTP response: connection refused, reset, timed out, DNS ...
  case transport(requestLine: String, underlying: any Error)
  /// The server answered with a status outside 200–299.
  case httpStatus(HTTPStatusFailure)
  /// The body did not decode as the expected type.
  case decoding(DecodingFailure)
  /// A behavior refused the request or the response (for example an API verification).
  case rejected(by: String, underlying: any Error)
  /// The task was cancelled.
  case cancelled

  public var description: String {
    switch self {
    case .invalidRequest(let reason):
      return "The request could not be built: \(reason)."
    case .transport(let requestLine, let underlying):
      return "\(requestLine) failed: \(Redaction.text(Self.explain(underlying))). Check the URL, the network and that the server is up."
    case .httpStatus(let failure):
      return failure.description
    case .decoding(let failure):
      return failure.description
    case .rejected(let behavior, let underlying):
      return "\(behavior) rejected the exchange: \(Redaction.text(String(describing: underlying)))"
    case .cancelled:
      return "The request was cancelled."
    }
  }

  /// A transport failure in words: what happened, then the system's own detail (curl's message
  /// on Linux), instead of the raw `NSError` dump.
  static func explain(_ error: any Error) -> String {
    let nsError = error as NSError
    guard nsError.domain == NSURLErrorDomain else { return String(describing: error) }
    let what: String
    switch URLError.Code(rawValue: nsError.code) {
    case .cannotConnectToHost: what = "could not connect (connection refused)"
    case .timedOut: what = "timed out waiting for the server"
    case .networkConnectionLost: what = "the connection was lost before the response was complete"
    case .cannotFindHost, .dnsLookupFailed: what = "the host name could not be resolved"
    case .notConnectedToInternet: what = "this computer is not connected to a network"
    case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
      .serverCertificateHasUnknownRoot, .clientCertificateRejected:
      what = "the TLS connection could not be established"
    case .badServerResponse, .cannotParseResponse: what = "the server's response was not valid HTTP or ended early"
    case .badURL, .unsupportedURL: what = "the URL cannot be requested"
    case .cancelled: what = "cancelled"
    case .unknown: what = "the transfer failed"
    default: what = "network error \(nsError.code)"
    }
    let detail = nsError.userInfo[NSLocalizedDescriptionKey] as? String
    guard let detail, !detail.isEmpty, detail != "(null)" else { return what }
    return "\(what) (\(detail))"
  }

  /// The status code, for an HTTP status failure.
  public var statusCode: Int? {
    if case .httpStatus(let failure) = self { return failure.statusCode }
    return nil
  }
}

/// A response whose status is not 2xx, with everything it said.
public struct HTTPStatusFailure: Sendable, CustomStringConvertible {
  public let statusCode: Int
  public let headers: HTTPHeaders
  public let body: Data
  public let requestLine: String
  /// Seconds until the server accepts requests again (`Retry-After`, else `x-rate-limit-reset`),
  /// measured when the response arrived.
  public let retryAfter: TimeInterval?
  /// The server's rate-limit state, if it sent one.
  public let rateLimit: RateLimit?

  public init(response: HTTPResponse, now: Date = Date()) {
    statusCode = response.statusCode
    headers = response.headers
    body = response.body
    requestLine = response.request.requestLine
    retryAfter = RetryAfter.delay(in: response.headers, now: now)
    rateLimit = response.rateLimit
  }

  public var description: String {
    var text = "\(requestLine) failed with HTTP \(statusCode)"
    if let excerpt = Redaction.excerpt(of: body) { text += ": \(excerpt)" }
    if let retryAfter { text += " (the server accepts requests again in \(Int(retryAfter.rounded(.up))) s)" }
    return text
  }
}

/// A body that did not decode, with the path to the offending value.
public struct DecodingFailure: Sendable, CustomStringConvertible {
  /// The type that was expected.
  public let type: String
  /// Where in the JSON decoding failed, as `data[0].author_id`.
  public let codingPath: String
  /// What the decoder said.
  public let reason: String
  /// The start of the body, redacted.
  public let excerpt: String?
  public let requestLine: String

  public init(type: Any.Type, error: any Error, response: HTTPResponse) {
    self.type = String(describing: type)
    requestLine = response.request.requestLine
    excerpt = Redaction.excerpt(of: response.body)
    switch error as? DecodingError {
    case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context), .dataCorrupted(let context):
      var path = context.codingPath
      if case .keyNotFound(let key, _) = error as? DecodingError { path.append(key) }
      codingPath = Self.render(path)
      reason = context.debugDescription
    default:
      codingPath = ""
      reason = String(describing: error)
    }
  }

  static func render(_ path: [any CodingKey]) -> String {
    var text = ""
    for key in path {
      if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
    }
    return text
  }

  public var description: String {
    var text = "The response to \(requestLine) is not a valid \(type)"
    if !codingPath.isEmpty { text += " at \(codingPath)" }
    text += ": \(reason)"
    if let excerpt { text += ". Body: \(excerpt)" }
    return text
  }
}
