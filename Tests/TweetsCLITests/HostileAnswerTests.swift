import Foundation
import TestSupport
import Testing

/// `tweets` against a hostile X (Tests/Peers/canned_server.py, which answers what each test
/// scripts and logs every request it gets): what the network sends may not add a header line,
/// decode into gigabytes, or hold a request for as long as it likes.
@Suite("Hostile answers: header injection, decompression, trickling", .tags(.peers, .processes), .tier(.peers, .processes))
struct HostileAnswerTests {
  /// A canned X answering `answers` (path → answer), and the file its requests are logged to.
  final class Canned {
    let folder: URL
    let server: LoopbackServer
    var log: URL { folder.appendingPathComponent("log.jsonl") }

    private init(folder: URL, server: LoopbackServer) {
      self.folder = folder
      self.server = server
    }

    /// Starts a canned X answering `answers`, off the concurrency pool's threads.
    static func start(_ answers: [String: Any]) async throws -> Canned {
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let file = folder.appendingPathComponent("answers.json")
      try JSONSerialization.data(withJSONObject: answers).write(to: file)
      let server = try await LoopbackServer.start(
        script: "canned_server.py", arguments: ["--answers", file.path, "--log", folder.appendingPathComponent("log.jsonl").path])
      return Canned(folder: folder, server: server)
    }

    deinit {
      server.stop()
      try? FileManager.default.removeItem(at: folder)
    }

    /// The requests it got: method, path and header fields.
    func requests() throws -> [(method: String, path: String, headers: [String])] {
      guard let text = try? String(contentsOf: log, encoding: .utf8) else { return [] }
      return try text.split(separator: "\n").map { line in
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let headers = (object["headers"] as? [[String]] ?? []).map { $0.joined(separator: ": ") }
        return (object["method"] as? String ?? "", object["path"] as? String ?? "", headers)
      }
    }

    func tweets(_ arguments: [String], environment extra: [String: String] = [:]) async throws -> ProcessResult {
      var environment = ProcessInfo.processInfo.environment
      for key in environment.keys where key.hasPrefix("X_") || key.hasPrefix("TWITTER_") { environment.removeValue(forKey: key) }
      for (key, value) in extra { environment[key] = value }
      return try await ProcessRunner.run(
        PackagePaths.executable("tweets"),
        arguments + ["--base-url", server.baseURL.absoluteString, "--config-dir", folder.appendingPathComponent("config").path],
        environment: environment, timeout: 120)
    }
  }

  /// An OAuth 1.0a user, from the environment.
  static let user = ["X_CONSUMER_KEY": "key", "X_CONSUMER_SECRET": "secret", "X_ACCESS_TOKEN": "1-token", "X_ACCESS_TOKEN_SECRET": "token-secret"]

  @Test("a bearer token holding CR LF from the token endpoint is refused: no header is injected, no request smuggled, nothing retried")
  func injectedToken() async throws {
    let hostile = "tok\r\nX-Injected: 1\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: other.example"
    let x = try await Canned.start([
      "/oauth2/token": ["json": ["token_type": "bearer", "access_token": hostile]],
      "/2/tweets/counts/recent": ["json": ["data": [], "meta": ["total_tweet_count": 0]]],
    ])
    let result = try await x.tweets(["counts", "swift"], environment: ["X_CONSUMER_KEY": "key", "X_CONSUMER_SECRET": "secret"])
    #expect(result.status != 0)
    #expect(result.stderr.contains("holds a space, a line break or a character outside visible ASCII"), "\(result.stderr)")
    #expect(!result.stderr.contains("X-Injected") && !result.stderr.contains("smuggled"), "the hostile value is not echoed")
    let log = try x.requests()
    #expect(log.map(\.path) == ["/oauth2/token"], "only the token request reached the server: \(log.map(\.path))")
    #expect(!log.contains { $0.headers.contains { $0.hasPrefix("X-Injected") } })
  }

  @Test(
    "a bearer token with a line break from the environment, a lone CR or LF included, is refused before anything is sent, and not retried",
    arguments: ["tok\r\nX-Injected: 1", "tok\rX-Injected: 1", "tok\nX-Injected: 1"])
  func injectedEnvironmentToken(_ token: String) async throws {
    let x = try await Canned.start(["/2/tweets/counts/recent": ["json": ["data": [], "meta": ["total_tweet_count": 0]]]])
    let result = try await x.tweets(["counts", "swift"], environment: ["X_BEARER_TOKEN": token])
    #expect(result.status != 0)
    #expect(result.stderr.contains("the header Authorization holds a line break or NUL"), "\(result.stderr)")
    #expect(try x.requests().isEmpty, "nothing was sent")
  }

  @Test("a small gzip answer that decodes past CurlTransport's 64 MiB limit fails the request instead of taking memory, once")
  func decompressionBomb() async throws {
    // 128 MiB of zeros, 130 KB compressed: before the limit, whoami decoded all of it.
    let x = try await Canned.start(["/2/users/me": ["headers": ["Content-Type": "application/json"], "gzip_zeros": 128 << 20]])
    let result = try await x.tweets(["whoami"], environment: Self.user)
    #expect(result.status != 0)
    #expect(result.stderr.contains("larger than \(64 << 20) bytes"), "\(result.stderr)")
    #expect(try x.requests().filter { $0.path == "/2/users/me" }.count == 1, "too large is not retried")
  }

  @Test("an answer trickled a byte every 0.5 s ends at the total deadline (4 × --timeout), not retried, saying why")
  func trickle() async throws {
    let x = try await Canned.start([
      "/2/users/me": ["headers": ["Content-Type": "application/json"], "text": String(repeating: " ", count: 10_000), "trickle": 0.5]
    ])
    let result = try await x.tweets(["--timeout", "2", "whoami"], environment: Self.user)
    #expect(result.status != 0)
    #expect(result.stderr.contains("total deadline of 8 s"), "\(result.stderr)")
    // 8 s, far from the 5,000 s the trickle would take; generous for a busy machine.
    #expect(result.seconds < TestTiming.seconds(60), "it ran \(result.seconds) s")
    #expect(try x.requests().filter { $0.path == "/2/users/me" }.count == 1, "a trickle is not retried")
  }

  @Test("a proxy from the environment does not see requests to this machine: the loopback X is reached directly")
  func noProxyForLoopback() async throws {
    let x = try await Canned.start(["/2/users/me": ["json": ["data": ["id": "1", "name": "One", "username": "one"]]]])
    // Port 9 (discard) refuses: had the request gone through this proxy, it would have failed.
    let result = try await x.tweets(
      ["whoami", "--format", "json"], environment: Self.user.merging(["http_proxy": "http://127.0.0.1:9", "ALL_PROXY": "http://127.0.0.1:9"]) { $1 })
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("\"one\""), "\(result.stdout)")
  }
}
