/// Authenticates every request with `Authorization: Bearer <token>` (OAuth 2.0 bearer tokens,
/// such as X's app-only tokens).
///
/// ```swift
/// let client = NetworkClient(baseURL: api, behavior: BearerTokenBehavior(token: bearer))
/// ```
public struct BearerTokenBehavior: RequestBehavior, CustomStringConvertible {
  /// The token sent as `Authorization: Bearer <token>`. The behavior is a signer, so the token does not follow a
  /// redirect to an untrusted origin, and `description` hides it.
  public let token: String

  /// Creates a behavior that sends `token` (without the `Bearer ` prefix) with every request.
  public init(token: String) { self.token = token }

  public var isSigner: Bool { true }

  public func modify(_ request: HTTPRequest) async throws -> HTTPRequest {
    var request = request
    request.headers["Authorization"] = "Bearer \(token)"
    return request
  }

  public var description: String { "BearerTokenBehavior(token: <redacted>)" }
}
