import Foundation
import Locking

/// A small HTTP/1.1 server on 127.0.0.1 over ``LoopbackListener``: each connection on a thread
/// of its own (never one of Swift's cooperative threads, which a busy caller may hold), one
/// request per connection, the body read by `Content-Length` or chunked, `Expect:
/// 100-continue` answered. It serves `tweets sandbox serve` and the tests' Swift handlers.
///
/// ```swift
/// let server = try LoopbackHTTPServer { request in
///   .init(status: 200, headers: [("Content-Type", "text/plain")], body: Data("hi".utf8))
/// }
/// print(server.baseURL)  // http://127.0.0.1:PORT
/// ```
package final class LoopbackHTTPServer: Sendable {
  /// A received request.
  package struct Request: Sendable {
    /// `GET`, `POST`...
    package let method: String
    /// The request target as sent (`/path?query`).
    package let target: String
    /// The header fields, in order.
    package let headers: [(name: String, value: String)]
    /// The body, whole (de-chunked).
    package let body: Data
    /// The connection's remote address (`127.0.0.2`).
    package let peerAddress: String

    /// The last value of a header, by name in any case.
    package func header(_ name: String) -> String? { headers.last { $0.name.lowercased() == name.lowercased() }?.value }
  }

  /// An answer, and how it reaches the client: whole, or broken as a test's fault asks.
  package struct Response: Sendable {
    /// How the answer is delivered.
    package enum Delivery: Sendable {
      /// The answer as it is.
      case whole
      /// The head and half the body, then the end of the stream (a short body).
      case truncated
      /// The head and half the body, then a TCP reset.
      case resetMidBody
      /// A TCP reset before any answer.
      case reset
    }

    /// The HTTP status code.
    package var status: Int
    /// In order; `Content-Length` and `Connection: close` are added.
    package var headers: [(String, String)]
    /// The body (none for `HEAD`).
    package var body: Data
    /// Whole, or broken on purpose.
    package var delivery: Delivery
    /// A body written over time instead of ``body``: called on the connection's own thread
    /// after the head, sent with `Transfer-Encoding: chunked`, it writes for as long as it
    /// likes (a stream of events); the response ends when it returns.
    package var stream: (@Sendable (any StreamingBodyWriter) -> Void)?

    /// An answer; by default whole, with no header but those the server adds.
    package init(
      status: Int, headers: [(String, String)] = [], body: Data = Data(), delivery: Delivery = .whole,
      stream: (@Sendable (any StreamingBodyWriter) -> Void)? = nil
    ) {
      self.status = status
      self.headers = headers
      self.body = body
      self.delivery = delivery
      self.stream = stream
    }
  }

  private let listener: LoopbackListener

  /// The port it listens on.
  package var port: UInt16 { listener.port }
  /// `http://127.0.0.1:PORT`.
  package var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

  /// Listens on 127.0.0.1:`port` (0: any free port) and answers every request with `handler`
  /// until ``stop()``. The handler runs as a task on an executor of the server's own (a
  /// dispatch queue), not on Swift's cooperative threads, which a process may have all blocked
  /// (tests waiting for their child processes starved a handler that way under the
  /// sanitizers); the connection's thread waits for it.
  package convenience init(port: UInt16 = 0, handler: @escaping @Sendable (Request) async -> Response) throws(LoopbackListener.Failure) {
    try self.init(port: port) { request in
      let answer = Locked<Response?>(nil)
      let work: @Sendable () async -> Void = {
        let response = await handler(request)
        answer.withLock { $0 = response }
      }
      if #available(macOS 15.0, *) {
        Task(executorPreference: QueueExecutor.shared) { await work() }
      } else {
        Task { await work() }
      }
      // This thread (the connection's own) waits for the handler's task.
      let answered: (Response?) -> Bool = { $0 != nil }
      return answer.withLock(waitingUntil: answered) { $0 } ?? Response(status: 500)
    }
  }

  /// Listens on 127.0.0.1:`port` (0: any free port) and answers every request with `answering`,
  /// called on the connection's own thread, until ``stop()``.
  package init(port: UInt16 = 0, answering handler: @escaping @Sendable (Request) -> Response) throws(LoopbackListener.Failure) {
    listener = try LoopbackListener(port: port)
    // The loop holds the listener and the handler, not the server: dropping the server closes
    // the listener, which ends the loop.
    let listener = self.listener
    Thread.detachNewThread {
      while let connection = listener.accept(until: .distantFuture) {
        Thread.detachNewThread { Self.serve(connection, handler) }
      }
    }
  }

  /// Stops listening; requests under way are answered.
  package func stop() { listener.close() }

  deinit { stop() }

  private static func serve(_ connection: LoopbackListener.Connection, _ handler: @Sendable (Request) -> Response) {
    defer { connection.close() }
    let deadline = Date().addingTimeInterval(60)
    guard let head = connection.readHead(until: deadline) else { return }
    if head.header("Expect")?.lowercased() == "100-continue" { connection.write(Data("HTTP/1.1 100 Continue\r\n\r\n".utf8)) }
    guard let body = readBody(of: head, from: connection, until: deadline) else {
      return write(Response(status: 400, headers: [("Content-Type", "text/plain")], body: Data("unreadable body\n".utf8)), to: connection)
    }
    let request = Request(method: head.method, target: head.target, headers: head.headers, body: body, peerAddress: connection.peerAddress)
    var response = handler(request)
    if head.method == "HEAD" { response.body = Data() }
    write(response, to: connection)
  }

  private static func write(_ response: Response, to connection: LoopbackListener.Connection) {
    if response.delivery == .reset { return connection.reset() }
    if let stream = response.stream {
      var head = "HTTP/1.1 \(response.status) \(reasonPhrase(response.status))\r\n"
      for (name, value) in response.headers where !["content-length", "transfer-encoding"].contains(name.lowercased()) {
        head += "\(name): \(value)\r\n"
      }
      head += "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
      guard connection.write(Data(head.utf8)) else { return }
      let writer = ChunkedWriter(connection: connection)
      stream(writer)
      writer.finish()
      return
    }
    var head = "HTTP/1.1 \(response.status) \(reasonPhrase(response.status))\r\n"
    for (name, value) in response.headers where name.lowercased() != "content-length" { head += "\(name): \(value)\r\n" }
    head += "Content-Length: \(response.body.count)\r\nConnection: close\r\n\r\n"
    switch response.delivery {
    case .whole:
      connection.write(Data(head.utf8) + response.body)
    case .truncated:
      connection.write(Data(head.utf8) + response.body.prefix(response.body.count / 2))
      connection.finishWriting()
    case .resetMidBody:
      connection.write(Data(head.utf8) + response.body.prefix(response.body.count / 2))
      connection.reset()
    case .reset:
      connection.reset()
    }
  }

  /// The request body: by `Content-Length`, or chunked; `nil` when it cannot be read in time.
  private static func readBody(of head: LoopbackListener.Connection.Head, from connection: LoopbackListener.Connection, until deadline: Date)
    -> Data?
  {
    var buffer = [UInt8](head.bodyStart)
    func fill(to count: Int) -> Bool {
      while buffer.count < count {
        guard let more = connection.read(upTo: min(1 << 20, max(65_536, count - buffer.count)), until: deadline) else { return false }
        buffer += more
      }
      return true
    }
    guard head.header("Transfer-Encoding")?.lowercased().contains("chunked") == true else {
      let length = Int(head.header("Content-Length") ?? "0") ?? -1
      guard length >= 0, fill(to: length) else { return nil }
      return Data(buffer.prefix(length))
    }
    var body = Data()
    var offset = 0
    while true {
      // The size line: hex digits, maybe `;extensions`, then CRLF.
      var lineEnd: Int?
      while lineEnd == nil {
        lineEnd = buffer.indices.dropFirst(offset).first { $0 + 1 < buffer.count && buffer[$0] == 13 && buffer[$0 + 1] == 10 }
        if lineEnd == nil, !fill(to: buffer.count + 1) { return nil }
      }
      let sizeText = String(decoding: buffer[offset..<lineEnd!], as: UTF8.self).split(separator: ";").first ?? ""
      guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0 else { return nil }
      if size == 0 { return body }
      let start = lineEnd! + 2
      guard fill(to: start + size + 2) else { return nil }
      body.append(contentsOf: buffer[start..<(start + size)])
      offset = start + size + 2
    }
  }

  /// The reason phrase of a status (`Service Unavailable`), as the status line and X's problem
  /// titles spell it; `Status` for one not listed.
  package static func reasonPhrase(_ status: Int) -> String {
    switch status {
    case 200: "OK"
    case 201: "Created"
    case 204: "No Content"
    case 301: "Moved Permanently"
    case 302: "Found"
    case 303: "See Other"
    case 307: "Temporary Redirect"
    case 308: "Permanent Redirect"
    case 400: "Bad Request"
    case 401: "Unauthorized"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 418: "I'm a teapot"
    case 429: "Too Many Requests"
    case 500: "Internal Server Error"
    case 502: "Bad Gateway"
    case 503: "Service Unavailable"
    case 504: "Gateway Timeout"
    default: "Status"
    }
  }
}

