import Foundation
import TestSupport
import Testing

/// `tweets lists …` as processes against the sandbox over loopback (every request checked by
/// oauthlib, every answer against X's specification when the sandbox stops): the reads in
/// every format, paging to a file and the archive of members; the whole management of a list;
/// what X bills (and that X's unpriced list writes are refused under --max-cost); the 403 of an
/// OAuth 2.0 token without list.write.
@Suite("tweets lists against the sandbox", .sandboxChecks, .serialized, .tags(.peers, .processes), .tier(.peers, .processes))
struct ListsCommandTests {
  /// The value of `key` on each JSON line of `output`.
  static func values(_ output: String, _ key: String = "id") throws -> [String] {
    try output.split(separator: "\n").map { line in
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      return try #require(object?[key] as? String, "\(line.prefix(80))")
    }
  }

  @Test("show, owned, followed, memberships, pinned, members and followers; --output, --db, csv")
  func reads() async throws {
    let server = try await VerifiedSandbox.start(tweetsPerUser: 20)
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()

    let shown = try await tweets.run(["lists", "show", "1500", "1501", "--format", "jsonl"])
    #expect(shown.status == 0, "\(shown.stderr)")
    #expect(try Self.values(shown.stdout, "name") == ["Swift and OAuth", "Swift on Linux"])
    #expect(shown.stdout.contains("\"member_count\":2") && shown.stdout.contains("\"owner_id\":\"1002\""), "\(shown.stdout)")
    let owned = try await tweets.run(["lists", "owned", "--format", "jsonl"])
    #expect(try Self.values(owned.stdout) == ["1502", "1500"], "the private one too: it is the caller's \(owned.stderr)")
    let othersOwned = try await tweets.run(["lists", "owned", "swift_lang", "--format", "jsonl"])
    #expect(try Self.values(othersOwned.stdout) == ["1501"], "\(othersOwned.stderr)")
    let followed = try await tweets.run(["lists", "followed", "--format", "csv"])
    #expect(followed.status == 0 && followed.stdout.contains("1501,Swift on Linux,1002,false,3,2,"), "\(followed.stdout)\(followed.stderr)")
    let memberships = try await tweets.run(["lists", "memberships", "--format", "jsonl"])
    #expect(try Self.values(memberships.stdout) == ["1501"])
    let pinned = try await tweets.run(["lists", "pinned"])
    #expect(pinned.status == 0 && pinned.stdout.hasPrefix("Swift and OAuth\n"), "\(pinned.stdout)\(pinned.stderr)")

    let file = tweets.configDirectory.appendingPathComponent("members.jsonl")
    let members = try await tweets.run(["lists", "members", "1501", "--all", "--format", "jsonl", "--output", file.path])
    #expect(members.status == 0, "\(members.stderr)")
    #expect(try Self.values(String(contentsOf: file, encoding: .utf8)) == ["1001", "2000014", "2000007"])
    let archive = tweets.configDirectory.appendingPathComponent("followers.sqlite")
    let followers = try await tweets.run(["lists", "followers", "1500", "--db", archive.path])
    #expect(followers.status == 0 && FileManager.default.fileExists(atPath: archive.path), "\(followers.stderr)")

    let noDB = try await tweets.run(["lists", "owned", "--db", archive.path])
    #expect(noDB.status == 2 && noDB.stderr.contains("--db stores posts and users"), "\(noDB.stderr)")
    let unknown = try await tweets.run(["lists", "frobnicate"])
    #expect(unknown.status == 2 && unknown.stderr.contains("tweets lists show|owned"), "\(unknown.stderr)")
    let notAnID = try await tweets.run(["lists", "members", "swift"])
    #expect(notAnID.status == 2 && notAnID.stderr.contains("is not a list id"), "\(notAnID.stderr)")
    let missing = try await tweets.run(["lists", "show", "999"])
    #expect(missing.status != 0 && missing.stderr.contains("Could not find list with id: [999]"), "\(missing.stderr)")
  }

