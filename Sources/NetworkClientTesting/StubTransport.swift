import Foundation
import NetworkClient

/// A transport for tests: records every request and answers from a script, so a behavior or a
/// client can be tested without a server. Part of the `NetworkClientTesting` product, for your
/// tests as for this package's.
///
/// ```swift
/// let stub = StubTransport([
///   .status(503, headers: ["Retry-After": "1"]),
///   .json(#"{"id":"1"}"#),
/// ])
/// let client = NetworkClient(baseURL: URL(string: "https://api.example.com")!, transport: stub)
/// _ = try await client.send(Request<Item>(path: "items/1"))
/// stub.requests.count  // 2
/// ```
public final class StubTransport: HTTPTransport, Sendable {
  /// One scripted answer.
  public enum Reply: Sendable {
    /// A response with this status, headers and body.
    case status(Int, headers: HTTPHeaders = [:], body: Data = Data())
    /// A failure without a response.
    case failure(any Error)
    /// An answer computed from the request.
    case handler(@Sendable (HTTPRequest) async throws -> HTTPResponse)
    /// Another reply after a pause (which task cancellation interrupts).
    indirect case delayed(TimeInterval, Reply)

    /// A 200 response with a JSON body.
    public static func json(_ text: String, status: Int = 200, headers: HTTPHeaders = [:]) -> Reply {
      var headers = headers
      headers["Content-Type"] = headers["Content-Type"] ?? "application/json"
      return .status(status, headers: headers, body: Data(text.utf8))
    }
  }

  private let state: Locked<(script: [Reply], recorded: [HTTPRequest])>
  private let fallback: Reply?

  /// Answers with `script` in order, then with `fallback` for every further request (or fails
  /// the test run's request with an error saying the script ran out).
  public init(_ script: [Reply] = [], fallback: Reply? = nil) {
    state = Locked((script, []))
    self.fallback = fallback
  }

  /// Every request sent so far, as the transport received it.
  public var requests: [HTTPRequest] {
    state.withLock { $0.recorded }
  }

  /// The error `send(_:)` throws when the script is used up and there is no fallback; the client reports it as a
  /// transport failure (`NetworkError.transport`), so a test sees which request was one too many.
  public struct ScriptExhausted: Error, CustomStringConvertible {
    /// The request that found no reply, as `GET https://api.example.com/items`, secrets redacted.
    public let request: String
    public var description: String { "StubTransport has no reply left for \(request)" }
  }

  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    let reply: Reply? = state.withLock {
      $0.recorded.append(request)
      return $0.script.isEmpty ? fallback : $0.script.removeFirst()
    }
    guard let reply else { throw ScriptExhausted(request: request.requestLine) }
    return try await answer(reply, to: request)
  }

  private func answer(_ reply: Reply, to request: HTTPRequest) async throws -> HTTPResponse {
    switch reply {
    case .status(let status, let headers, let body):
      return HTTPResponse(statusCode: status, headers: headers, body: body, request: request)
    case .failure(let error):
      throw error
    case .handler(let handler):
      return try await handler(request)
    case .delayed(let seconds, let reply):
      try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
      return try await answer(reply, to: request)
    }
  }
}