/// Runs tasks' jobs on a concurrent dispatch queue: its threads are added as others block, where
/// Swift's cooperative pool has one per core.
/// Where a streamed response body (``LoopbackHTTPServer/Response/stream``) goes: the chunks of
/// an HTTP/1.1 chunked body, or an in-process emulator's stream of chunks.
///
/// ```swift
/// let response = LoopbackHTTPServer.Response(status: 200) { writer in
///   while writer.write(Data("\r\n".utf8)) { Thread.sleep(forTimeInterval: 20) }
/// }
/// ```
package protocol StreamingBodyWriter: Sendable {
  /// Sends `data` at once (one chunk); `false` once the peer is gone: then stop writing.
  func write(_ data: Data) -> Bool
  /// Breaks the connection (a TCP reset): what a dropped stream looks like to its client.
  func reset()
}

/// Writes a chunked body on a connection, and its last chunk unless it was reset.
private final class ChunkedWriter: StreamingBodyWriter, Sendable {
  private let connection: LoopbackListener.Connection
  /// Whether the body ended (reset, finished, or the peer went away); held while writing, so
  /// that chunks do not interleave.
  private let broken = Locked(false)

  init(connection: LoopbackListener.Connection) {
    self.connection = connection
  }

  func write(_ data: Data) -> Bool {
    broken.withLock { broken in
      guard !broken else { return false }
      guard !data.isEmpty else { return true }
      if !connection.write(Data((String(data.count, radix: 16) + "\r\n").utf8) + data + Data("\r\n".utf8)) { broken = true }
      return !broken
    }
  }

  func reset() {
    broken.withLock { broken in
      guard !broken else { return }
      broken = true
      connection.reset()
    }
  }

  func finish() {
    broken.withLock { broken in
      guard !broken else { return }
      broken = true
      connection.write(Data("0\r\n\r\n".utf8))
    }
  }
}

@available(macOS 15.0, *)
private final class QueueExecutor: TaskExecutor {
  static let shared = QueueExecutor()
  private let queue = DispatchQueue(label: "LoopbackHTTPServer.handlers", attributes: .concurrent)

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedTaskExecutor()
    queue.async { job.runSynchronously(on: executor) }
  }
}
