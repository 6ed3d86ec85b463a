import Foundation
import TestSupport
import Testing

/// `oauth1 serve` as a real process, fed what a hostile local client sends: each request is
/// refused with the status its limit names (the Loopback server's, then the verifier's), fast,
/// without forged lines in the answer or the log, and the server keeps answering.
@Suite("oauth1 serve, hostile input", .tags(.processes), .tier(.processes))
struct ServeHostileInputTests {
  /// One hostile request and the status it must get.
  struct Case: Sendable, CustomTestStringConvertible {
    let name: String
    let bytes: Data
    let status: Int
    /// What the answer must contain (a problem in the challenge).
    let containing: String?

    var testDescription: String { name }

    init(_ name: String, _ text: String, _ status: Int, containing: String? = nil) {
      self.init(name, Data(text.utf8), status, containing: containing)
    }

    init(_ name: String, _ bytes: Data, _ status: Int, containing: String? = nil) {
      self.name = name
      self.bytes = bytes
      self.status = status
      self.containing = containing
    }
  }

  static let header =
    #"OAuth oauth_consumer_key="key", oauth_signature_method="HMAC-SHA1", oauth_timestamp="1", oauth_nonce="n", oauth_signature="AAAA""#
  static let hugeForm = (0..<40_000).map { "oauth_x\($0)=1" }.joined(separator: "&")

