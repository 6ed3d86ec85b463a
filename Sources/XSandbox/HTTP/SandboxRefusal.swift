import Foundation

/// The answer that ends a handler early: X's 400 for a parameter, a not-found error. Handlers
/// throw it from their checks and answer with its response.
///
/// ```swift
/// do throws(SandboxRefusal) {
///   let user = try pathUser(ctx)
///   ...
/// } catch {
///   return error.response
/// }
/// ```
struct SandboxRefusal: Error {
  let response: SandboxResponse

  init(_ response: SandboxResponse) {
    self.response = response
  }

  /// A v2 400 about one query parameter (``XBodies/invalidRequest(_:_:_:)``).
  static func invalid(_ parameter: String, _ value: String, _ message: String) -> SandboxRefusal {
    SandboxRefusal(.v2(400, XBodies.invalidRequest(parameter, [value], message)))
  }
}
