import Foundation
import TestSupport
import Testing

/// `tweets sandbox serve` as a real process, attacked over loopback as a hostile local client
/// would (issue #35): it refuses and keeps serving.
@Suite("tweets sandbox serve under attack", .sandboxChecks, .tags(.processes), .tier(.processes))
struct SandboxServeAttackTests {
  /// The resident memory of process `pid`, in MiB, from /proc.
  static func residentMiB(_ pid: Int32) -> Double? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return nil }
    return Double(line.split(separator: " ")[1]).map { $0 / 1024 }
  }

  static func exchange(_ port: Int, _ request: String, timeout: Double = 10) throws -> (Int?, String) {
    let socket = try RawSocket(port: port)
    socket.send(request)
    let answer = socket.receive(timeout: TestTiming.seconds(timeout))
    return (RawSocket.status(of: answer), String(decoding: answer.prefix(400), as: UTF8.self))
  }

  @Test func theServerRefusesHostileRequestsAndKeepsServing() async throws {
    let server = try await SandboxProcess.start(["--tweets-per-user", "5"])
    defer { server.stop() }
    let host = "Host: 127.0.0.1:\(server.port)\r\n"
    let search = "GET /2/tweets/search/recent?query=swift HTTP/1.1\r\n" + host

    // The 80-byte request that killed it: a chunk size of 2^63 - 1.
    let overflow = "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n7fffffffffffffff\r\n"
    #expect(overflow.utf8.count <= 80)
    let (status, text) = try Self.exchange(server.port, overflow)
    #expect(status == 413, "\(text)")
    #expect(server.isRunning, "the sandbox died on an 80-byte request")

    // U+2028 inside a header value made a second header: the app-only bearer token, accepted.
    let (forged, forgedText) = try Self.exchange(server.port, search + "X-A: a\u{2028}Authorization: Bearer sandbox-bearer-token\r\n\r\n")
    #expect(forged == 401, "\(forgedText)")

    // A claimed body of 10^15 bytes, then 64 MiB of it anyway: 413 at once, and no memory.
    let before = try #require(Self.residentMiB(server.processIdentifier))
    let socket = try RawSocket(port: server.port)
    socket.send("POST /2/tweets HTTP/1.1\r\n" + host + "Content-Length: 1000000000000000\r\n\r\n")
    let chunk = Data(repeating: 0x61, count: 1 << 20)
    for _ in 0..<64 where socket.send(chunk) {}
    #expect(RawSocket.status(of: socket.receive(timeout: TestTiming.seconds(10))) == 413)
    let after = try #require(Self.residentMiB(server.processIdentifier))
    #expect(after - before < 32, "resident \(before) MiB → \(after) MiB")
    print("[sandbox serve] Content-Length 10^15 then 64 MiB: 413; resident \(before) MiB → \(after) MiB")

    // And it still serves the real thing.
    let (served, servedText) = try Self.exchange(server.port, search + "Authorization: Bearer sandbox-bearer-token\r\n\r\n")
    #expect(served == 200, "\(servedText)")
    #expect(server.isRunning)
  }
}
