import Foundation

/// A transport that hands over a response's body as it arrives, for endpoints that never end
/// their response: X's filtered stream sends one JSON object per line for hours.
/// ``HTTPTransport/send(_:)`` waits for the whole body, which such an endpoint never finishes.
///
/// ``URLSessionTransport`` is one; a test double or an in-process emulator can be another.
///
/// ```swift
/// let response = try await URLSessionTransport().open(HTTPRequest(method: .get, url: streamURL))
/// for try await chunk in response.body { print(chunk.count, "bytes") }
/// ```
public protocol HTTPStreamingTransport: Sendable {
  /// Sends `request` and returns as soon as the response's status and headers are in; the body
  /// follows in ``HTTPStreamingResponse/body``. Throws ``NetworkError/cancelled`` when the task
  /// is cancelled and ``NetworkError/transport(_:)`` when no response came (refused, reset).
  func open(_ request: HTTPRequest) async throws -> HTTPStreamingResponse
}

/// A response whose body is still arriving: status and headers, then the body's bytes in the
/// chunks the network delivered them, and a way to hang up.
///
/// ```swift
/// let response = try await transport.open(request)
/// guard response.statusCode == 200 else { throw Failure(try await response.collect()) }
/// for try await chunk in response.body { buffer.append(chunk) }
/// ```
public struct HTTPStreamingResponse: Sendable {
  /// The HTTP status code.
  public let statusCode: Int
  /// The response's headers.
  public let headers: HTTPHeaders
  /// The body as it arrives: it finishes when the server ends the response, and throws when the
  /// connection breaks (a reset, a hang-up by ``cancel``).
  public let body: AsyncThrowingStream<Data, any Error>
  /// Closes the connection: the body then ends with an error. Safe to call more than once and
  /// from any task, which is how a reader that finds the connection silent hangs up.
  public let cancel: @Sendable () -> Void

  /// A response from its parts; transports make them.
  public init(statusCode: Int, headers: HTTPHeaders, body: AsyncThrowingStream<Data, any Error>, cancel: @escaping @Sendable () -> Void) {
    self.statusCode = statusCode
    self.headers = headers
    self.body = body
    self.cancel = cancel
  }

  /// The rest of the body, up to `limit` bytes (then the connection is closed): how an error
  /// answer, which does end, is read whole.
  public func collect(limit: Int = 1 << 20) async throws -> Data {
    var data = Data()
    for try await chunk in body {
      data.append(chunk)
      if data.count >= limit {
        cancel()
        break
      }
    }
    return data
  }
}
