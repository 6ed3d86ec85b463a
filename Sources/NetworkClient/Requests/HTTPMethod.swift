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

  public static let get: HTTPMethod = "GET"
  public static let head: HTTPMethod = "HEAD"
  public static let post: HTTPMethod = "POST"
  public static let put: HTTPMethod = "PUT"
  public static let patch: HTTPMethod = "PATCH"
  public static let delete: HTTPMethod = "DELETE"
  public static let options: HTTPMethod = "OPTIONS"

  /// Whether sending the request twice has the effect of sending it once (RFC 9110 9.2.2),
  /// which is what makes a retry safe.
  public var isIdempotent: Bool {
    ["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"].contains(rawValue)
  }

  public var description: String { rawValue }
}