  @Test("create, update, add, remove, follow, pin, unpin, unfollow, delete: each shows in the reads; list ID's posts follow its members")
  func management() async throws {
    let server = try await VerifiedSandbox.start(tweetsPerUser: 20, credits: "10.00")
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()

    let created = try await tweets.run(["lists", "create", "Swift folks", "--description", "People who write Swift", "--private"])
    #expect(created.status == 0 && created.stdout == "Created list 1503 (Swift folks).\n", "\(created.stdout)\(created.stderr)")
    let updated = try await tweets.run(["lists", "update", "1503", "--name", "Swift friends", "--public"])
    #expect(updated.status == 0 && updated.stdout == "Updated list 1503.\n", "\(updated.stderr)")
    let added = try await tweets.run(["lists", "add", "1503", "@swift_lang", "2000014"])
    #expect(added.status == 0 && added.stdout == "Added @swift_lang to list 1503.\nAdded 2000014 to list 1503.\n", "\(added.stderr)")
    let shown = try await tweets.run(["lists", "show", "1503", "--format", "jsonl"])
    #expect(shown.stdout.contains("\"name\":\"Swift friends\"") && shown.stdout.contains("\"private\":false"), "\(shown.stdout)")
    #expect(shown.stdout.contains("\"member_count\":2"), "\(shown.stdout)")
    let posts = try await tweets.run(["list", "1503", "--limit", "5", "--format", "jsonl"])
    #expect(posts.status == 0 && posts.stdout.contains("\"username\":\"swift_lang\""), "\(posts.stdout.prefix(300))\(posts.stderr)")
    let removed = try await tweets.run(["lists", "remove", "1503", "swift_lang"])
    #expect(removed.status == 0 && removed.stdout == "Removed swift_lang from list 1503.\n", "\(removed.stderr)")
    let members = try await tweets.run(["lists", "members", "1503", "--format", "jsonl"])
    #expect(try Self.values(members.stdout) == ["2000014"])

    for (action, said) in [("follow", "Followed"), ("pin", "Pinned")] {
      let done = try await tweets.run(["lists", action, "1501"])
      #expect(done.status == 0 && done.stdout == "\(said) list 1501.\n", "\(action): \(done.stderr)")
    }
    #expect(try Self.values(try await tweets.run(["lists", "pinned", "--format", "jsonl"]).stdout) == ["1501", "1500"])
    for (action, said) in [("unpin", "Unpinned"), ("unfollow", "Unfollowed")] {
      let done = try await tweets.run(["lists", action, "1501"])
      #expect(done.status == 0 && done.stdout == "\(said) list 1501.\n", "\(action): \(done.stderr)")
    }
    #expect(try Self.values(try await tweets.run(["lists", "followed", "--format", "jsonl"]).stdout).isEmpty)
    let deleted = try await tweets.run(["lists", "delete", "1503"])
    #expect(deleted.status == 0 && deleted.stdout == "Deleted list 1503.\n", "\(deleted.stderr)")
    #expect(try Self.values(try await tweets.run(["lists", "owned", "--format", "jsonl"]).stdout) == ["1502", "1500"])

    let notOwner = try await tweets.run(["lists", "delete", "1501"])
    #expect(notOwner.status != 0 && notOwner.stderr.contains("403"), "@swift_lang's list: \(notOwner.stderr)")
    // X names no price for managing a list: under a spending limit it is refused before it is sent.
    let capped = try await tweets.run(["lists", "create", "Capped", "--max-cost", "1.00"])
    #expect(capped.status == 7, "\(capped.stdout)\(capped.stderr)")
    #expect(try Self.values(try await tweets.run(["lists", "owned", "--format", "jsonl"]).stdout) == ["1502", "1500"])

    // The ledger agrees with what the sandbox charged (follows and pins per request, reads per list and user).
    let charged = try await server.billing().spent
    let usage = try await tweets.run(["usage", "--format", "json"])
    let report = try usage.json() as? [String: Any] ?? [:]
    #expect(USDText(report["spent_this_cycle"] as? String ?? "?") == USDText(charged), "the sandbox charged \(charged): \(usage.stdout)")
  }

  @Test("with OAuth 2.0 and list.read only, a list write is X's 403, explained with list.write and the login")
  func withoutListWrite() async throws {
    let server = try await VerifiedSandbox.start(tweetsPerUser: 20)
    let tweets = try TweetsRunner(server: server)
    try await BookmarksCommandTests().login(tweets, scopes: "tweet.read users.read list.read offline.access")
    let read = try await tweets.run(["lists", "show", "1500", "--format", "jsonl"])
    #expect(read.status == 0, "\(read.stderr)")
    let refused = try await tweets.run(["lists", "create", "Nope"])
    #expect(refused.status != 0 && refused.stderr.contains("403") && refused.stderr.contains("list.write"), "\(refused.stderr)")
    #expect(refused.stderr.contains("tweets login --oauth2"), "\(refused.stderr)")
  }
}
