import CommandLineSupport
import Foundation
import Locking
import TestSupport
import Testing

/// LoopbackHTTPServer attacked over real sockets as a hostile local client would.
@Suite("LoopbackHTTPServer under attack", .tags(.processes), .tier(.processes))
struct LoopbackHTTPServerTests {
  static func echo() throws -> (LoopbackHTTPServer, Locked<[LoopbackHTTPServer.Request]>) {
    let seen = Locked<[LoopbackHTTPServer.Request]>([])
    let server = try LoopbackHTTPServer(answering: { request in
      seen.withLock { $0.append(request) }
      return .init(status: 200, headers: [("Content-Type", "text/plain")], body: Data("ok\n".utf8))
    })
    return (server, seen)
  }

  static func threads() -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
  }

  @Test func aChunkSizeThatOverflowsIsRefused() throws {
    let (server, seen) = try Self.echo()
    let socket = try RawSocket(port: Int(server.port))
    socket.send("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n7fffffffffffffff\r\nabc")
    let answer = socket.receive(timeout: TestTiming.seconds(5))
    #expect(RawSocket.status(of: answer) == 413, "\(String(decoding: answer, as: UTF8.self))")
    #expect(seen.withLock { $0.isEmpty })
  }

  @Test func aHugeContentLengthIsRefusedBeforeReading() throws {
    let (server, seen) = try Self.echo()
    let socket = try RawSocket(port: Int(server.port))
    socket.send("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1000000000000000\r\n\r\nabc")
    let answer = socket.receive(timeout: TestTiming.seconds(5))
    #expect(RawSocket.status(of: answer) == 413, "\(String(decoding: answer, as: UTF8.self))")
    #expect(seen.withLock { $0.isEmpty })
  }

  @Test func chunksAddingUpPastTheLimitAreRefused() throws {
    let (server, seen) = try Self.echo()
    let socket = try RawSocket(port: Int(server.port))
    socket.send("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n")
    let chunk = Data("100000\r\n".utf8) + Data(repeating: 0x61, count: 0x100000) + Data("\r\n".utf8)
    for _ in 0..<17 where socket.send(chunk) {}
    socket.send("0\r\n\r\n")
    let answer = socket.receive(timeout: TestTiming.seconds(5))
    #expect(RawSocket.status(of: answer) == 413, "\(String(decoding: answer.prefix(200), as: UTF8.self))")
    #expect(seen.withLock { $0.isEmpty })
  }

  @Test func aHeadOverTheLimitIsRefused() throws {
    let (server, seen) = try Self.echo()
    let socket = try RawSocket(port: Int(server.port))
    socket.send("GET / HTTP/1.1\r\nHost: a\r\nX-Big: " + String(repeating: "b", count: 70_000) + "\r\n\r\n")
    let answer = socket.receive(timeout: TestTiming.seconds(5))
    #expect(RawSocket.status(of: answer) == 431, "\(String(decoding: answer.prefix(200), as: UTF8.self))")
    #expect(seen.withLock { $0.isEmpty })
  }

  @Test func aLineSeparatorInAValueMakesNoSecondHeader() throws {
    let (server, seen) = try Self.echo()
    let socket = try RawSocket(port: Int(server.port))
    socket.send("GET / HTTP/1.1\r\nHost: a\r\nX-A: a\u{2028}Authorization: Bearer stolen\r\n\r\n")
    _ = socket.receive(timeout: TestTiming.seconds(5))
    let request = try #require(seen.withLock { $0.first })
    #expect(request.header("Authorization") == nil, "\(request.headers)")
    #expect(request.header("X-A") == "a\u{2028}Authorization: Bearer stolen")
  }

  @Test func aBareLineFeedIsRefused() throws {
    let (server, seen) = try Self.echo()
    let socket = try RawSocket(port: Int(server.port))
    socket.send("GET / HTTP/1.1\r\nHost: a\r\nX-A: a\nAuthorization: Bearer stolen\r\n\r\n")
    let answer = socket.receive(timeout: TestTiming.seconds(5))
    #expect(RawSocket.status(of: answer) == 400, "\(String(decoding: answer, as: UTF8.self))")
    #expect(seen.withLock { $0.isEmpty })
  }

  @Test func manyIdleConnectionsHoldFewThreadsAndTheNextIsRefused() throws {
    let (server, _) = try Self.echo()
    let before = Self.threads()
    let idle = try (0..<300).map { _ in try RawSocket(port: Int(server.port)) }
    Thread.sleep(forTimeInterval: 1)
    let during = Self.threads()
    let late = try RawSocket(port: Int(server.port))
    late.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n")
    let answer = late.receive(timeout: TestTiming.seconds(5))
    #expect(RawSocket.status(of: answer) == 503, "\(String(decoding: answer, as: UTF8.self))")
    #expect(during - before < 100, "\(during - before) threads for \(idle.count) idle connections")
  }
}
