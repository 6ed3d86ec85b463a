/// An HTTP method. Any token is allowed; the common ones are constants.
///
/// ```swift
/// let method: HTTPMethod = .post
/// method.isIdempotent  // false: a retry could post twice
/// ```
public struct HTTPMethod: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
  public let rawValue: String

  public init(rawValue: String) { self.rawValue = rawValue.uppercased() }
  public init(stringLiteral value: String) { self.init(rawValue: value) }

  /// `GET`: reads a resource. Idempotent, so ``RetryBehavior`` retries it after a 5xx or a lost connection.
  public static let get: HTTPMethod = "GET"
  /// `HEAD`: like `GET`, but the response has no body. Idempotent.
  public static let head: HTTPMethod = "HEAD"
  /// `POST`: creates or acts. Not idempotent: not retried after a 5xx or a lost connection unless the request or the
  /// retry policy allows it.
  public static let post: HTTPMethod = "POST"
  /// `PUT`: replaces a resource with the body. Idempotent.
  public static let put: HTTPMethod = "PUT"
  /// `PATCH`: changes part of a resource. Not idempotent.
  public static let patch: HTTPMethod = "PATCH"
  /// `DELETE`: removes a resource. Idempotent.
  public static let delete: HTTPMethod = "DELETE"
  /// `OPTIONS`: asks which methods and features a resource supports. Idempotent.
  public static let options: HTTPMethod = "OPTIONS"

  /// Whether sending the request twice has the effect of sending it once (RFC 9110 9.2.2),
  /// which is what makes a retry safe.
  public var isIdempotent: Bool {
    ["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"].contains(rawValue)
  }

  public var description: String { rawValue }
}
