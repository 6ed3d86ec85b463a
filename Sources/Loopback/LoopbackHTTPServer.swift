import Foundation
import Locking

/// A small HTTP/1.1 server on 127.0.0.1 (and [::1] when asked) over ``LoopbackListener``: each
/// connection on a thread of its own (never one of Swift's cooperative threads, which a busy
/// caller may hold), one request per connection, the body read by `Content-Length` or chunked
/// (``HTTPRequestParser``), `Expect: 100-continue` answered. It serves `tweets sandbox serve`,
/// the OAuth 2.0 redirect receiver and the tests' Swift handlers.
///
/// Any process on the machine can connect, so what one client may cost is bounded (see
/// ``Limits``): the head's size (431 past it), the body's (413, decided before any of it is
/// read), the time to send the head, the silence between two reads (408), the time a send may
/// wait for a client that stopped reading, and the connections served at once (503 past it,
/// answered by one thread for all of them). A malformed request (a bare LF, a chunk size that
/// is not a number) is refused with 400 before the handler sees it.
///
/// ```swift
/// let server = try LoopbackHTTPServer { request in
///   .init(status: 200, headers: [("Content-Type", "text/plain")], body: Data("hi".utf8))
/// }
/// print(server.baseURL)  // http://127.0.0.1:PORT
/// ```
package final class LoopbackHTTPServer: Sendable {
  /// What one client may cost the server, each checked as the request arrives. The defaults
  /// suit `tweets sandbox serve` (whose largest request is an 8 MiB media segment); a test
  /// sets tiny ones to see each refusal.
  ///
  /// ```swift
  /// var limits = LoopbackHTTPServer.Limits()
  /// limits.maxConnections = 8
  /// let server = try LoopbackHTTPServer(limits: limits) { _ in .init(status: 204) }
  /// ```
  package struct Limits: Sendable, Equatable {
    /// The request's head at most, in bytes (with a chunked body's trailer fields); past it
    /// the client gets 431. Default ``HTTPRequestParser/Limits/defaultMaxHeadBytes`` (64 KiB).
    package var maxHeadBytes: Int
    /// The request's body at most, in bytes; a `Content-Length` or chunks over it get 413
    /// before any of the body is read. Default ``HTTPRequestParser/Limits/defaultMaxBodyBytes``
    /// (16 MiB).
    package var maxBodyBytes: Int
    /// How long the whole head may take to arrive, from the connection's start: a client that
    /// trickles a byte a second cannot hold a thread. Default ``defaultHeadTimeout``.
    package var headTimeout: TimeInterval
    /// How long the client may stay silent between two reads, in the head or the body; then
    /// 408. A connection that never sent a byte is closed without a word (a browser's
    /// preconnection). Default ``defaultIdleTimeout``.
    package var idleTimeout: TimeInterval
    /// How long one send may wait for a client that does not read (`SO_SNDTIMEO`); then the
    /// connection is dropped. Default ``defaultSendTimeout``.
    package var sendTimeout: TimeInterval
    /// How many connections are served at once, each on a thread; one more is answered 503 by
    /// a single thread that serves every such refusal. Default ``defaultMaxConnections``.
    package var maxConnections: Int

    /// 30 s to send a head (URLSession, curl and the browsers send it at once).
    package static let defaultHeadTimeout: TimeInterval = 30
    /// 30 s of silence in a request.
    package static let defaultIdleTimeout: TimeInterval = 30
    /// 30 s for a send to a client that does not read.
    package static let defaultSendTimeout: TimeInterval = 30
    /// 64 connections: far more than the tests' and a user's parallel clients, while at most
    /// 64 × (64 KiB + 16 MiB) of requests are held at once.
    package static let defaultMaxConnections = 64

    /// The defaults, or others.
    package init(
      maxHeadBytes: Int = HTTPRequestParser.Limits.defaultMaxHeadBytes, maxBodyBytes: Int = HTTPRequestParser.Limits.defaultMaxBodyBytes,
      headTimeout: TimeInterval = defaultHeadTimeout, idleTimeout: TimeInterval = defaultIdleTimeout,
      sendTimeout: TimeInterval = defaultSendTimeout, maxConnections: Int = defaultMaxConnections
    ) {
      self.maxHeadBytes = maxHeadBytes
      self.maxBodyBytes = maxBodyBytes
      self.headTimeout = headTimeout
      self.idleTimeout = idleTimeout
      self.sendTimeout = sendTimeout
      self.maxConnections = max(1, maxConnections)
    }

    /// The parser's share: the sizes.
    var request: HTTPRequestParser.Limits { .init(maxHeadBytes: maxHeadBytes, maxBodyBytes: maxBodyBytes) }
  }

  /// How long a refused client's further bytes are read and dropped before the connection
  /// closes (1 s), so that it reads the refusal rather than a reset; at most
  /// ``refusalDrainBytes`` of them.
  package static let refusalLinger: TimeInterval = 1
  /// How many bytes of a refused request are read and dropped at most (1 MiB).
  package static let refusalDrainBytes = 1 << 20

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

  /// What the server refused before any handler saw the request (a head over the limit, a
  /// malformed request, a client too slow, a connection past the limit), for a server's log:
  /// the method and target when the head was read, and the status answered.
  package struct Refusal: Sendable, Equatable {
    /// `GET`, `POST`..., when the request line was read.
    package let method: String?
    /// The request target as sent, when the request line was read.
    package let target: String?
    /// 400, 408, 413, 431, 501, 503 or 505.
    package let status: Int
    /// The reason sent with the refusal (it names no part of the body).
    package let reason: String
    /// The peer's address (`127.0.0.1`, `::1`).
    package let peer: String

    /// A refusal with `status` and `reason` of the request `method` `target` (`nil` when not
    /// read) from `peer`.
    package init(method: String?, target: String?, status: Int, reason: String = "", peer: String = "") {
      self.method = method
      self.target = target
      self.status = status
      self.reason = reason
      self.peer = peer
    }
  }

  private let listeners: [LoopbackListener]
  private let connections: ConnectionCount
  /// The limits it serves with.
  package let limits: Limits

  /// The port it listens on.
  package var port: UInt16 { listeners[0].port }
  /// `http://127.0.0.1:PORT` (or `http://[::1]:PORT` for a server on ::1 only).
  package var baseURL: URL { URL(string: "http://\(listeners[0].address):\(port)")! }
  /// The addresses it listens on: those asked for, less ::1 on a machine without IPv6.
  package var addresses: [LoopbackListener.Address] { listeners.map(\.address) }
  /// The connections being served now (the refused ones not counted).
  package var openConnections: Int { connections.count }

  /// Listens on `addresses` (127.0.0.1 by default; `[.ipv4, .ipv6]` for a `localhost` URL)
  /// at `port` (0: any free port, the same on every address) and answers every request with
  /// `handler` until ``stop()``. The handler runs as a task on an executor of the server's own
  /// (a dispatch queue), not on Swift's cooperative threads, which a process may have all
  /// blocked (tests waiting for their child processes starved a handler that way under the
  /// sanitizers); the connection's thread waits for it.
  ///
  /// `refused`, if given, is told of every request the server refuses itself (see ``Refusal``),
  /// on the connection's thread.
  package convenience init(
    port: UInt16 = 0, addresses: [LoopbackListener.Address] = [.ipv4], limits: Limits = Limits(),
    refused: (@Sendable (Refusal) -> Void)? = nil, handler: @escaping @Sendable (Request) async -> Response
  ) throws(LoopbackListener.Failure) {
    try self.init(port: port, addresses: addresses, limits: limits, refused: refused) { request in
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

  /// Listens on `addresses` at `port` (0: any free port) and answers every request with
  /// `answering`, called on the connection's own thread, until ``stop()``. Throws when an
  /// address cannot be listened on (another process holds the port on ::1, say); ::1 is left
  /// out on a machine that has no IPv6, where nobody else can hold it either.
  /// `refused`, if given, is told of every request the server refuses itself.
  package init(
    port: UInt16 = 0, addresses: [LoopbackListener.Address] = [.ipv4], limits: Limits = Limits(),
    refused: (@Sendable (Refusal) -> Void)? = nil, answering handler: @escaping @Sendable (Request) -> Response
  ) throws(LoopbackListener.Failure) {
    listeners = try Self.listen(port: port, addresses: addresses.isEmpty ? [.ipv4] : addresses)
    self.limits = limits
    let connections = ConnectionCount()
    self.connections = connections
    let refuser = Refuser()
    // The loops hold the listeners and the handler, not the server: dropping the server closes
    // the listeners, which ends the loops.
    for listener in listeners {
      Thread.detachNewThread {
        while let connection = listener.accept(until: .distantFuture) {
          guard connections.open(atMost: limits.maxConnections) else {
            refuser.refuse(connection)
            refused?(Refusal(method: nil, target: nil, status: 503, reason: "too many connections", peer: connection.peerAddress))
            continue
          }
          Thread.detachNewThread {
            defer { connections.close() }
            Self.serve(connection, limits, handler, refused)
          }
        }
      }
    }
  }

  /// Stops listening; requests under way are answered.
  package func stop() {
    for listener in listeners { listener.close() }
  }

  deinit { stop() }

  /// A listener on each address at one port; with port 0, tried again (at most 8 times) when
  /// the port the system chose on the first address is taken on another.
  private static func listen(port: UInt16, addresses: [LoopbackListener.Address]) throws(LoopbackListener.Failure) -> [LoopbackListener] {
    var attempt = 0
    while true {
      attempt += 1
      var listeners = [try LoopbackListener(port: port, address: addresses[0])]
      var taken: LoopbackListener.Failure?
      for address in addresses.dropFirst() {
        do {
          listeners.append(try LoopbackListener(port: listeners[0].port, address: address))
        } catch {
          // No such address on this machine (no IPv6): nobody can listen there either.
          if error.code == EADDRNOTAVAIL || error.code == EAFNOSUPPORT { continue }
          taken = error
          break
        }
      }
      guard let failure = taken else { return listeners }
      for listener in listeners { listener.close() }
      guard port == 0, failure.code == EADDRINUSE, attempt < 8 else { throw failure }
    }
  }

  private static func serve(
    _ connection: LoopbackListener.Connection, _ limits: Limits, _ handler: @Sendable (Request) -> Response,
    _ refused: (@Sendable (Refusal) -> Void)?
  ) {
    defer { connection.close() }
    var parser = HTTPRequestParser(limits: limits.request)
    // Every refusal the server makes itself is told to `refused` too: what was read of the
    // request line, the status, the reason sent and the peer, never any of the body.
    let refuse = { (status: Int, text: String) in
      refused?(Refusal(method: parser.head?.method, target: parser.head?.target, status: status, reason: text, peer: connection.peerAddress))
      Self.refuse(connection, status: status, text)
    }
    connection.setSendTimeout(limits.sendTimeout)
    let headDeadline = Date().addingTimeInterval(limits.headTimeout)
    var received = 0
    var continued = false
    while !parser.isComplete {
      let idle = Date().addingTimeInterval(limits.idleTimeout)
      switch connection.receive(upTo: 65_536, until: parser.head == nil ? min(idle, headDeadline) : idle) {
      case .closed:
        return
      case .timedOut:
        // A connection that never sent a byte (a browser's preconnection) just ends.
        guard received > 0 else { return }
        let what = parser.head == nil ? "its head within \(limits.headTimeout) s" : "more of its body within \(limits.idleTimeout) s"
        return refuse(408, "the request did not send \(what); send it at once")
      case .bytes(let bytes):
        received += bytes.count
        do {
          try parser.consume(bytes)
        } catch {
          return refuse(error.status, error.description)
        }
        if !continued, !parser.isComplete, parser.head?.header("Expect")?.lowercased() == "100-continue" {
          continued = true
          connection.write(Data("HTTP/1.1 100 Continue\r\n\r\n".utf8))
        }
      }
    }
    guard let head = parser.head else { return }
    let request = Request(method: head.method, target: head.target, headers: head.headers, body: parser.body, peerAddress: connection.peerAddress)
    var response = handler(request)
    if head.method == "HEAD" { response.body = Data() }
    write(response, to: connection)
  }

  /// Answers `status` with `text`, then reads and drops what the client still sends for a
  /// moment, so that it reads the answer before the connection closes.
  private static func refuse(_ connection: LoopbackListener.Connection, status: Int, _ text: String) {
    write(Response(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Data((text + "\n").utf8)), to: connection)
    connection.closeAfterDraining(for: refusalLinger, maxBytes: refusalDrainBytes)
  }

  private static func write(_ response: Response, to connection: LoopbackListener.Connection) {
    if response.delivery == .reset { return connection.reset() }
    if let stream = response.stream {
      var head = "HTTP/1.1 \(response.status) \(reasonPhrase(response.status))\r\n"
      for (name, value) in response.headers where !["content-length", "transfer-encoding"].contains(name.lowercased()) {
        head += Self.headerLine(name, value)
      }
      head += "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
      guard connection.write(Data(head.utf8)) else { return }
      let writer = ChunkedWriter(connection: connection)
      stream(writer)
      writer.finish()
      return
    }
    var head = "HTTP/1.1 \(response.status) \(reasonPhrase(response.status))\r\n"
    for (name, value) in response.headers where name.lowercased() != "content-length" { head += Self.headerLine(name, value) }
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

  /// `Name: value` and CR LF, with any CR, LF or NUL in either made a space: a value built
  /// from a request (a redirect's target) cannot split the response.
  private static func headerLine(_ name: String, _ value: String) -> String {
    let clean: (String) -> String = { text in
      guard text.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else { return text }
      return String(String.UnicodeScalarView(text.unicodeScalars.map { $0 == "\r" || $0 == "\n" || $0 == "\0" ? " " : $0 }))
    }
    return "\(clean(name)): \(clean(value))\r\n"
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
    case 405: "Method Not Allowed"
    case 408: "Request Timeout"
    case 413: "Content Too Large"
    case 415: "Unsupported Media Type"
    case 418: "I'm a teapot"
    case 429: "Too Many Requests"
    case 431: "Request Header Fields Too Large"
    case 500: "Internal Server Error"
    case 501: "Not Implemented"
    case 502: "Bad Gateway"
    case 503: "Service Unavailable"
    case 504: "Gateway Timeout"
    case 505: "HTTP Version Not Supported"
    default: "Status"
    }
  }
}

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

/// How many connections are being served: taken before a connection's thread starts, given
/// back when it ends.
private final class ConnectionCount: Sendable {
  private let value = Locked(0)

  var count: Int { value.withLock { $0 } }

  /// Counts one more connection, unless `limit` are open already.
  func open(atMost limit: Int) -> Bool {
    value.withLock { count in
      guard count < limit else { return false }
      count += 1
      return true
    }
  }

  func close() { value.withLock { $0 -= 1 } }
}

/// Answers the connections past ``LoopbackHTTPServer/Limits/maxConnections`` with 503, all on
/// one thread: the answer is sent without waiting (a fresh connection's send buffer takes it),
/// then what the client sends is read and dropped for ``LoopbackHTTPServer/refusalLinger`` so
/// that it reads the 503 rather than a reset. At most ``maxLingering`` wait at once; past
/// that the oldest is closed at once.
private final class Refuser: Sendable {
  /// Refused connections still lingering, at most: a flood of them costs no more.
  static let maxLingering = 256
  private static let answer = Data(
    ("HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 53\r\nConnection: close\r\n\r\n"
      + "the server is busy with other connections; try again\n").utf8)
  private let state = Locked<(lingering: [(LoopbackListener.Connection, Date)], running: Bool)>(([], false))

  func refuse(_ connection: LoopbackListener.Connection) {
    connection.writeWithoutWaiting(Self.answer)
    connection.finishWriting()
    let start = state.withLock { state -> Bool in
      if state.lingering.count >= Self.maxLingering { state.lingering.removeFirst().0.close() }
      state.lingering.append((connection, Date().addingTimeInterval(LoopbackHTTPServer.refusalLinger)))
      defer { state.running = true }
      return !state.running
    }
    if start { Thread.detachNewThread { self.linger() } }
  }

  /// Drops what the refused clients send until each closes or its time is up; ends when none
  /// is left.
  private func linger() {
    while true {
      let now = Date()
      let lingering = state.withLock { state -> [LoopbackListener.Connection] in
        state.lingering.removeAll { connection, until in
          guard until <= now else { return false }
          connection.close()
          return true
        }
        if state.lingering.isEmpty { state.running = false }
        return state.lingering.map(\.0)
      }
      if lingering.isEmpty { return }
      for connection in lingering where !connection.discardArrived(maxBytes: 65_536) {
        connection.close()
        state.withLock { state in state.lingering.removeAll { $0.0 === connection } }
      }
      Thread.sleep(forTimeInterval: 0.02)
    }
  }
}

/// Runs tasks' jobs on a concurrent dispatch queue: its threads are added as others block, where
/// Swift's cooperative pool has one per core.
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