  static let cases: [Case] = [
    Case("a head over 64 KiB", "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: \(String(repeating: "a", count: 70_000))\r\n\r\n", 431),
    Case("a body claimed at 10^15 bytes", "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000000000000000\r\n\r\n", 413),
    Case("bare LF line ends", "GET / HTTP/1.1\nHost: 127.0.0.1\n\n", 400),
    Case(
      "a chunk size past any integer",
      "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFFFFFFFFF\r\n", 413),
    Case(
      "an OAuth header of 20 KB",
      "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: OAuth realm=\"\(String(repeating: "r", count: 20_000))\"\r\n\r\n",
      431, containing: #"oauth_problem="parameter_rejected""#),
    Case(
      "a form of 40,000 oauth_ names",
      "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: \(hugeForm.utf8.count)\r\n\r\n\(hugeForm)",
      400, containing: #"oauth_problem="parameter_rejected""#),
    Case(
      "an unterminated OAuth header", "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: OAuth oauth_consumer_key=\"unterminated\r\n\r\n", 400,
      containing: #"oauth_problem="parameter_rejected""#),
    Case("a Host that is not a host", "GET / HTTP/1.1\r\nHost: evil/path?x=1\r\n\r\n", 400),
    Case("no Host", "GET / HTTP/1.0\r\n\r\n", 400),
    Case("an absolute-form target", "GET http://evil.example/ HTTP/1.1\r\nHost: evil.example\r\n\r\n", 400),
    Case(
      "a consumer key with an encoded CR LF",
      "GET /x HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: \(header.replacingOccurrences(of: #""key""#, with: #""k%0D%0AX-Evil: 1""#))\r\n\r\n",
      401, containing: #"oauth_problem="timestamp_refused""#),
    Case(
      "a consumer key of 10,000 characters",
      "GET /x HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: \(header.replacingOccurrences(of: #""key""#, with: "\"\(String(repeating: "k", count: 10_000))\""))\r\n\r\n",
      401, containing: #"oauth_problem="timestamp_refused""#),
    Case(
      "invalid UTF-8 in a form",
      Data("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 9\r\n\r\na=%FF%FE&".utf8),
      400, containing: #"oauth_problem="#),
  ]

  @Test(arguments: cases)
  func isRefusedWithItsStatus(_ hostile: Case) async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("oauth1-serve-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let log = folder.appendingPathComponent("provider.jsonl")
    let server = try await ServeProcess.start(["--consumer-key", "key", "--consumer-secret", "secret", "--log", log.path])
    defer { server.stop() }

    let started = Date()
    let answer = try await Self.exchange(port: server.port, hostile.bytes)
    // A hang would last the server's 30 s timeouts; 0.35 s here alone, 11 s in a loaded CI run.
    #expect(Date().timeIntervalSince(started) < TestTiming.seconds(90), "answered after \(Date().timeIntervalSince(started)) s")
    let head = String(decoding: answer.prefix(4096), as: UTF8.self)
    #expect(RawSocket.status(of: answer) == hostile.status, "\(head)")
    if let containing = hostile.containing { #expect(head.contains(containing), "\(head)") }
    let headLines = head.components(separatedBy: "\r\n\r\n")[0].components(separatedBy: "\r\n")
    #expect(!headLines.contains { $0.hasPrefix("X-Evil") }, "\(head)")

    // Still serving: an unsigned request gets its problem.
    let after = try await Self.exchange(port: server.port, Data("GET /items HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
    #expect(RawSocket.status(of: after) == 400)
    #expect(String(decoding: after, as: UTF8.self).contains(#"oauth_problem="parameter_absent""#))

    // Every line of the log is one JSON object: a request's bytes cannot split or forge one.
    await server.stopAndWait()
    let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    for line in text.split(separator: "\n") {
      #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) is [String: Any], "\(line)")
      #expect(line.utf8.count < 2048, "a log line of \(line.utf8.count) bytes")
    }
    #expect(!text.contains("secret"))
    // The refusal is in it, whoever made it: the loopback server or the provider.
    #expect(text.contains("\"status\":\(hostile.status)"), "\(text)")
  }

  /// Sends `bytes` on a new connection and returns what came back within 10 s.
  static func exchange(port: Int, _ bytes: Data) async throws -> Data {
    try await onOwnThread {
      let socket = try RawSocket(port: port)
      defer { socket.close() }
      socket.send(bytes)
      return socket.receive(timeout: TestTiming.seconds(10))
    }
  }
}

/// `oauth1 serve`'s wrong usage: exit 2 and the reason, before anything listens.
@Suite("oauth1 serve, usage", .tags(.processes), .tier(.processes))
struct ServeUsageTests {
  @Test(arguments: [
    (["--consumer-secret", "s"], "missing --consumer-key"),
    (["--consumer-key", "k"], "missing --consumer-secret"),
    (["--consumer-key", "k", "--consumer-secret", "s", "--port", "65536"], "--port takes a port number"),
    (["--consumer-key", "k", "--consumer-secret", "s", "--token", "t"], "--token needs --token-secret"),
    (["--consumer-key", "k", "--consumer-secret", "s", "--token-secret", "t"], "--token-secret needs --token"),
    (["--consumer-key", "k", "--consumer-secret", "s", "--limit", "bogus=1"], "--limit takes url-bytes"),
  ])
  func isRefused(arguments: [String], message: String) async throws {
    var environment = ProcessInfo.processInfo.environment
    environment.removeValue(forKey: "OAUTH1_CONSUMER_SECRET")
    environment.removeValue(forKey: "OAUTH1_TOKEN_SECRET")
    let result = try await oauth1(["serve"] + arguments, environment: environment)
    #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
    #expect(result.stderr.contains(message), "\(result.stderr)")
  }

  /// A port another process holds: exit 1, and the advice to choose another.
  @Test func aTakenPortFails() async throws {
    let first = try await ServeProcess.start(["--consumer-key", "k", "--consumer-secret", "s"])
    defer { first.stop() }
    let result = try await oauth1(["serve", "--consumer-key", "k", "--consumer-secret", "s", "--port", String(first.port)])
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
    #expect(result.stderr.contains("choose another --port"), "\(result.stderr)")
  }

  /// A log that cannot be opened, or a public key that is not one, fails at once (exit 1).
  @Test(arguments: [["--log", "/nonexistent-folder/log.jsonl"], ["--rsa-public-key", "/nonexistent-folder/key.pem"]])
  func anUnusableFileFails(arguments: [String]) async throws {
    let secret = "serve-secret-\(UUID().uuidString)"
    let result = try await oauth1(["serve", "--consumer-key", "k", "--consumer-secret", secret] + arguments)
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
    #expect(result.stderr.contains("/nonexistent-folder/"), "\(result.stderr)")
    #expect(!result.stderr.contains(secret) && !result.stdout.contains(secret))
  }
}
