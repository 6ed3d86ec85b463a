import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A minimal HTTP/1.1 server on 127.0.0.1 for tests that need a Swift handler behind a real
/// socket (the verifier behind a loopback proxy): one request per connection, the body read by
/// `Content-Length`, the peer's address reported as the socket gives it.
public final class LoopbackHTTPServer: @unchecked Sendable {
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

  public let port: Int
  private let listener: Int32
  private let handler: @Sendable (Request) async -> (status: Int, body: String)
  private let stopped = NSLock()
  private var isStopped = false

  public init(handler: @escaping @Sendable (Request) async -> (status: Int, body: String)) throws {
    self.handler = handler
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
    guard descriptor >= 0, bound == 0, listen(descriptor, 16) == 0 else {
      throw LoopbackServer.Failure(description: "cannot listen on 127.0.0.1: \(String(cString: strerror(errno)))")
    }
    _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
    listener = descriptor
    port = Int(UInt16(bigEndian: address.sin_port))
    Thread.detachNewThread { [self] in acceptLoop() }
  }

  public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

  public func stop() {
    stopped.withLock {
      guard !isStopped else { return }
      isStopped = true
      shutdown(listener, Int32(SHUT_RDWR))
      close(listener)
    }
  }

  deinit { stop() }

  private func acceptLoop() {
    while true {
      var peer = sockaddr_in()
      var length = socklen_t(MemoryLayout<sockaddr_in>.size)
      let connection = withUnsafeMutablePointer(to: &peer) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(listener, $0, &length) } }
      guard connection >= 0 else {
        if stopped.withLock({ isStopped }) { return }
        continue
      }
      var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
      inet_ntop(AF_INET, &peer.sin_addr, &text, socklen_t(INET_ADDRSTRLEN))
      let address = String(cString: text)
      Thread.detachNewThread { [self] in serve(connection, peer: address) }
    }
  }

  private func serve(_ connection: Int32, peer: String) {
    defer { close(connection) }
    guard let request = Self.read(connection, peer: peer) else { return }
    // This thread is the connection's own: it may wait for the async handler.
    let done = DispatchSemaphore(value: 0)
    let result = Answer()
    Task {
      result.value = await handler(request)
      done.signal()
    }
    done.wait()
    guard let answer = result.value else { return }
    let body = Data(answer.body.utf8)
    let head = "HTTP/1.1 \(answer.status) X\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
    var bytes = [UInt8](Data(head.utf8) + body)
    var sent = 0
    while sent < bytes.count {
      let count = bytes.withUnsafeMutableBytes { send(connection, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
      if count <= 0 { return }
      sent += count
    }
  }

  private static func read(_ connection: Int32, peer: String) -> Request? {
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 65_536)
    var headEnd: Range<Data.Index>?
    while headEnd == nil {
      let count = recv(connection, &buffer, buffer.count, 0)
      guard count > 0 else { return nil }
      data.append(contentsOf: buffer[..<count])
      headEnd = data.range(of: Data("\r\n\r\n".utf8))
    }
    let head = String(decoding: data[..<headEnd!.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
    let requestLine = head[0].split(separator: " ")
    guard requestLine.count >= 2 else { return nil }
    let headers = head.dropFirst().compactMap { line -> (name: String, value: String)? in
      guard let colon = line.firstIndex(of: ":") else { return nil }
      return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    }
    let length = Int(headers.last { $0.name.lowercased() == "content-length" }?.value ?? "0") ?? 0
    var body = Data(data[headEnd!.upperBound...])
    while body.count < length {
      let count = recv(connection, &buffer, min(buffer.count, length - body.count), 0)
      guard count > 0 else { return nil }
      body.append(contentsOf: buffer[..<count])
    }
    return Request(method: String(requestLine[0]), target: String(requestLine[1]), headers: headers, body: body, peerAddress: peer)
  }
}

/// The handler's answer, handed from its task to the connection's thread (the semaphore orders
/// the write before the read).
private final class Answer: @unchecked Sendable {
  var value: (status: Int, body: String)?
}
