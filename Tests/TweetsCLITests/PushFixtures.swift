import Foundation
import TestSupport
import Testing

/// The answers the webhook and activity command tests feed the client in X's place, in one
/// place, and checked against X's specification 2.167 by openapi-core (python-openapi, a
/// validator the project did not write; Tests/Peers/openapi_check.py), so that the client is
/// tested against X's shapes and not against shapes of its own.
enum PushFixtures {
  static var webhook: [String: Any] {
    ["id": "1146654567674912769", "url": "https://example.com/webhook", "valid": true, "created_at": "2026-11-29T03:00:00.000Z"]
  }
  static var webhooks: [String: Any] { ["data": [webhook], "meta": ["result_count": 1]] }
  /// The answer to `PUT` (re-check: `valid`) and `DELETE` (`deleted`) of `/2/webhooks/{id}`,
  /// which a canned X answers by path.
  static var webhookByID: [String: Any] { ["data": ["valid": true, "deleted": true]] }
  static var replay: [String: Any] { ["job_id": "1788260123456789012", "created_at": "2026-11-29T03:01:00.000Z"] }

  static func subscription(_ id: String, _ type: String) -> [String: Any] {
    ["subscription_id": id, "event_type": type, "filter": ["user_id": "2244994945"], "created_at": "2026-11-29T03:00:00.000Z"]
  }
  static var created: [String: Any] { ["data": ["subscription": subscription("1146654567674912769", "post.create")]] }
  static var subscriptions: [String: Any] { ["data": [subscription("1", "post.create"), subscription("2", "follow.follow")]] }
  static var deleted: [String: Any] { ["data": ["deleted": true]] }
}

@Suite("The webhook and activity tests' canned answers against X's specification", .tags(.peers), .tier(.peers))
struct PushFixturesSpecTests {
  @Test("each canned answer is valid for its operation in X's specification 2.167 (openapi-core)")
  func cannedAnswersFollowTheSpecification() async throws {
    func line(_ method: String, _ path: String, _ body: [String: Any]) throws -> String {
      let text = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
      let object: [String: Any] = [
        "method": method, "path": path, "query": "", "status": 200, "content_type": "application/json", "body": text,
      ]
      return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }
    let lines = [
      try line("GET", "/2/webhooks", PushFixtures.webhooks), try line("POST", "/2/webhooks", PushFixtures.webhook),
      try line("PUT", "/2/webhooks/1146654567674912769", PushFixtures.webhookByID),
      try line("DELETE", "/2/webhooks/1146654567674912769", PushFixtures.webhookByID),
      try line("POST", "/2/webhooks/replay", PushFixtures.replay), try line("POST", "/2/activity/subscriptions", PushFixtures.created),
      try line("GET", "/2/activity/subscriptions", PushFixtures.subscriptions),
      try line("DELETE", "/2/activity/subscriptions/1146654567674912769", PushFixtures.deleted),
    ]
    let log = FileManager.default.temporaryDirectory.appendingPathComponent("push-fixtures-\(UUID().uuidString).jsonl")
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: log)
    defer { try? FileManager.default.removeItem(at: log) }
    let site = try await onOwnThread { try PythonPeer.sitePackages(SpecCheck.requirements) }
    let result = try await ProcessRunner.run(
      URL(fileURLWithPath: "/usr/bin/env"),
      [
        "python3", "-s", PackagePaths.peers.appendingPathComponent("openapi_check.py").path, "--spec",
        PackagePaths.root.appendingPathComponent("Tests/Specs/x-openapi-2.167.json").path, log.path,
      ],
      environment: ["PYTHONPATH": site.path, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONNOUSERSITE": "1", "PATH": "/usr/bin:/bin"], timeout: 300)
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("8 answers; 8 checked against X's specification 2.167"), "\(result.stdout)")
  }
}
