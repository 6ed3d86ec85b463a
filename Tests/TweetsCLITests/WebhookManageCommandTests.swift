import Foundation
import TestSupport
import Testing

/// `tweets webhook register|list|check|delete|replay` as a real process against a canned X
/// (Tests/Peers/canned_server.py, which logs each request, answering PushFixtures, which X's
/// specification validates): app-only as X requires, each
/// action on its own row's method and path, `list` in every format, bad ids refused before
/// anything is sent, and the bearer token never printed.
@Suite("tweets webhook register|list|check|delete|replay", .tags(.peers, .processes), .tier(.peers, .processes))
struct WebhookManageCommandTests {
  static let bearer = ["X_BEARER_TOKEN": "app-bearer-" + UUID().uuidString]
  static var webhook: [String: Any] { PushFixtures.webhook }

  static func canned() async throws -> HostileAnswerTests.Canned {
    try await HostileAnswerTests.Canned.start([
      "/2/webhooks": ["json": PushFixtures.webhooks], "/2/webhooks/1146654567674912769": ["json": PushFixtures.webhookByID],
      "/2/webhooks/replay": ["json": PushFixtures.replay],
    ])
  }

  @Test("list in text, json, jsonl and csv; check, delete and replay on their rows, all with the app's bearer token")
  func actions() async throws {
    let x = try await Self.canned()
    let text = try await x.tweets(["webhook", "list"], environment: Self.bearer)
    #expect(text.status == 0, "\(text.stderr)")
    #expect(text.stdout.contains("1146654567674912769  https://example.com/webhook  valid"), "\(text.stdout)")
    let json = try await x.tweets(["webhook", "list", "--format", "json"], environment: Self.bearer)
    let decoded = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
    #expect(decoded.first?["id"] as? String == "1146654567674912769" && decoded.first?["valid"] as? Bool == true)
    let csv = try await x.tweets(["webhook", "list", "--format", "csv"], environment: Self.bearer)
    #expect(csv.stdout.hasPrefix("id,url,valid,created_at\r\n1146654567674912769,https://example.com/webhook,true,"), "\(csv.stdout)")
    let check = try await x.tweets(["webhook", "check", "1146654567674912769"], environment: Self.bearer)
    #expect(check.status == 0 && check.stdout.contains("X sent webhook 1146654567674912769 a CRC"), "\(check.stdout)\(check.stderr)")
    let delete = try await x.tweets(["webhook", "delete", "1146654567674912769"], environment: Self.bearer)
    #expect(delete.status == 0 && delete.stdout.contains("Deleted webhook 1146654567674912769."), "\(delete.stdout)\(delete.stderr)")
    let replay = try await x.tweets(
      ["webhook", "replay", "1146654567674912769", "--from", "2026-11-29T01:00:00Z", "--to", "2026-11-29T02:30:00Z"], environment: Self.bearer)
    #expect(replay.status == 0 && replay.stdout.contains("Replay job 1788260123456789012"), "\(replay.stdout)\(replay.stderr)")
    // The specification's create answer: the webhook at the top level (a canned X answers by path).
    let creating = try await HostileAnswerTests.Canned.start(["/2/webhooks": ["json": Self.webhook]])
    let register = try await creating.tweets(["webhook", "register", "https://example.com/webhook"], environment: Self.bearer)
    #expect(register.status == 0, "\(register.stderr)")
    #expect(register.stdout.contains("Registered webhook 1146654567674912769"), "\(register.stdout)")
    #expect(try creating.requests().map { "\($0.method) \($0.path)" } == ["POST /2/webhooks"])

    let log = try x.requests() + creating.requests()
    #expect(
      log.map { "\($0.method) \($0.path)" } == [
        "GET /2/webhooks", "GET /2/webhooks", "GET /2/webhooks", "PUT /2/webhooks/1146654567674912769",
        "DELETE /2/webhooks/1146654567674912769", "POST /2/webhooks/replay", "POST /2/webhooks",
      ])
    #expect(log.allSatisfy { $0.headers.contains("Authorization: Bearer \(Self.bearer["X_BEARER_TOKEN"]!)") }, "app-only, as X requires")
    for run in [text, json, csv, check, delete, replay, register] {
      #expect(!(run.stdout + run.stderr).contains(Self.bearer["X_BEARER_TOKEN"]!), "the token is never printed")
    }
  }

  @Test("a bad id, replay without its window or backwards, and --db outside serve are refused before anything is sent")
  func refusals() async throws {
    let x = try await Self.canned()
    for arguments in [
      ["webhook", "check", "12ab"], ["webhook", "delete"], ["webhook", "replay", "1146654567674912769", "--from", "2026-11-29T01:00:00Z"],
      ["webhook", "replay", "1146654567674912769", "--from", "2026-11-29T03:00:00Z", "--to", "2026-11-29T01:00:00Z"],
      ["webhook", "list", "--db", "archive.sqlite"], ["webhook", "list", "extra"], ["webhook", "serve", "--from", "2026-11-29T01:00:00Z"],
    ] {
      let run = try await x.tweets(arguments, environment: Self.bearer)
      #expect(run.status != 0, "\(arguments)")
      #expect(run.stderr.contains("tweets webhook") || run.stderr.contains("--"), "\(arguments): \(run.stderr)")
    }
    #expect(try x.requests().isEmpty, "nothing was sent")
  }
}
