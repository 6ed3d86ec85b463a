import Foundation
import Locking

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A TCP socket listening on a loopback address (127.0.0.1, or [::1]), for the small HTTP
/// servers the tools and their tests run: `oauth1 login --callback loopback`, the OAuth 2.0
/// redirect receiver, `tweets sandbox serve`. It listens on the loopback interface only, so
/// nothing outside the machine can reach it.
///
/// ```swift
/// let listener = try LoopbackListener(port: 0)
/// if let connection = listener.accept(until: Date().addingTimeInterval(30)),
///   let head = connection.readHead(until: Date().addingTimeInterval(5)) {
///   connection.answer(status: "200 OK", contentType: "text/plain", body: Data("hi".utf8))
/// }
/// ```
///
/// Invariant: each descriptor (the listening one, a ``Connection``'s) is held in a
/// ``SharedDescriptor``, closed once and never while a thread uses it (see there).
package final class LoopbackListener: Sendable {
  /// Why the socket could not listen.
  package struct Failure: Error, Sendable, CustomStringConvertible {
    /// What failed, with the address, the port and the system's reason.
    package let description: String
    /// The system's error number (`EADDRINUSE`: another process holds the port), 0 if none.
    package let code: Int32

    init(description: String, code: Int32 = 0) {
      self.description = description
      self.code = code
    }
  }

  /// A loopback address to listen on.
  package enum Address: Sendable, Equatable, CustomStringConvertible {
    /// 127.0.0.1.
    case ipv4
    /// ::1.
    case ipv6

    /// `127.0.0.1` or `[::1]`, as a URL's host spells it.
    package var description: String { self == .ipv4 ? "127.0.0.1" : "[::1]" }
  }

  /// The port it listens on (the one asked for, or one the system chose).
  package let port: UInt16
  /// The address it listens on.
  package let address: Address
  /// The listening descriptor.
  private let listener: SharedDescriptor

  /// Listens on `address` (127.0.0.1 by default) at `port` (0: any free port). The address is
  /// reusable at once, so that a fixed port (a provider's registered callback) can be listened
  /// on again right away.
  package init(port: UInt16 = 0, address: Address = .ipv4) throws(Failure) {
    let family = address == .ipv4 ? AF_INET : AF_INET6
    #if canImport(Glibc)
      let descriptor = socket(family, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let descriptor = socket(family, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else {
      throw Failure(description: "cannot open a socket for \(address): \(String(cString: strerror(errno)))", code: errno)
    }
    var on: Int32 = 1
    setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
    if address == .ipv6 { setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &on, socklen_t(MemoryLayout<Int32>.size)) }
    var storage = sockaddr_storage()
    var length: socklen_t
    if address == .ipv4 {
      var address4 = sockaddr_in()
      address4.sin_family = sa_family_t(AF_INET)
      address4.sin_port = port.bigEndian
      address4.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
      length = socklen_t(MemoryLayout<sockaddr_in>.size)
      withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: address4, as: sockaddr_in.self) }
    } else {
      var address6 = sockaddr_in6()
      address6.sin6_family = sa_family_t(AF_INET6)
      address6.sin6_port = port.bigEndian
      address6.sin6_addr = in6addr_loopback
      length = socklen_t(MemoryLayout<sockaddr_in6>.size)
      withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: address6, as: sockaddr_in6.self) }
    }
    let bound = withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
    guard bound == 0, listen(descriptor, 128) == 0 else {
      let code = errno
      closeDescriptor(descriptor)
      throw Failure(description: "cannot listen on \(address):\(port): \(String(cString: strerror(code)))", code: code)
    }
    length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    _ = withUnsafeMutablePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
    listener = SharedDescriptor(descriptor)
    self.address = address
    // sin_port and sin6_port sit at the same offset, 2, in both structures.
    self.port = withUnsafeBytes(of: &storage) { UInt16(bigEndian: $0.load(fromByteOffset: 2, as: UInt16.self)) }
  }

  deinit { close() }

  /// Stops listening; a waiting ``accept(until:)`` returns `nil` (at once on Linux, within a
  /// second elsewhere), and the port is free once it has.
  package func close() { listener.close(wakingUsers: true) }

  /// The next connection, or `nil` once `deadline` passes or the listener is closed.
  package func accept(until deadline: Date) -> Connection? {
    while true {
      let remaining = deadline.timeIntervalSinceNow
      guard remaining > 0 else { return nil }
      var peer = sockaddr_storage()
      let accepted = listener.use { descriptor -> Int32 in
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(min(remaining, 1) * 1000)) > 0 else { return -1 }
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        return withUnsafeMutablePointer(to: &peer) {
          $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { acceptConnection(descriptor, $0, &length) }
        }
      }
      guard let connection = accepted else { return nil }
      guard connection >= 0 else { continue }
      var text = [UInt8](repeating: 0, count: Int(INET6_ADDRSTRLEN))
      withUnsafeBytes(of: &peer) { raw in
        // The address sits at offset 4 (sockaddr_in) or 8 (sockaddr_in6), inside the storage.
        let family = Int32(raw.load(fromByteOffset: 0, as: sa_family_t.self))
        let offset = family == AF_INET6 ? 8 : 4
        _ = text.withUnsafeMutableBytes { inet_ntop(family, raw.baseAddress! + offset, $0.baseAddress, socklen_t(INET6_ADDRSTRLEN)) }
      }
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
    private let socket: SharedDescriptor

    init(descriptor: Int32, peerAddress: String) {
      socket = SharedDescriptor(descriptor)
      self.peerAddress = peerAddress
    }

    /// Closes the connection: at once, or, when another thread is reading or writing on it,
    /// as soon as that call returns (woken by a shutdown).
    package func close() { socket.close(wakingUsers: true) }

    /// Reads up to `limit` bytes until the end of the head (a blank line), and no longer than
    /// `deadline`: a client that trickles bytes cannot hold it. Lines end at CR LF only
    /// (``HTTPRequestParser``). `nil` for no head in time, a head over `limit`, or a malformed
    /// one.
    package func readHead(until deadline: Date, limit: Int = HTTPRequestParser.Limits.defaultMaxHeadBytes) -> Head? {
      var parser = HTTPRequestParser(limits: .init(maxHeadBytes: limit, maxBodyBytes: Int.max))
      while parser.head == nil {
        guard case .bytes(let chunk) = receive(upTo: 65_536, until: deadline), (try? parser.consume(chunk)) != nil else { return nil }
      }
      guard let head = parser.head else { return nil }
      return Head(method: head.method, target: head.target, headers: head.headers, bodyStart: parser.body)
    }

    /// What one read brought.
    package enum Received: Sendable {
      /// Some bytes.
      case bytes([UInt8])
      /// None before the deadline.
      case timedOut
      /// The end of the stream, or a reset.
      case closed
    }

    /// Reads at most `count` bytes once some arrive, or says why none came.
    package func receive(upTo count: Int, until deadline: Date) -> Received {
      var buffer = [UInt8](repeating: 0, count: count)
      while true {
        let remaining = deadline.timeIntervalSinceNow
        guard remaining > 0 else { return .timedOut }
        let result = socket.use { descriptor -> (ready: Int32, read: Int, error: Int32) in
          var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
          let ready = poll(&poller, 1, Int32(min(remaining, 3600) * 1000) + 1)
          guard ready > 0 else { return (ready, 0, errno) }
          let read = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
          return (ready, read, errno)
        }
        guard let result else { return .closed }
        if (result.ready < 0 || result.read < 0) && result.error == EINTR { continue }
        guard result.ready > 0 else { return result.ready == 0 ? .timedOut : .closed }
        guard result.read > 0 else { return .closed }
        buffer.removeSubrange(result.read...)
        return .bytes(buffer)
      }
    }

    /// Reads at most `count` bytes once some arrive, or `nil` at the deadline or the end of the
    /// stream.
    package func read(upTo count: Int, until deadline: Date) -> Data? {
      guard case .bytes(let bytes) = receive(upTo: count, until: deadline) else { return nil }
      return Data(bytes)
    }

    /// Gives up a ``write(_:)`` that cannot send for `seconds` (a client that stopped reading):
    /// `SO_SNDTIMEO`, so that no thread waits on such a client for ever.
    package func setSendTimeout(_ seconds: TimeInterval) {
      let clamped = max(0.001, min(seconds, 86_400))
      var value = timeval(tv_sec: Int(clamped), tv_usec: suseconds_t((clamped - clamped.rounded(.down)) * 1_000_000))
      socket.use { _ = setsockopt($0, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size)) }
    }

    /// Ends the sending direction, then reads and drops what the client still sends for at
    /// most `seconds` or `maxBytes`, then closes: a client that was still sending a body it was
    /// refused reads the refusal instead of a reset (which may drop it unread).
    package func closeAfterDraining(for seconds: TimeInterval, maxBytes: Int) {
      finishWriting()
      let deadline = Date().addingTimeInterval(seconds)
      var drained = 0
      while drained < maxBytes, case .bytes(let bytes) = receive(upTo: 65_536, until: deadline) { drained += bytes.count }
      close()
    }

    /// Sends a whole HTTP/1.1 response and asks the client to close: one request per connection.
    package func answer(status: String, contentType: String, body: Data) {
      let head = "HTTP/1.1 \(status)\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
      write(Data(head.utf8) + body)
    }

    /// Sends `data` whole; `false` when the peer went away first, or stopped reading for
    /// longer than the send timeout (``setSendTimeout(_:)``).
    @discardableResult
    package func write(_ data: Data) -> Bool {
      var sent = 0
      while sent < data.count {
        let result = socket.use { descriptor in
          (data.withUnsafeBytes { send(descriptor, $0.baseAddress! + sent, $0.count - sent, noSignal) }, errno)
        }
        guard let result else { return false }
        if result.0 < 0 && result.1 == EINTR { continue }
        // A send timeout (EAGAIN), a reset or a closed peer: the client is gone for us.
        if result.0 <= 0 { return false }
        sent += result.0
      }
      return true
    }

    /// Sends what the socket takes at once, without waiting: a short answer on a fresh
    /// connection (whose send buffer is empty) goes whole. `false` if not all of it went.
    @discardableResult
    package func writeWithoutWaiting(_ data: Data) -> Bool {
      socket.use { descriptor in
        data.withUnsafeBytes { send(descriptor, $0.baseAddress!, $0.count, noSignal | Int32(MSG_DONTWAIT)) } == data.count
      } ?? false
    }

    /// Reads and drops the bytes that have arrived (at most `maxBytes`), without waiting;
    /// `false` once the peer closed or reset the connection.
    package func discardArrived(maxBytes: Int) -> Bool {
      var buffer = [UInt8](repeating: 0, count: min(maxBytes, 65_536))
      var discarded = 0
      while discarded < maxBytes {
        // nil: closed here; 0: nothing has arrived; -1: the peer closed or reset.
        let read = socket.use { descriptor -> Int in
          var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
          guard poll(&poller, 1, 0) > 0 else { return 0 }
          let read = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
          if read < 0 && errno == EINTR { return 0 }
          return read > 0 ? read : -1
        }
        guard let read, read >= 0 else { return false }
        if read == 0 { return true }
        discarded += read
      }
      return true
    }

    /// Ends the stream in the sending direction (the peer reads an end of file), as a server
    /// that stops mid-body does.
    package func finishWriting() {
      socket.use { _ = shutdown($0, Int32(SHUT_WR)) }
    }

    /// Closes the connection with a TCP reset instead of an orderly close (`SO_LINGER` 0): what
    /// a client sees when a server or a middlebox drops it.
    package func reset() {
      var linger = SocketLinger(l_onoff: 1, l_linger: 0)
      socket.use { _ = setsockopt($0, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<SocketLinger>.size)) }
      // No shutdown first: that would send an orderly end of stream, not the reset.
      socket.close(wakingUsers: false)
    }
  }
}

