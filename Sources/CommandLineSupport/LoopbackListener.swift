import Foundation
import Locking

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A TCP socket listening on 127.0.0.1, for the small HTTP servers the tools and their tests
/// run: `oauth1 login --callback loopback` and the tests' verifying server. It listens on the
/// loopback interface only, so nothing outside the machine can reach it.
///
/// ```swift
/// let listener = try LoopbackListener(port: 0)
/// if let connection = listener.accept(until: Date().addingTimeInterval(30)),
///   let head = connection.readHead(until: Date().addingTimeInterval(5)) {
///   connection.answer(status: "200 OK", contentType: "text/plain", body: Data("hi".utf8))
/// }
/// ```
///
/// Invariant: the listening descriptor is owned here and closed once, by ``close()`` or `deinit`;
/// a ``Connection``'s descriptor is owned by the connection and closed by its ``Connection/close()``.
package final class LoopbackListener: Sendable {
  /// Why the socket could not listen.
  package struct Failure: Error, Sendable, CustomStringConvertible {
    /// What failed, with the port and the system's reason.
    package let description: String
  }

  /// The port it listens on (the one asked for, or one the system chose).
  package let port: UInt16
  /// The listening descriptor, -1 once closed.
  private let listener: Locked<Int32>

  /// Listens on 127.0.0.1:`port` (0: any free port). The address is reusable at once, so that
  /// a fixed port (a provider's registered callback) can be listened on again right away.
  package init(port: UInt16 = 0) throws(Failure) {
    #if canImport(Glibc)
      let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw Failure(description: "cannot open a socket: \(String(cString: strerror(errno)))") }
    var reuse: Int32 = 1
    setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
    guard bound == 0, listen(descriptor, 128) == 0 else {
      let reason = String(cString: strerror(errno))
      closeDescriptor(descriptor)
      throw Failure(description: "cannot listen on 127.0.0.1:\(port): \(reason)")
    }
    _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
    listener = Locked(descriptor)
    self.port = UInt16(bigEndian: address.sin_port)
  }

  deinit { close() }

  /// Stops listening; a waiting ``accept(until:)`` returns `nil`.
  package func close() {
    listener.withLock { listener in
      guard listener >= 0 else { return }
      shutdown(listener, Int32(SHUT_RDWR))
      closeDescriptor(listener)
      listener = -1
    }
  }

  /// The next connection, or `nil` once `deadline` passes or the listener is closed.
  package func accept(until deadline: Date) -> Connection? {
    while true {
      let descriptor = listener.withLock { $0 }
      let remaining = deadline.timeIntervalSinceNow
      guard descriptor >= 0, remaining > 0 else { return nil }
      var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, Int32(min(remaining, 1) * 1000)) > 0 else { continue }
      var peer = sockaddr_in()
      var length = socklen_t(MemoryLayout<sockaddr_in>.size)
      let connection = withUnsafeMutablePointer(to: &peer) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { acceptConnection(descriptor, $0, &length) }
      }
      guard connection >= 0 else { continue }
      var text = [UInt8](repeating: 0, count: Int(INET_ADDRSTRLEN))
      _ = text.withUnsafeMutableBytes { inet_ntop(AF_INET, &peer.sin_addr, $0.baseAddress, socklen_t(INET_ADDRSTRLEN)) }
      return Connection(descriptor: connection, peerAddress: String(decoding: text.prefix { $0 != 0 }, as: UTF8.self))
    }
  }

  /// One accepted connection.
  package final class Connection: Sendable {
    /// The head of an HTTP request: its request line's parts, its headers, and the body bytes
    /// that arrived with it.
    package struct Head: Sendable {
      /// `GET`, `POST`...
      package let method: String
      /// The request target as sent (`/callback?...`).
      package let target: String
      /// The header fields, in order.
      package let headers: [(name: String, value: String)]
      /// What followed the head in the same reads: the start of the body.
      package let bodyStart: Data

      /// The last value of a header, by name in any case.
      package func header(_ name: String) -> String? { headers.last { $0.name.lowercased() == name.lowercased() }?.value }
    }

    /// The peer's address, as the socket reports it (`127.0.0.1`).
    package let peerAddress: String
    private let descriptor: Int32
    /// Whether ``close()`` ran: the descriptor is closed once, whichever thread closes first.
    private let closed = Locked(false)

    init(descriptor: Int32, peerAddress: String) {
      self.descriptor = descriptor
      self.peerAddress = peerAddress
    }

    deinit { close() }

    /// Closes the connection.
    package func close() {
      let first = closed.withLock { closed in
        defer { closed = true }
        return !closed
      }
      if first { closeDescriptor(descriptor) }
    }

    /// Reads up to `limit` bytes until the end of the head (a blank line), and no longer than
    /// `deadline`: a client that trickles bytes cannot hold it. `nil` for no head in time or
    /// an unreadable request line.
    package func readHead(until deadline: Date, limit: Int = 65_536) -> Head? {
      var data = Data()
      var end: Range<Data.Index>?
      while end == nil, data.count < limit {
        guard let chunk = read(upTo: 65_536, until: deadline) else { return nil }
        data.append(chunk)
        end = data.range(of: Data("\r\n\r\n".utf8)) ?? data.range(of: Data("\n\n".utf8))
      }
      let headEnd = end?.lowerBound ?? data.endIndex
      let lines = String(decoding: data[..<headEnd], as: UTF8.self).split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
      let requestLine = lines.first?.split(separator: " ") ?? []
      guard requestLine.count >= 2 else { return nil }
      let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
        guard let colon = line.firstIndex(of: ":") else { return nil }
        return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
      }
      return Head(
        method: String(requestLine[0]), target: String(requestLine[1]), headers: headers,
        bodyStart: end.map { Data(data[$0.upperBound...]) } ?? Data())
    }

    /// Reads at most `count` bytes once some arrive, or `nil` at the deadline or the end of the
    /// stream.
    package func read(upTo count: Int, until deadline: Date) -> Data? {
      let remaining = deadline.timeIntervalSinceNow
      guard remaining > 0 else { return nil }
      var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, Int32(remaining * 1000) + 1) > 0 else { return nil }
      var buffer = [UInt8](repeating: 0, count: count)
      let read = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      return read > 0 ? Data(buffer[..<read]) : nil
    }

    /// Sends a whole HTTP/1.1 response and asks the client to close: one request per connection.
    package func answer(status: String, contentType: String, body: Data) {
      let head = "HTTP/1.1 \(status)\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
      write(Data(head.utf8) + body)
    }

    /// Sends `data` whole; `false` when the peer went away first.
    @discardableResult
    package func write(_ data: Data) -> Bool {
      var sent = 0
      while sent < data.count {
        let result = data.withUnsafeBytes { send(descriptor, $0.baseAddress! + sent, $0.count - sent, noSignal) }
        if result <= 0 { return false }
        sent += result
      }
      return true
    }

    /// Ends the stream in the sending direction (the peer reads an end of file), as a server
    /// that stops mid-body does.
    package func finishWriting() {
      shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Closes the connection with a TCP reset instead of an orderly close (`SO_LINGER` 0): what
    /// a client sees when a server or a middlebox drops it.
    package func reset() {
      var linger = SocketLinger(l_onoff: 1, l_linger: 0)
      setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<SocketLinger>.size))
      close()
    }
  }
}

// The system calls whose names the types' own methods shadow, and the flag that keeps a closed
// peer from killing the process (SIGPIPE): Linux takes it per call.
func closeDescriptor(_ descriptor: Int32) {
  #if canImport(Glibc)
    _ = Glibc.close(descriptor)
  #else
    _ = Darwin.close(descriptor)
  #endif
}

private func acceptConnection(_ listener: Int32, _ address: UnsafeMutablePointer<sockaddr>, _ length: inout socklen_t) -> Int32 {
  #if canImport(Glibc)
    Glibc.accept(listener, address, &length)
  #else
    Darwin.accept(listener, address, &length)
  #endif
}

#if canImport(Glibc)
  private typealias SocketLinger = Glibc.linger
  private let noSignal = Int32(MSG_NOSIGNAL)
#else
  private typealias SocketLinger = Darwin.linger
  private let noSignal: Int32 = 0
#endif
