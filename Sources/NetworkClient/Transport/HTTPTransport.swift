/// Sends one request and returns the response, whatever its status. The client's only
/// contact with the network, so tests can replace it (`StubTransport` in `NetworkClientTesting`) and servers can
/// bring their own.
///
/// ```swift
/// struct Offline: HTTPTransport {
///   func send(_ request: HTTPRequest) async throws -> HTTPResponse {
///     throw URLError(.notConnectedToInternet)
///   }
/// }
/// ```
public protocol HTTPTransport: Sendable {
  /// Sends `request`. Throws for a failure without an HTTP response, and
  /// ``NetworkError/cancelled`` (or `CancellationError`) when the task is cancelled.
  func send(_ request: HTTPRequest) async throws -> HTTPResponse
}
