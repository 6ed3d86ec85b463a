import Foundation
import TestSupport
import Testing

/// `tweets activity subscribe|list|delete|stream` as a real process against a canned X
/// (Tests/Peers/canned_server.py, which logs each request, answering PushFixtures, which X's
/// specification validates): app-only, each action on its row's
/// method and path, the stream's lines written as `tweets webhook serve` writes them, and each
/// event billed at X's price, the budget stopping the stream.
@Suite("tweets activity subscribe|list|delete|stream", .tags(.peers, .processes), .tier(.peers, .processes))
struct ActivityCommandTests {
  static let bearer = ["X_BEARER_TOKEN": "app-bearer-" + UUID().uuidString]

  /// Three `post.create` events of @XDevelopers, as the stream's lines (X's `ActivityStreamResponse`).
  static var streamLines: String {
    (1...3).map { n in
      #"{"data":{"event_type":"post.create","event_uuid":"90\#(n)","filter":{"user_id":"2244994945"},"#
        + #""payload":{"id":"180000000000000000\#(n)","text":"post \#(n)","author_id":"2244994945","edit_history_tweet_ids":["180000000000000000\#(n)"]}}}"#
    }.joined(separator: "\n") + "\n"
  }

  @Test("subscribe (one per type, a username looked up), list in every format, delete: app-only, on their rows")
  func manage() async throws {
    let x = try await HostileAnswerTests.Canned.start([
      "/2/users/by/username/XDevelopers": ["json": ["data": ["id": "2244994945", "name": "Developers", "username": "XDevelopers"]]],
      "/2/activity/subscriptions": ["json": PushFixtures.created],
      "/2/activity/subscriptions/1146654567674912769": ["json": PushFixtures.deleted],
    ])
    let subscribe = try await x.tweets(
      ["activity", "subscribe", "--user", "@XDevelopers", "--events", "post.create,follow.follow", "--direction", "inbound"],
      environment: Self.bearer)
    #expect(subscribe.status == 0, "\(subscribe.stderr)")
    #expect(subscribe.stdout.contains("Subscribed 1146654567674912769: post.create of user 2244994945, on the stream"), "\(subscribe.stdout)")
    let delete = try await x.tweets(["activity", "delete", "1146654567674912769"], environment: Self.bearer)
    #expect(delete.status == 0 && delete.stdout.contains("Deleted subscription 1146654567674912769."), "\(delete.stdout)\(delete.stderr)")
    #expect(
      try x.requests().map { "\($0.method) \($0.path)" } == [
        "GET /2/users/by/username/XDevelopers", "POST /2/activity/subscriptions", "POST /2/activity/subscriptions",
        "DELETE /2/activity/subscriptions/1146654567674912769",
      ])
    #expect(try x.requests().allSatisfy { $0.headers.contains("Authorization: Bearer \(Self.bearer["X_BEARER_TOKEN"]!)") })

    let listing = try await HostileAnswerTests.Canned.start([
      "/2/activity/subscriptions": ["json": PushFixtures.subscriptions]
    ])
    let csv = try await listing.tweets(["activity", "list", "--format", "csv"], environment: Self.bearer)
    #expect(
      csv.stdout == "id,event_type,user_id,direction,keyword,tag,webhook_id,created_at\r\n1,post.create,2244994945,,,,,2026-11-29T03:00:00Z\r\n"
        + "2,follow.follow,2244994945,,,,,2026-11-29T03:00:00Z\r\n", "\(csv.stdout)\(csv.stderr)")
    let text = try await listing.tweets(["activity", "list"], environment: Self.bearer)
    #expect(text.stdout.contains("2  follow.follow  user 2244994945  on the stream"), "\(text.stdout)")
  }

  @Test("an unknown event type, a bad id and stream options elsewhere are refused before anything is sent")
  func refusals() async throws {
    let x = try await HostileAnswerTests.Canned.start([:])
    for arguments in [
      ["activity", "subscribe", "--user", "1", "--events", "post.created"], ["activity", "delete", "x1"], ["activity", "list", "--limit", "2"],
      ["activity", "subscribe", "--events", "post.create"], ["activity", "stream", "--format", "csv"], ["activity", "list", "--user", "1"],
    ] {
      let run = try await x.tweets(arguments, environment: Self.bearer)
      #expect(run.status == 2, "\(arguments): \(run.status) \(run.stderr)")
    }
    #expect(try x.requests().isEmpty)
  }

  @Test("stream: each event a line of webhook serve's shape; --max-cost $0.005 stops after the first post, billed at $0.005")
  func stream() async throws {
    let x = try await HostileAnswerTests.Canned.start(["/2/activity/stream": ["text": Self.streamLines]])
    let all = try await x.tweets(["activity", "stream", "--format", "jsonl", "--limit", "3"], environment: Self.bearer)
    #expect(all.status == 0, "\(all.stderr)")
    let lines = all.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    #expect(lines.map { $0["type"] as? String } == ["post.create", "post.create", "post.create"], "\(all.stdout)")
    #expect(lines.map { $0["for_user_id"] as? String } == ["2244994945", "2244994945", "2244994945"])
    #expect(lines.first?["source"] as? String == "activity" && lines.first?["kind"] as? String == "post_created")

    // A fresh configuration (and ledger): X bills a post once per UTC day, so the posts the run
    // above paid for would be free here.
    let fresh = try await HostileAnswerTests.Canned.start(["/2/activity/stream": ["text": Self.streamLines]])
    let capped = try await fresh.tweets(["activity", "stream", "--format", "text", "--max-cost", "0.005"], environment: Self.bearer)
    #expect(capped.status != 0, "\(capped.stdout)")
    #expect(capped.stderr.contains("stopped at the spending limit"), "\(capped.stderr)")
    #expect(capped.stdout.components(separatedBy: "post.create").count == 2, "one event written: \(capped.stdout)")
    #expect(capped.stdout.contains("post 1  (id 1800000000000000001)"), "\(capped.stdout)")
  }
}
