import Foundation
import PercentEncoding

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A one-shot HTTP server on 127.0.0.1 that receives the provider's redirect after the user
/// authorizes (`oauth1 login --callback loopback`): `GET /callback?oauth_token=...&oauth_verifier=...`.
///
/// It listens on the loopback interface only, so nothing outside the machine can reach it. It
/// takes only the callback for the request token being authorized: another path (a browser's
/// `/favicon.ico`) gets a 404, a callback for another token (or none: a page on the machine
/// poking the port) a 400, and it keeps waiting until the deadline.
final class LoopbackCallback: @unchecked Sendable {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// The port it listens on (the one asked for, or one the system chose).
  let port: UInt16
  /// The listening socket; owned here, closed once by `close()` or `deinit`.
  private var listener: Int32

  /// The callback URL to give the provider.
  var url: String { "http://127.0.0.1:\(port)/callback" }

  /// Listens on 127.0.0.1:`port` (0: any free port).
  init(port: UInt16 = 0) throws {
    #if canImport(Glibc)
      let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw Failure(description: "cannot open a socket: \(String(cString: strerror(errno)))") }
    // A registered callback port must be reusable at once by the next login.
    var reuse: Int32 = 1
    setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
    guard bound == 0, listen(descriptor, 4) == 0 else {
      let reason = String(cString: strerror(errno))
      closeDescriptor(descriptor)
      throw Failure(description: "cannot listen on 127.0.0.1:\(port): \(reason)" + (port == 0 ? "" : "; choose another --callback-port"))
    }
    var chosen = sockaddr_in()
    var chosenLength = length
    _ = withUnsafeMutablePointer(to: &chosen) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &chosenLength) } }
    listener = descriptor
    self.port = UInt16(bigEndian: chosen.sin_port)
  }

  deinit { close() }

  func close() {
    if listener >= 0 {
      closeDescriptor(listener)
      listener = -1
    }
  }

  /// Waits up to `timeout` seconds for the callback of the request token `token` (its
  /// `oauth_token`) and returns its query fields (`oauth_verifier`, or `denied`).
  func waitForCallback(token: String, timeout: Double) async throws -> [String: String] {
    try await withCheckedThrowingContinuation { continuation in
      Thread.detachNewThread {
        continuation.resume(with: Result { try self.accept(token: token, until: Date().addingTimeInterval(timeout)) })
      }
    }
  }

  private func accept(token: String, until deadline: Date) throws -> [String: String] {
    while true {
      let remaining = deadline.timeIntervalSinceNow
      guard remaining > 0 else { throw Failure(description: "no callback arrived in time; authorize sooner, or use --callback oob") }
      var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
      let ready = poll(&poller, 1, Int32(min(remaining, 1) * 1000))
      if ready <= 0 { continue }
      let connection = acceptConnection(listener)
      guard connection >= 0 else { continue }
      defer { closeDescriptor(connection) }
      guard let target = Self.readRequestTarget(connection, until: deadline) else { continue }
      let path = target.prefix { $0 != "?" }
      guard path == "/callback" else {
        Self.answer(connection, status: "404 Not Found", text: "Not the callback.")
        continue
      }
      var fields: [String: String] = [:]
      for (name, value) in PercentEncoding.decodeForm(target.dropFirst(path.count + 1)) { fields[name] = value }
      // X answers a refusal with `denied=<token>` instead of `oauth_token`.
      guard fields["oauth_token"] == token || (fields["oauth_token"] == nil && fields["denied"] == token) else {
        Self.answer(connection, status: "400 Bad Request", text: "Not the callback of the authorization this login started.")
        continue
      }
      let done = fields["oauth_verifier"] != nil
      Self.answer(
        connection, status: "200 OK",
        text: done ? "Authorized. You can close this window and go back to the terminal." : "The authorization was not completed.")
      return fields
    }
  }

  /// The request target of the request line (`/callback?...`), reading at most 16 KiB of head,
  /// and no longer than 5 s or the deadline (a client that trickles bytes cannot hold it).
  private static func readRequestTarget(_ connection: Int32, until deadline: Date) -> Substring? {
    var head = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 4096)
    let giveUp = min(deadline, Date().addingTimeInterval(5))
    while head.count < 16_384 {
      let remaining = giveUp.timeIntervalSinceNow
      guard remaining > 0 else { return nil }
      var poller = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, Int32(remaining * 1000) + 1) > 0 else { return nil }
      let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
      guard count > 0 else { break }
      head += buffer[..<count]
      if head.contains(UInt8(ascii: "\n")) { break }
    }
    let line = String(decoding: head.prefix { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }, as: UTF8.self)
    let parts = line.split(separator: " ")
    guard parts.count >= 2, parts[0] == "GET" else { return nil }
    return parts[1]
  }

  private static func answer(_ connection: Int32, status: String, text: String) {
    let body = "<!doctype html><meta charset=utf-8><title>oauth1</title><p>\(text)</p>\n"
    let response =
      "HTTP/1.1 \(status)\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
    var bytes = Array(response.utf8)
    var sent = 0
    while sent < bytes.count {
      let result = bytes.withUnsafeMutableBytes { send(connection, $0.baseAddress! + sent, $0.count - sent, noSignal) }
      if result <= 0 { break }
      sent += result
    }
  }
}

// The system calls whose names the class's own methods shadow, and the flag that keeps a
// closed browser connection from killing the process (SIGPIPE): Linux takes it per call.
private func closeDescriptor(_ descriptor: Int32) {
  #if canImport(Glibc)
    _ = Glibc.close(descriptor)
  #else
    _ = Darwin.close(descriptor)
  #endif
}

private func acceptConnection(_ listener: Int32) -> Int32 {
  #if canImport(Glibc)
    Glibc.accept(listener, nil, nil)
  #else
    Darwin.accept(listener, nil, nil)
  #endif
}

#if canImport(Glibc)
  private let noSignal = Int32(MSG_NOSIGNAL)
#else
  private let noSignal: Int32 = 0
#endif