/// A socket descriptor that several threads may use, closed once and never under a thread
/// that is using it: a descriptor number closed while another thread still polls it can be
/// given to the next socket the process opens (another server's listener, say), which that
/// thread would then accept on, read or write.
///
/// Invariant: the number is open from `init` until the close, which happens once: in
/// ``close(wakingUsers:)`` when no ``use(_:)`` is under way, otherwise when the last one ends.
/// ``use(_:)`` runs its body only before the close was asked for, so the number it gets is
/// this socket's.
final class SharedDescriptor: Sendable {
  private struct State {
    var users = 0
    var closing = false
    var closed = false
  }

  private let descriptor: Int32
  private let state = Locked(State())

  init(_ descriptor: Int32) {
    self.descriptor = descriptor
  }

  deinit {
    // Nobody can be using it any more.
    if !state.withLock({ $0.closed }) { closeDescriptor(descriptor) }
  }

  /// `body`'s result with the descriptor, or `nil` once a close was asked for.
  @discardableResult
  func use<T>(_ body: (Int32) -> T) -> T? {
    let admitted = state.withLock { state -> Bool in
      guard !state.closing else { return false }
      state.users += 1
      return true
    }
    guard admitted else { return nil }
    let result = body(descriptor)
    let last = state.withLock { state -> Bool in
      state.users -= 1
      guard state.closing, state.users == 0, !state.closed else { return false }
      state.closed = true
      return true
    }
    if last { closeDescriptor(descriptor) }
    return result
  }

  /// Closes the descriptor now, or when the last ``use(_:)`` under way ends; with
  /// `wakingUsers`, a user blocked in `poll` or `accept` is woken by a shutdown (done under the
  /// lock, so it cannot reach a number reused meanwhile).
  func close(wakingUsers: Bool) {
    let now = state.withLock { state -> Bool in
      guard !state.closing else { return false }
      state.closing = true
      guard state.users == 0 else {
        if wakingUsers { shutdown(descriptor, Int32(SHUT_RDWR)) }
        return false
      }
      state.closed = true
      return true
    }
    if now { closeDescriptor(descriptor) }
  }
}

// The system calls whose names the types' own methods shadow, and the flag that keeps a closed
// peer from killing the process (SIGPIPE): Linux takes it per call.

/// Closes a file descriptor (`close(2)`, whose name the socket types' own `close()` shadows).
package func closeDescriptor(_ descriptor: Int32) {
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
