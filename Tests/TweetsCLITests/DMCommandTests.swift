import Foundation
import TestSupport
import Testing

/// `tweets dm list|send|group` as processes against the sandbox over loopback (every request
/// checked by oauthlib, every answer against X's specification when the sandbox stops), and
/// what X bills for them; the 403 of an OAuth 2.0 token without dm.read or dm.write.
@Suite("tweets dm against the sandbox", .sandboxChecks, .serialized, .tags(.peers, .processes), .tier(.peers, .processes))
struct DMCommandTests {
  /// Each JSON line of `output`, parsed.
  static func records(_ output: String) throws -> [[String: Any]] {
    try output.split(separator: "\n").map { line in
      try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line.prefix(80))")
    }
  }

  @Test("list (all, --with, --conversation), send to a user and into a conversation, a group; --output, csv; billing")
  func directMessages() async throws {
    let server = try await VerifiedSandbox.start(tweetsPerUser: 20, credits: "10.00")
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()

    let all = try await tweets.run(["dm", "list", "--format", "jsonl"])
    #expect(all.status == 0, "\(all.stderr)")
    let seeded = try Self.records(all.stdout)
    #expect(seeded.count == 5 && seeded.first?["sender_username"] as? String == "oauth_fan", "\(all.stdout)")
    #expect(seeded.contains { $0["event_type"] as? String == "ParticipantsJoin" })

    let sent = try await tweets.run(["dm", "send", "@swift_lang", "Lunch at one instead?"])
    #expect(sent.status == 0 && sent.stdout.hasSuffix(" in conversation 1001-1002.\n"), "\(sent.stdout)\(sent.stderr)")
    let with = try await tweets.run(["dm", "list", "--with", "swift_lang", "--format", "jsonl"])
    let texts = try Self.records(with.stdout).compactMap { $0["text"] as? String }
    #expect(texts.first == "Lunch at one instead?" && texts.count == 4, "\(with.stdout)\(with.stderr)")

    let into = try await tweets.run(["dm", "send", "--conversation", "1650000000000000001", "Me too."])
    #expect(into.status == 0 && into.stdout.hasSuffix(" in conversation 1650000000000000001.\n"), "\(into.stderr)")
    let file = tweets.configDirectory.appendingPathComponent("group.csv")
    let group = try await tweets.run(["dm", "list", "--conversation", "1650000000000000001", "--all", "--format", "csv", "--output", file.path])
    #expect(group.status == 0, "\(group.stderr)")
    let csv = try String(contentsOf: file, encoding: .utf8)
    #expect(csv.hasPrefix("id,created_at,event_type,dm_conversation_id,sender_id,sender_username,text"), "\(csv)")
    #expect(csv.contains(",MessageCreate,1650000000000000001,1001,sandbox_user,Me too.,"), "\(csv)")

    let started = try await tweets.run(["dm", "group", "swift_lang", "2000014", "--text", "Welcome, fan 14"])
    #expect(started.status == 0 && started.stdout.hasPrefix("Started group conversation "), "\(started.stdout)\(started.stderr)")
    let newest = try Self.records(try await tweets.run(["dm", "list", "--limit", "1", "--format", "jsonl"]).stdout).first
    #expect(newest?["text"] as? String == "Welcome, fan 14")

    // An image, uploaded in X's dm_image category (the sandbox takes no other in a message).
    let image = tweets.configDirectory.appendingPathComponent("fish.png")
    try Data(repeating: 0x89, count: 2048).write(to: image)
    let withMedia = try await tweets.run(["dm", "send", "oauth_fan", "Look at this", "--media", image.path])
    #expect(withMedia.status == 0 && withMedia.stderr.contains("Uploaded fish.png"), "\(withMedia.stdout)\(withMedia.stderr)")
    let attached = try Self.records(try await tweets.run(["dm", "list", "--with", "oauth_fan", "--limit", "1", "--format", "jsonl"]).stdout).first
    #expect((attached?["media_keys"] as? [String])?.first?.hasPrefix("3_") == true, "\(String(describing: attached))")
    #expect(attached?["text"] as? String == "Look at this")

    // Usage errors before any request.
    for (arguments, message) in [
      (["dm", "list", "--with", "swift_lang", "--conversation", "1001-1002"], "not both"),
      (["dm", "send", "swift_lang"], "tweets dm send USER TEXT"), (["dm", "group", "swift_lang", "--text", "hi"], "two users at least"),
      (["dm", "list", "--conversation", "12"], "is not a conversation id"), (["dm", "list", "--db", "x.sqlite"], "does not take --db"),
      (["dm", "list", "--media", "fish.png"], "--media is for tweets dm send and tweets dm group"),
      (["dm", "send", "1002", "hi", "--media", "notes.txt"], "X takes JPEG, PNG"),
    ] {
      let refused = try await tweets.run(arguments)
      #expect(refused.status == 2 && refused.stderr.contains(message), "\(arguments): \(refused.stderr)")
    }
    let notMine = try await tweets.run(["dm", "list", "--conversation", "1002-1003"])
    #expect(notMine.status != 0 && notMine.stderr.contains("403"), "another pair's conversation: \(notMine.stderr)")

    // Three messages sent (interactions, $0.015 each) and the events read: the ledger agrees with the sandbox.
    let charged = try await server.billing().spent
    let usage = try await tweets.run(["usage", "--format", "json"])
    let report = try usage.json() as? [String: Any] ?? [:]
    #expect(USDText(report["spent_this_cycle"] as? String ?? "?") == USDText(charged), "the sandbox charged \(charged): \(usage.stdout)")
  }

  @Test("with OAuth 2.0 and without dm.read or dm.write, X's 403 names the scope and the login")
  func withoutTheScopes() async throws {
    let server = try await VerifiedSandbox.start(tweetsPerUser: 20)
    let tweets = try TweetsRunner(server: server)
    try await BookmarksCommandTests().login(tweets, scopes: "tweet.read users.read offline.access")
    for arguments in [["dm", "list"], ["dm", "send", "1002", "hello"]] {
      let refused = try await tweets.run(arguments)
      #expect(refused.status != 0 && refused.stderr.contains("403") && refused.stderr.contains("dm.read"), "\(refused.stderr)")
      #expect(refused.stderr.contains("tweets login --oauth2"), "\(refused.stderr)")
    }
    try await BookmarksCommandTests().login(tweets, scopes: "tweet.read users.read dm.read dm.write offline.access")
    let sent = try await tweets.run(["dm", "send", "1002", "hello"])
    #expect(sent.status == 0, "\(sent.stderr)")
  }
}
