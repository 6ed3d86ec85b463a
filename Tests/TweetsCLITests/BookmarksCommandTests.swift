import Foundation
import TestSupport
import Testing

/// `tweets bookmarks` and `tweets bookmark add|remove` as processes against the sandbox over
/// loopback, logged in with OAuth 2.0 (the authorization code, through a scripted browser) with
/// the scopes X requires, and without them.
@Suite("tweets bookmarks against the sandbox", .sandboxChecks, .serialized, .tags(.peers, .processes), .tier(.peers, .processes))
struct BookmarksCommandTests {
  /// `tweets login --oauth2` asking for `scopes`.
  func login(_ tweets: TweetsRunner, scopes: String) async throws {
    let port = try LoopbackServer.freePort()
    let browser = "python3 '\(PackagePaths.peers.appendingPathComponent("browser.py").path)'"
    let login = try await tweets.run(
      [
        "login", "--oauth2", "--client-id", "sandbox-client-id", "--redirect-uri", "http://127.0.0.1:\(port)/callback", "--authorize-url",
        tweets.server.baseURL.appendingPathComponent("i/oauth2/authorize").absoluteString, "--scopes", scopes,
      ], environment: ["BROWSER": browser])
    try #require(login.status == 0 && login.stdout.contains("X granted: \(scopes)"), "\(login.stdout)\(login.stderr)")
  }

  /// The ids of the JSON lines of `output`.
  static func ids(_ output: String) throws -> [String] {
    try output.split(separator: "\n").map { line in
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      return try #require(object?["id"] as? String, "\(line.prefix(80))")
    }
  }

  @Test("list, --all to a file, --db, folders and a folder's posts; add and remove, with bookmark.read and bookmark.write")
  func bookmarksWithTheScopes() async throws {
    let server = try await VerifiedSandbox.start(tweetsPerUser: 20)
    let tweets = try TweetsRunner(server: server)
    try await login(tweets, scopes: "tweet.read users.read bookmark.read bookmark.write offline.access")

    let listed = try await tweets.run(["bookmarks", "--format", "jsonl"])
    #expect(listed.status == 0, "\(listed.stderr)")
    let seeded = try Self.ids(listed.stdout)
    #expect(seeded.count == 5, "the demo user's five bookmarks: \(listed.stdout)")

    let file = tweets.configDirectory.appendingPathComponent("bookmarks.jsonl")
    let saved = try await tweets.run(["bookmarks", "--all", "--format", "jsonl", "--output", file.path])
    #expect(saved.status == 0, "\(saved.stderr)")
    #expect(try Self.ids(String(contentsOf: file, encoding: .utf8)) == seeded)
    let archive = tweets.configDirectory.appendingPathComponent("bookmarks.sqlite")
    let archived = try await tweets.run(["bookmarks", "--db", archive.path])
    #expect(archived.status == 0 && FileManager.default.fileExists(atPath: archive.path), "\(archived.stderr)")

    let folders = try await tweets.run(["bookmarks", "--folders"])
    #expect(folders.status == 0 && folders.stdout == "1940000000000000001  Read later\n", "\(folders.stdout)\(folders.stderr)")
    let folder = try await tweets.run(["bookmarks", "--folder", "1940000000000000001", "--format", "jsonl"])
    #expect(folder.status == 0, "\(folder.stderr)")
    #expect(try Self.ids(folder.stdout) == Array(seeded.prefix(2)))

    let timeline = try await tweets.run(["timeline", "--limit", "20", "--format", "jsonl"])
    let post = try #require(try Self.ids(timeline.stdout).first { !seeded.contains($0) }, "\(timeline.stderr)")
    let added = try await tweets.run(["bookmark", "add", post])
    #expect(added.status == 0 && added.stdout == "Bookmarked \(post).\n", "\(added.stderr)")
    #expect(try await Self.ids(try tweets.run(["bookmarks", "--format", "jsonl"]).stdout) == [post] + seeded, "the newest bookmark first")
    let removed = try await tweets.run(["bookmark", "remove", post])
    #expect(removed.status == 0 && removed.stdout == "Removed the bookmark of \(post).\n", "\(removed.stderr)")
    #expect(try await Self.ids(try tweets.run(["bookmarks", "--format", "jsonl"]).stdout) == seeded)

    let usage = try await tweets.run(["bookmark", "keep", post])
    #expect(usage.status == 2 && usage.stderr.contains("tweets bookmark add|remove ID"))
  }

  @Test("without bookmark.read or bookmark.write X answers 403, and tweets names the scopes and tweets login --oauth2")
  func withoutTheScopes() async throws {
    let server = try await VerifiedSandbox.start(tweetsPerUser: 20)
    let tweets = try TweetsRunner(server: server)
    try await login(tweets, scopes: "tweet.read users.read offline.access")
    for arguments in [["bookmarks"], ["bookmarks", "--folders"], ["bookmark", "add", "1799999999999999000"]] {
      let refused = try await tweets.run(arguments)
      #expect(refused.status != 0, "\(arguments)")
      #expect(
        refused.stderr.contains("403") && refused.stderr.contains("bookmark.read") && refused.stderr.contains("tweets login --oauth2"),
        "\(arguments): \(refused.stderr)")
    }
  }
}
