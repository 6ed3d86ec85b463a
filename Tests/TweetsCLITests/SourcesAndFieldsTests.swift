import Foundation
import TestSupport
import Testing

/// Every field and every source, as processes against the fake X API, which sends what X's
/// documentation shows, only for the fields and expansions asked.
@Suite("tweets: every field, every source", .tags(.peers, .processes), .tier(.peers), .serialized)
struct SourcesAndFieldsTests {
  static func objects(_ result: ProcessResult) throws -> [[String: Any]] {
    try result.stdout.split(separator: "\n").map { line in
      try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
  }

  @Test("Replies, quotes, retweets, media, links, edits and sensitivity arrive whole")
  func everyField() throws {
    let tweets = try TweetsRunner(server: try FakeXAPI())
    try tweets.loginWithTokens()
    // A2 retweets, A3 has a photo, A9 quotes, A14 was edited, B4 is a sensitive video, A12 has links and hashtags, A4 replies.
    let ids = [
      "1799999999999998000", "1799999999999996000", "1799999999999984000", "1799999999999974000", "1799999999999987000",
      "1799999999999978000", "1799999999999994000",
    ]
    let result = try tweets.run(["show"] + ids + ["--format", "jsonl"])
    #expect(result.status == 0, "\(result.stderr)")
    let byID = Dictionary(uniqueKeysWithValues: try Self.objects(result).map { ($0["id"] as? String ?? "", $0) })
    func references(_ id: String) -> [[String: Any]] { byID[id]?["referenced_tweets"] as? [[String: Any]] ?? [] }

    let retweet = try #require(references(ids[0]).first)
    #expect(retweet["type"] as? String == "retweeted" && (retweet["tweet"] as? [String: Any])?["text"] != nil)
    let photo = try #require((byID[ids[1]]?["media"] as? [[String: Any]])?.first)
    #expect(photo["type"] as? String == "photo" && photo["alt_text"] != nil && (photo["url"] as? String)?.hasPrefix("https://") == true)
    #expect(references(ids[2]).first?["type"] as? String == "quoted")
    #expect(byID[ids[3]]?["edit_history_tweet_ids"] as? [String] == ["1799999999999973500", "1799999999999974000"])
    #expect(byID[ids[4]]?["possibly_sensitive"] as? Bool == true)
    #expect(((byID[ids[4]]?["media"] as? [[String: Any]])?.first?["type"] as? String) == "video")
    let entities = try #require(byID[ids[5]]?["entities"] as? [String: Any])
    #expect((entities["hashtags"] as? [String])?.contains("SwiftLang") == true)
    #expect(((entities["urls"] as? [[String: Any]])?.count ?? 0) == 2)
    #expect(references(ids[6]).first?["type"] as? String == "replied_to" && byID[ids[6]]?["in_reply_to_user_id"] != nil)
    #expect(byID[ids[6]]?["conversation_id"] as? String == "1799999999999964000")

    // --fields and --expansions replace the defaults: only what is asked comes.
    let lean = try tweets.run(["show", ids[1], "--format", "jsonl", "--fields", "created_at,lang", "--expansions", "author_id"])
    let object = try #require(try Self.objects(lean).first)
    #expect(object["lang"] != nil && object["media"] == nil && object["metrics"] == nil, "\(object.keys)")
    let refused = try tweets.run(["show", ids[1], "--fields", "lang,", "--format", "jsonl"])
    #expect(refused.status == 2)
  }

  @Test("Mentions, likes, quotes, a conversation, a list")
  func tweetSources() throws {
    let tweets = try TweetsRunner(server: try FakeXAPI())
    try tweets.loginWithTokens()
    let counts: [([String], Int)] = [
      (["mentions", "swift_fixture"], 12), (["mentions"], 12), (["liked", "swift_fixture"], 28), (["quotes", "1799999999999952000"], 12),
      (["list", "1500"], 80), (["conversation", "1799999999999964000"], 3),
    ]
    for (command, expected) in counts {
      let result = try tweets.run(command + ["--all", "--format", "jsonl"])
      #expect(result.status == 0, "\(command): \(result.stderr)")
      let objects = try Self.objects(result)
      #expect(objects.count == expected, "\(command): \(objects.count) tweets")
      #expect(Set(objects.compactMap { $0["id"] as? String }).count == objects.count)
      if command[0] == "quotes" {
        #expect(
          objects.allSatisfy { ($0["referenced_tweets"] as? [[String: Any]])?.contains { $0["id"] as? String == "1799999999999952000" } == true })
      }
      if command[0] == "conversation" {
        #expect(objects.allSatisfy { $0["conversation_id"] as? String == "1799999999999964000" })
      }
    }
    // v2 only, and X's liked tweets have no window: the options are not theirs.
    let v1 = try tweets.run(["mentions", "--api", "1.1"])
    #expect(v1.status == 2 && v1.stderr.contains("tweets mentions does not take --api"), "\(v1.stderr)")
    let window = try tweets.run(["liked", "--start-time", "2024-01-01"])
    #expect(window.status == 2 && window.stderr.contains("tweets liked does not take --start-time"), "\(window.stderr)")
    let mentionsWindow = try tweets.run(["mentions", "--start-time", "2020-01-01", "--all", "--format", "jsonl"])
    #expect(mentionsWindow.status == 0, "\(mentionsWindow.stderr)")
  }

