import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A plain TCP client on loopback, for the tests that attack a server as a hostile client
/// would: bytes no HTTP library sends (an overflowing chunk size, a U+2028 inside a header, a
/// head that never ends), sent slowly or not at all, over many connections at once.
///
/// ```swift
/// let socket = try RawSocket(port: server.port)
/// socket.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
/// let answer = socket.receive(timeout: 5)  // everything until the server closes, or 5 s
/// ```
///
/// Invariant: the descriptor is owned here and closed once, by ``close()`` or `deinit`.
public final class RawSocket: @unchecked Sendable {
  public struct Failure: Error, CustomStringConvertible {
    public let description: String
  }

  private var descriptor: Int32

  /// Connects to `host` (`127.0.0.1` or `::1`) on `port`.
  public init(port: Int, host: String = "127.0.0.1") throws {
    let family = host.contains(":") ? AF_INET6 : AF_INET
    #if canImport(Glibc)
      descriptor = socket(family, Int32(SOCK_STREAM.rawValue), 0)
    #else
      descriptor = socket(family, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw Failure(description: "no socket: \(String(cString: strerror(errno)))") }
    let connected: Int32
    if family == AF_INET6 {
      var address = sockaddr_in6()
      address.sin6_family = sa_family_t(AF_INET6)
      address.sin6_port = UInt16(port).bigEndian
      inet_pton(AF_INET6, host, &address.sin6_addr)
      connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
      }
    } else {
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = UInt16(port).bigEndian
      address.sin_addr.s_addr = inet_addr(host)
      connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
      }
    }
    guard connected == 0 else {
      let reason = String(cString: strerror(errno))
      close()
      throw Failure(description: "cannot connect to \(host) port \(port): \(reason)")
    }
  }

  deinit { close() }

  /// Closes the connection (an orderly close); safe to call twice.
  public func close() {
    guard descriptor >= 0 else { return }
    #if canImport(Glibc)
      _ = Glibc.close(descriptor)
    #else
      _ = Darwin.close(descriptor)
    #endif
    descriptor = -1
  }

  /// Sends `bytes` whole; `false` once the server closed or reset the connection.
  @discardableResult
  public func send(_ bytes: Data) -> Bool {
    var sent = 0
    while sent < bytes.count {
      let result = bytes.withUnsafeBytes { sendWithoutSignal(descriptor, $0.baseAddress! + sent, $0.count - sent) }
      if result < 0 && errno == EINTR { continue }
      if result <= 0 { return false }
      sent += result
    }
    return true
  }

  /// Sends `text` as UTF-8.
  @discardableResult
  public func send(_ text: String) -> Bool { send(Data(text.utf8)) }

  /// Everything the server sends until it closes the connection, or until `timeout` seconds
  /// pass (then what arrived so far).
  public func receive(timeout: TimeInterval) -> Data {
    var received = Data()
    let deadline = Date().addingTimeInterval(timeout)
    while let chunk = receiveSome(until: deadline) { received.append(chunk) }
    return received
  }

  /// The bytes that arrive next, or `nil` at the end of the stream, a reset or `deadline`.
  public func receiveSome(until deadline: Date) -> Data? {
    while true {
      let remaining = deadline.timeIntervalSinceNow
      guard remaining > 0 else { return nil }
      var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      let ready = poll(&poller, 1, Int32(min(remaining, 1) * 1000) + 1)
      if ready == 0 || (ready < 0 && errno == EINTR) { continue }
      guard ready > 0 else { return nil }
      var buffer = [UInt8](repeating: 0, count: 65_536)
      let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      return count > 0 ? Data(buffer[..<count]) : nil
    }
  }

  /// Whether the server ended the connection (an end of file or a reset) within `timeout`
  /// seconds, reading and dropping whatever it sent first.
  public func isClosedByPeer(within timeout: TimeInterval) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if receiveSome(until: deadline) == nil { return Date() < deadline }
    }
    return false
  }

  /// The status code of an HTTP response's first line (`HTTP/1.1 413 ...`), if it has one.
  public static func status(of response: Data) -> Int? {
    let line = String(decoding: response.prefix { $0 != 13 && $0 != 10 }, as: UTF8.self).split(separator: " ")
    guard line.count >= 2, line[0].hasPrefix("HTTP/") else { return nil }
    return Int(line[1])
  }
}

/// `send(2)` without SIGPIPE for a peer that went away (Linux takes the flag per call).
private func sendWithoutSignal(_ descriptor: Int32, _ start: UnsafeRawPointer, _ count: Int) -> Int {
  #if canImport(Glibc)
    Glibc.send(descriptor, start, count, Int32(MSG_NOSIGNAL))
  #else
    Darwin.send(descriptor, start, count, 0)
  #endif
}

/// A socket that holds a loopback port and accepts nothing: another process squatting on the
/// port a server wants.
///
/// Invariant: the descriptor is owned here and closed once, in `deinit`.
public final class RawSocketListener: @unchecked Sendable {
  public let port: Int
  private let descriptor: Int32

  /// Listens on [::1] at a port the system chooses.
  public static func onIPv6() throws -> RawSocketListener {
    #if canImport(Glibc)
      let descriptor = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let descriptor = socket(AF_INET6, SOCK_STREAM, 0)
    #endif
    var address = sockaddr_in6()
    address.sin6_family = sa_family_t(AF_INET6)
    address.sin6_addr = in6addr_loopback
    var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, length) == 0 && listen(descriptor, 8) == 0 && getsockname(descriptor, $0, &length) == 0
      }
    }
    guard descriptor >= 0, bound else {
      if descriptor >= 0 { closeSocket(descriptor) }
      throw RawSocket.Failure(description: "cannot listen on [::1]: \(String(cString: strerror(errno)))")
    }
    return RawSocketListener(descriptor: descriptor, port: Int(UInt16(bigEndian: address.sin6_port)))
  }

  private init(descriptor: Int32, port: Int) {
    self.descriptor = descriptor
    self.port = port
  }

  deinit { closeSocket(descriptor) }
}

private func closeSocket(_ descriptor: Int32) {
  #if canImport(Glibc)
    _ = Glibc.close(descriptor)
  #else
    _ = Darwin.close(descriptor)
  #endif
}
