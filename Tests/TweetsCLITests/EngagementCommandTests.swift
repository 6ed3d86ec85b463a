import Foundation
import TestSupport
import Testing

/// `tweets likers`, `tweets reposters`, `tweets reposts` and `tweets reposts-of-me` as
/// processes against the sandbox over loopback (every answer checked against X's
/// specification when the sandbox stops), and what X bills for them.
@Suite(
  "tweets likers, reposters, reposts and reposts-of-me against the sandbox", .sandboxChecks, .serialized, .tags(.peers, .processes),
  .tier(.peers, .processes))
struct EngagementCommandTests {
  /// Each JSON line of `output`, parsed.
  static func records(_ output: String) throws -> [[String: Any]] {
    try output.split(separator: "\n").map { line in
      try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line.prefix(80))")
    }
  }

  @Test("a repost of one of your posts, found four ways; likers of a post you liked; every format, --output, --db")
  func engagement() async throws {
    let server = try await VerifiedSandbox.start(tweetsPerUser: 20, credits: "10.00")
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()

    // @oauth_fan reposted @sandbox_user's 15th post.
    let mine = try await tweets.run(["reposts-of-me", "--format", "jsonl"])
    #expect(mine.status == 0, "\(mine.stderr)")
    let repost = try #require(try Self.records(mine.stdout).first, "\(mine.stdout)")
    #expect((repost["author"] as? [String: Any])?["username"] as? String == "oauth_fan")
    let reference = try #require((repost["referenced_tweets"] as? [[String: Any]])?.first)
    #expect(reference["type"] as? String == "retweeted")
    let original = try #require(reference["id"] as? String)
    let repostID = try #require(repost["id"] as? String)

    let reposts = try await tweets.run(["reposts", original, "--format", "jsonl"])
    #expect(reposts.status == 0, "\(reposts.stderr)")
    #expect(try Self.records(reposts.stdout).compactMap { $0["id"] as? String } == [repostID])
    let reposters = try await tweets.run(["reposters", original, "--format", "csv"])
    #expect(reposters.status == 0 && reposters.stdout.split(whereSeparator: \.isNewline).count == 2, "a header and @oauth_fan: \(reposters.stdout)")
    #expect(reposters.stdout.contains("1003,oauth_fan,OAuth Fan"), "\(reposters.stdout)")

    // A post @sandbox_user liked: @sandbox_user is among its likers.
    let liked = try await tweets.run(["liked", "--limit", "5", "--format", "jsonl"])
    let likedPost = try #require(try Self.records(liked.stdout).first?["id"] as? String, "\(liked.stderr)")
    let file = tweets.configDirectory.appendingPathComponent("likers.jsonl")
    let likers = try await tweets.run(["likers", likedPost, "--all", "--format", "jsonl", "--output", file.path])
    #expect(likers.status == 0, "\(likers.stderr)")
    let likerIDs = try Self.records(String(contentsOf: file, encoding: .utf8)).compactMap { $0["id"] as? String }
    #expect(likerIDs.contains("1001"), "\(likerIDs)")
    let archive = tweets.configDirectory.appendingPathComponent("engagement.sqlite")
    let stored = try await tweets.run(["reposts", original, "--db", archive.path])
    #expect(stored.status == 0 && FileManager.default.fileExists(atPath: archive.path), "\(stored.stderr)")

    let unknown = try await tweets.run(["likers", "123", "--format", "jsonl"])
    #expect(unknown.stdout.isEmpty && unknown.stderr.contains("Could not find tweet with id: [123]"), "\(unknown.stdout)\(unknown.stderr)")
    let notAnID = try await tweets.run(["reposters", "abc"])
    #expect(notAnID.status == 2 && notAnID.stderr.contains("is not a post id"), "\(notAnID.stderr)")

    // What the sandbox charged, the ledger recorded.
    let charged = try await server.billing().spent
    let usage = try await tweets.run(["usage", "--format", "json"])
    let report = try usage.json() as? [String: Any] ?? [:]
    #expect(USDText(report["spent_this_cycle"] as? String ?? "?") == USDText(charged), "the sandbox charged \(charged): \(usage.stdout)")
  }

  @Test("with OAuth 2.0 and without like.read or timeline.read, X's 403 names the scope")
  func withoutTheScopes() async throws {
    let server = try await VerifiedSandbox.start(tweetsPerUser: 20)
    let tweets = try TweetsRunner(server: server)
    try await BookmarksCommandTests().login(tweets, scopes: "tweet.read users.read offline.access")
    for (arguments, scope) in [(["likers", "1800000000000000000"], "like.read"), (["reposts-of-me"], "timeline.read")] {
      let refused = try await tweets.run(arguments)
      #expect(refused.status != 0, "\(arguments)")
      #expect(refused.stderr.contains("403") && refused.stderr.contains(scope), "\(refused.stderr)")
    }
    let reposters = try await tweets.run(["reposters", "1800000000000000000"])
    #expect(reposters.status == 0, "no scope beyond tweet.read and users.read: \(reposters.stderr)")
  }
}
