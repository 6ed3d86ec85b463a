import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `tweets` against a hostile X (Tests/Peers/hostile_x.py, which answers what each test scripts
/// and logs every request it gets): what the network sends may not add a header line, decode
/// into gigabytes, or hold a request for as long as it likes.
@Suite("Hostile answers: header injection, decompression, trickling", .serialized, .tags(.peers, .processes), .tier(.peers, .processes))
struct HostileAnswerTests {
  let server: LoopbackServer

  init() throws {
    server = try LoopbackServer(script: "hostile_x.py", lifetime: 300)
  }

  struct Logged: Decodable {
    let method: String
    let path: String
    let headers: [String]
  }

  func script(_ answers: [String: [String: Any]]) async throws {
    var request = URLRequest(url: server.baseURL.appendingPathComponent("_script"))
    request.httpMethod = "POST"
    request.httpBody = try JSONSerialization.data(withJSONObject: answers)
    _ = try await URLSession.shared.data(for: request)
  }

  func log() async throws -> [Logged] {
    let (data, _) = try await URLSession.shared.data(from: server.baseURL.appendingPathComponent("_log"))
    return try JSONDecoder().decode([Logged].self, from: data)
  }

  /// An OAuth 1.0a user, from the environment.
  static let user = ["X_CONSUMER_KEY": "key", "X_CONSUMER_SECRET": "secret", "X_ACCESS_TOKEN": "1-token", "X_ACCESS_TOKEN_SECRET": "token-secret"]

  func tweets(_ arguments: [String], environment extra: [String: String] = [:]) async throws -> ProcessResult {
    var environment = ProcessInfo.processInfo.environment
    for key in environment.keys where key.hasPrefix("X_") || key.hasPrefix("TWITTER_") { environment.removeValue(forKey: key) }
    for (key, value) in extra { environment[key] = value }
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: home) }
    return try await ProcessRunner.run(
      PackagePaths.executable("tweets"), arguments + ["--base-url", server.baseURL.absoluteString, "--config-dir", home.path],
      environment: environment, timeout: 120)
  }

  @Test("a bearer token holding CR LF from the token endpoint is refused: no header is injected, no request smuggled, nothing retried")
  func injectedToken() async throws {
    let hostile = "tok\r\nX-Injected: 1\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: other.example"
    let body = try JSONSerialization.data(withJSONObject: ["token_type": "bearer", "access_token": hostile])
    try await script([
      "POST /oauth2/token": ["status": 200, "headers": [["Content-Type", "application/json"]], "body": String(decoding: body, as: UTF8.self)],
      "GET /2/tweets/counts/recent": ["status": 200, "body": #"{"data":[],"meta":{"total_tweet_count":0}}"#],
    ])
    let result = try await tweets(["counts", "swift"], environment: ["X_CONSUMER_KEY": "key", "X_CONSUMER_SECRET": "secret"])
    #expect(result.status != 0)
    #expect(result.stderr.contains("RFC 6750"), "\(result.stderr)")
    #expect(!result.stderr.contains("X-Injected") && !result.stderr.contains("smuggled"), "the hostile value is not echoed")
    let log = try await log()
    #expect(log.map(\.path) == ["/oauth2/token"], "only the token request reached the server: \(log.map(\.path))")
    #expect(!log.contains { $0.headers.contains { $0.hasPrefix("X-Injected") } })
  }

  @Test(
    "a bearer token with a line break from the environment, a lone CR or LF included, is refused before anything is sent, and not retried",
    arguments: ["tok\r\nX-Injected: 1", "tok\rX-Injected: 1", "tok\nX-Injected: 1"])
  func injectedEnvironmentToken(_ token: String) async throws {
    try await script(["GET /2/tweets/counts/recent": ["status": 200, "body": #"{"data":[],"meta":{"total_tweet_count":0}}"#]])
    let before = try await log().count
    let result = try await tweets(["counts", "swift"], environment: ["X_BEARER_TOKEN": token])
    #expect(result.status != 0)
    #expect(result.stderr.contains("the header Authorization holds a line break or NUL"), "\(result.stderr)")
    #expect(try await log().count == before, "nothing was sent")
  }

  @Test("a small gzip answer that decodes past CurlTransport's 64 MiB limit fails the request instead of taking memory, once")
  func decompressionBomb() async throws {
    // 128 MiB of zeros, 130 KB compressed: before the limit, whoami decoded all of it.
    try await script(["GET /2/users/me": ["status": 200, "headers": [["Content-Type", "application/json"]], "gzip_of_zeros": 128 << 20]])
    let result = try await tweets(["whoami"], environment: Self.user)
    #expect(result.status != 0)
    #expect(result.stderr.contains("larger than \(64 << 20) bytes"), "\(result.stderr)")
    #expect(try await log().filter { $0.path == "/2/users/me" }.count == 1, "too large is not retried")
  }

  @Test("an answer trickled a byte every 0.5 s ends at the total deadline (4 × --timeout), not retried, saying why")
  func trickle() async throws {
    try await script([
      "GET /2/users/me": [
        "status": 200, "headers": [["Content-Type", "application/json"]], "body": String(repeating: " ", count: 10_000), "trickle": 0.5,
      ]
    ])
    let result = try await tweets(["--timeout", "2", "whoami"], environment: Self.user)
    #expect(result.status != 0)
    #expect(result.stderr.contains("total deadline of 8 s"), "\(result.stderr)")
    // 8 s, far from the 5,000 s the trickle would take; generous for a busy machine.
    #expect(result.seconds < 60, "it ran \(result.seconds) s")
    #expect(try await log().filter { $0.path == "/2/users/me" }.count == 1, "a trickle is not retried")
  }
}
