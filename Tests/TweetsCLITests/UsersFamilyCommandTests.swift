import Foundation
import TestSupport
import Testing

/// `tweets users --search`, `tweets blocks` and `tweets mutes` as processes against the sandbox
/// over loopback (every answer checked against X's specification when the sandbox stops):
/// paging, every output, the archive, and what X bills, which the ledger must agree with.
@Suite(
  "tweets users --search, blocks and mutes against the sandbox", .sandboxChecks, .serialized, .tags(.peers, .processes), .tier(.peers, .processes))
struct UsersFamilyCommandTests {
  /// The `id` of each JSON line of `output`.
  static func ids(_ output: String) throws -> [String] {
    try output.split(separator: "\n").map { line in
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      return try #require(object?["id"] as? String, "\(line.prefix(80))")
    }
  }

  @Test("users --search pages with next_token: --limit, --all to a file, --resume of a complete file, --db, --format csv")
  func search() async throws {
    let server = try await VerifiedSandbox.start(tweetsPerUser: 20)
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()

    // @swift_lang, then every seventh fan ("Swift on Linux, mostly"): 1 + 185 accounts.
    let first = try await tweets.run(["users", "--search", "swift", "--limit", "30", "--format", "jsonl"])
    #expect(first.status == 0, "\(first.stderr)")
    let thirty = try Self.ids(first.stdout)
    #expect(thirty.count == 30 && thirty.first == "1002", "\(first.stdout.prefix(300))")

    let file = tweets.configDirectory.appendingPathComponent("swift.jsonl")
    let all = try await tweets.run(["users", "--search", "swift linux", "--all", "--format", "jsonl", "--output", file.path])
    #expect(all.status == 0, "\(all.stderr)")
    let everyone = try Self.ids(String(contentsOf: file, encoding: .utf8))
    #expect(everyone.count == 185 && Set(everyone).count == 185, "two pages of 100 and 85, each account once")
    let again = try await tweets.run(["users", "--search", "swift linux", "--all", "--format", "jsonl", "--output", file.path, "--resume"])
    #expect(again.status == 0 && again.stderr.contains("is complete (185 users)"), "\(again.stderr)")

    let archive = tweets.configDirectory.appendingPathComponent("users.sqlite")
    let stored = try await tweets.run(["users", "--search", "oauth", "--db", archive.path])
    #expect(stored.status == 0 && FileManager.default.fileExists(atPath: archive.path), "\(stored.stderr)")
    let csv = try await tweets.run(["users", "--search", "oauth", "--format", "csv"])
    #expect(csv.status == 0 && csv.stdout.contains("oauth_fan"), "\(csv.stdout)\(csv.stderr)")

    let none = try await tweets.run(["users", "--search", "nobody-has-this-word", "--format", "jsonl"])
    #expect(none.status == 0 && none.stdout.isEmpty, "\(none.stdout)\(none.stderr)")
    let both = try await tweets.run(["users", "--search", "swift", "swift_lang"])
    #expect(both.status == 2 && both.stderr.contains("not both"), "\(both.stderr)")
  }

  @Test("blocks and mutes: the caller's own, as owned reads that the ledger prices as the sandbox bills them")
  func blocksAndMutes() async throws {
    let server = try await VerifiedSandbox.start(tweetsPerUser: 20, credits: "10.00")
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()
    let before = try await server.billing().spent

    let blocks = try await tweets.run(["blocks", "--format", "jsonl"])
    #expect(blocks.status == 0, "\(blocks.stderr)")
    #expect(try Self.ids(blocks.stdout) == ["2000013", "2000007"])
    let mutes = try await tweets.run(["mutes", "--limit", "2", "--format", "jsonl"])
    #expect(mutes.status == 0, "\(mutes.stderr)")
    #expect(try Self.ids(mutes.stdout) == ["2000021", "2000014"], "the most recent two")
    let table = try await tweets.run(["mutes"])
    #expect(table.status == 0 && table.stdout.contains("fan_0003"), "\(table.stdout)")

    // Owned reads: $0.001 an account, each once a UTC day (2 blocks, 3 mutes).
    let after = try await server.billing().spent
    #expect(USDText(after).micros - USDText(before).micros == 5000, "the sandbox charged \(before) then \(after)")
    let usage = try await tweets.run(["usage", "--format", "json"])
    let report = try usage.json() as? [String: Any] ?? [:]
    #expect(USDText(report["spent_this_cycle"] as? String ?? "?") == USDText(after), "\(usage.stdout)")

    let usageError = try await tweets.run(["blocks", "someone"])
    #expect(usageError.status == 2 && usageError.stderr.contains("unexpected argument"), "\(usageError.stderr)")
  }

  @Test("with OAuth 2.0 and without block.read or mute.read, X's 403 is explained with the scopes and the login that asks for them")
  func withoutTheScopes() async throws {
    let server = try await VerifiedSandbox.start(tweetsPerUser: 20)
    let tweets = try TweetsRunner(server: server)
    try await BookmarksCommandTests().login(tweets, scopes: "tweet.read users.read offline.access")
    for (command, scope) in [("blocks", "block.read"), ("mutes", "mute.read")] {
      let refused = try await tweets.run([command])
      #expect(refused.status != 0, "\(command)")
      #expect(
        refused.stderr.contains("403") && refused.stderr.contains(scope) && refused.stderr.contains("tweets login --oauth2"), "\(refused.stderr)")
    }
    try await BookmarksCommandTests().login(tweets, scopes: "tweet.read users.read block.read mute.read offline.access")
    let blocks = try await tweets.run(["blocks", "--format", "jsonl"])
    #expect(blocks.status == 0, "\(blocks.stderr)")
    #expect(try Self.ids(blocks.stdout) == ["2000013", "2000007"])
  }
}