  @Test("Followers and following as users, in every format, and raw pages")
  func users() throws {
    let tweets = try TweetsRunner(server: try FakeXAPI())
    try tweets.loginWithTokens()
    let followers = try Self.objects(try tweets.run(["followers", "swift_fixture", "--all", "--format", "jsonl"]))
    #expect(followers.count == 230 && Set(followers.compactMap { $0["id"] as? String }).count == 230)
    #expect(followers.allSatisfy { $0["username"] is String && ($0["metrics"] as? [String: Any])?["followers"] != nil })
    #expect(try Self.objects(try tweets.run(["following", "oauth_friend", "--all", "--format", "jsonl"])).count == 56)

    let csv = try tweets.run(["followers", "swift_fixture", "--limit", "3", "--format", "csv"])
    let rows = csv.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }
    #expect(rows.first == "id,username,name,created_at,followers,following,tweets,listed,verified,protected,location,description")
    #expect(rows.count == 4)
    let text = try tweets.run(["following", "swift_fixture", "--limit", "2"])
    #expect(text.status == 0 && text.stdout.contains("@") && text.stdout.contains(" followers · "))

    // 1,234 followers: two pages of at most 1,000, each written as X sent it.
    let raw = try tweets.run(["followers", "oauth_friend", "--all", "--format", "raw"])
    let pages = try Self.objects(raw)
    #expect(pages.count == 2)
    #expect(pages.reduce(0) { $0 + (($1["data"] as? [Any])?.count ?? 0) } == 1234)

    let lookup = try tweets.run(["users", "swift_fixture", "1002", "@nosuchuser1", "--format", "jsonl"])
    #expect(lookup.status == 4, "\(lookup.stderr)")
    #expect(try Self.objects(lookup).compactMap { $0["username"] as? String } == ["swift_fixture", "oauth_friend"])
    #expect(lookup.stderr.contains("nosuchuser1"))
    let invalid = try tweets.run(["users", "this_name_is_too_long"])
    #expect(invalid.status == 2 && invalid.stderr.contains("not a username"))
  }

  @Test("Counts and full-archive search are app-only; the archive needs an access tier")
  func appOnly() throws {
    let tweets = try TweetsRunner(server: try FakeXAPI())
    try tweets.loginWithTokens()
    let noToken = try tweets.run(["counts", "from:swift_fixture"])
    #expect(noToken.status == 3 && noToken.stderr.contains("set X_BEARER_TOKEN"))
    let bearer = ["X_BEARER_TOKEN": FakeXAPI.bearerToken]
    let counts = try tweets.run(["counts", "from:oauth_friend", "--granularity", "day", "--format", "csv"], environment: bearer)
    #expect(counts.status == 0, "\(counts.stderr)")
    let total = counts.stdout.components(separatedBy: "\r\n").dropFirst().filter { !$0.isEmpty }.compactMap {
      Int($0.split(separator: ",").last ?? "")
    }
    .reduce(0, +)
    let search = try tweets.run(["search", "from:oauth_friend", "--all", "--format", "jsonl"])
    #expect(total == search.stdout.split(separator: "\n").count && total > 0)

    let archive = try tweets.run(["search", "from:oauth_friend", "--archive"], environment: bearer)
    #expect(archive.status == 3)
    #expect(archive.stderr.contains("full-archive search (/2/tweets/search/all) needs X API Pro or Enterprise access"), "\(archive.stderr)")
  }
}
