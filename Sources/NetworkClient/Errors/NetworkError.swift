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
  case transport(TransportFailure)
  /// The server answered with a status outside 200–299 (a redirect that was not followed
  /// included).
  case httpStatus(HTTPStatusFailure)
  /// A redirect the client refused to follow (see ``RedirectPolicy``).
  case redirect(RedirectFailure)
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
    case .transport(let failure):
      return failure.description
    case .httpStatus(let failure):
      return failure.description
    case .redirect(let failure):
      return failure.description
    case .decoding(let failure):
      return failure.description
    case .rejected(let behavior, let underlying):
      return "\(behavior) rejected the exchange: \(Redaction.text(String(describing: underlying)))"
    case .cancelled:
      return "The request was cancelled."
    }
  }

  /// The status code, for an HTTP status failure.
  public var statusCode: Int? {
    if case .httpStatus(let failure) = self { return failure.statusCode }
    return nil
  }

  /// How many times the request was sent before this failure: more than 1 after retries.
  public var attempts: Int {
    switch self {
    case .transport(let failure): return failure.attempts
    case .httpStatus(let failure): return failure.attempts
    default: return 1
    }
  }

  /// The same failure, saying it came after `attempts` attempts (``RetryBehavior`` sets it when
  /// it gives up).
  public func after(attempts: Int) -> NetworkError {
    switch self {
    case .transport(var failure):
      failure.attempts = attempts
      return .transport(failure)
    case .httpStatus(var failure):
      failure.attempts = attempts
      return .httpStatus(failure)
    default:
      return self
    }
  }
}

/// A response whose status is not 2xx, with everything it said.
public struct HTTPStatusFailure: Sendable, CustomStringConvertible {
  /// The HTTP status, outside 200–299 (a 3xx when the client did not follow the redirect).
  public let statusCode: Int
  /// The response's headers, for `Retry-After`, rate limits or a `Location` that was not followed.
  public let headers: HTTPHeaders
  /// The response body as received, possibly empty and not redacted (`description` shows only a redacted excerpt).
  public let body: Data
  /// The request that got this answer (the last hop, after any redirects), as `GET https://api.example.com/items`,
  /// secrets redacted.
  public let requestLine: String
  /// Seconds until the server accepts requests again, measured when the response arrived
  /// (see ``RetryAfter/delay(in:statusCode:now:)``).
  public let retryAfter: TimeInterval?
  /// The server's rate-limit state, if it sent one.
  public let rateLimit: RateLimit?
  /// The redirects followed before this answer.
  public let redirections: [Redirection]
  /// How many times the request was sent; more than 1 after retries.
  public internal(set) var attempts: Int = 1

  /// - Parameters:
  ///   - response: the response that is not 2xx; its status, headers, body, rate limit, request line and redirects
  ///     are kept.
  ///   - now: when the response arrived, from which ``retryAfter`` is measured (an HTTP date or a rate-limit reset
  ///     becomes seconds); the current time by default.
  public init(response: HTTPResponse, now: Date = Date()) {
    statusCode = response.statusCode
    headers = response.headers
    body = response.body
    requestLine = response.request.requestLine
    retryAfter = RetryAfter.delay(in: response.headers, statusCode: response.statusCode, now: now)
    rateLimit = response.rateLimit
    redirections = response.request.redirections
  }

  /// Whether a redirect took the request to an origin that did not get its credentials, which
  /// explains an authentication failure better than the server's own words.
  public var lostCredentialsInRedirect: Bool { redirections.contains { !$0.keptCredentials } }

  public var description: String {
    var text = "\(requestLine)\(Redirection.note(redirections)) failed with HTTP \(statusCode)"
    if attempts > 1 { text += " after \(attempts) attempts" }
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
  /// The request whose response did not decode, as `GET https://api.example.com/items`, secrets redacted.
  public let requestLine: String

  /// - Parameters:
  ///   - type: the type the body should have decoded as.
  ///   - error: the decoder's error; a `DecodingError` gives the coding path and its description, any other error
  ///     only its description.
  ///   - response: the response whose body failed; its request line and a redacted excerpt of its body are kept.
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
