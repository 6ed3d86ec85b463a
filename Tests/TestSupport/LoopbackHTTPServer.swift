import CommandLineSupport
import Foundation

/// A minimal HTTP/1.1 server on 127.0.0.1 for tests that need a Swift handler behind a real
/// socket (the verifier behind a loopback proxy): one request per connection, the body read by
/// `Content-Length`, the peer's address reported as the socket gives it.
public final class LoopbackHTTPServer: Sendable {
  /// A received request.
  public struct Request: Sendable {
    public let method: String
    /// The request target as sent (`/path?query`).
    public let target: String
    public let headers: [(name: String, value: String)]
    public let body: Data
    /// The connection's remote address (`127.0.0.2`).
    public let peerAddress: String

    public func header(_ name: String) -> String? { headers.last { $0.name.lowercased() == name.lowercased() }?.value }
  }

  public var port: Int { Int(listener.port) }
  private let listener: LoopbackListener
  private let handler: @Sendable (Request) async -> (status: Int, body: String)

  public init(handler: @escaping @Sendable (Request) async -> (status: Int, body: String)) throws {
    self.handler = handler
    listener = try LoopbackListener(port: 0)
    // The loop holds the listener and the handler, not the server: dropping the server closes
    // the listener, which ends the loop.
    let listener = self.listener
    Thread.detachNewThread {
      while let connection = listener.accept(until: .distantFuture) {
        Thread.detachNewThread { Self.serve(connection, handler) }
      }
    }
  }

  public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

  public func stop() { listener.close() }

  deinit { stop() }

  private static func serve(
    _ connection: LoopbackListener.Connection, _ handler: @escaping @Sendable (Request) async -> (status: Int, body: String)
  ) {
    defer { connection.close() }
    let deadline = Date().addingTimeInterval(60)
    guard let head = connection.readHead(until: deadline) else { return }
    var body = head.bodyStart
    let length = Int(head.header("Content-Length") ?? "0") ?? 0
    while body.count < length {
      guard let more = connection.read(upTo: length - body.count, until: deadline) else { return }
      body.append(more)
    }
    let request = Request(method: head.method, target: head.target, headers: head.headers, body: body, peerAddress: connection.peerAddress)
    // This thread is the connection's own: it may wait for the async handler.
    let done = DispatchSemaphore(value: 0)
    let result = Answer()
    Task {
      result.value = await handler(request)
      done.signal()
    }
    done.wait()
    guard let answer = result.value else { return }
    connection.answer(status: "\(answer.status) X", contentType: "text/plain; charset=utf-8", body: Data(answer.body.utf8))
  }
}

/// The handler's answer, handed from its task to the connection's thread (the semaphore orders
/// the write before the read).
private final class Answer: @unchecked Sendable {
  var value: (status: Int, body: String)?
}
