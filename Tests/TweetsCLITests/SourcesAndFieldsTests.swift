import Foundation
import TestSupport
import Testing

/// Every field and every source, as processes against the X sandbox over loopback, which sends
/// what X's documentation shows, only for the fields and expansions asked. The ids follow from
/// the sandbox's fixtures (`SandboxData`): the n-th newest tweet of @sandbox_user (A) is index
/// 2(n-1), @swift_lang's (B) 4(n-1)+1, @oauth_fan's (C) 4(n-1)+3, and an id is
/// 1800000000000000000 - 1000 × index.
@Suite("tweets: every field, every source", .sandboxChecks, .tags(.peers, .processes), .tier(.peers), .serialized)
struct SourcesAndFieldsTests {
  static func objects(_ result: ProcessResult) throws -> [[String: Any]] {
    try result.stdout.split(separator: "\n").map { line in
      try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
  }

  @Test("Replies, quotes, retweets, media, links, edits and sensitivity arrive whole")
  func everyField() async throws {
    let tweets = try TweetsRunner(server: try await VerifiedSandbox.start())
    try await tweets.loginWithTokens()
    // A9 retweets, A3 has a photo, A4 quotes, A2 was edited, B4 is a sensitive video, A10 has a link and a hashtag, A5 replies.
    let ids = [
      "1799999999999984000", "1799999999999996000", "1799999999999994000", "1799999999999998000", "1799999999999987000",
      "1799999999999982000", "1799999999999992000",
    ]
    let result = try await tweets.run(["show"] + ids + ["--format", "jsonl"])
    #expect(result.status == 0, "\(result.stderr)")
    let byID = Dictionary(uniqueKeysWithValues: try Self.objects(result).map { ($0["id"] as? String ?? "", $0) })
    func references(_ id: String) -> [[String: Any]] { byID[id]?["referenced_tweets"] as? [[String: Any]] ?? [] }

    let retweet = try #require(references(ids[0]).first)
    #expect(retweet["type"] as? String == "retweeted" && (retweet["tweet"] as? [String: Any])?["text"] != nil)
    let photo = try #require((byID[ids[1]]?["media"] as? [[String: Any]])?.first)
    #expect(
      photo["type"] as? String == "photo" && photo["alt_text"] != nil
        && (photo["url"] as? String).flatMap(URL.init(string:))?.path.hasPrefix("/pbs.twimg.com/media/") == true)
    #expect(references(ids[2]).first?["type"] as? String == "quoted")
    #expect(byID[ids[3]]?["edit_history_tweet_ids"] as? [String] == ["1799999999999997500", "1799999999999998000"])
    #expect(byID[ids[4]]?["possibly_sensitive"] as? Bool == true)
    #expect(((byID[ids[4]]?["media"] as? [[String: Any]])?.first?["type"] as? String) == "video")
    let entities = try #require(byID[ids[5]]?["entities"] as? [String: Any])
    #expect((entities["hashtags"] as? [String])?.contains("localfirst") == true)
    #expect(((entities["urls"] as? [[String: Any]])?.count ?? 0) == 1)
    #expect(references(ids[6]).first?["type"] as? String == "replied_to" && byID[ids[6]]?["in_reply_to_user_id"] != nil)
    #expect(byID[ids[6]]?["conversation_id"] as? String == "1799999999999987000")

    // --fields and --expansions replace the defaults: only what is asked comes.
    let lean = try await tweets.run(["show", ids[1], "--format", "jsonl", "--fields", "created_at,lang", "--expansions", "author_id"])
    let object = try #require(try Self.objects(lean).first)
    #expect(object["lang"] != nil && object["media"] == nil && object["metrics"] == nil, "\(object.keys)")
    let refused = try await tweets.run(["show", ids[1], "--fields", "lang,", "--format", "jsonl"])
    #expect(refused.status == 2)
  }

  @Test("Mentions, likes, quotes, a conversation, a list")
  func tweetSources() async throws {
    let tweets = try TweetsRunner(server: try await VerifiedSandbox.start())
    try await tweets.loginWithTokens()
    // With 250 tweets each: @sandbox_user is mentioned by 10 replies (C1 and B1 to A5, C13-C20 to
    // A40-A47) and C7's retweet of A15; it liked every third of the others' 500 (84 + 84); A25 is
    // quoted by B7-B12 and C8-C12; list 1500 holds @swift_lang's and @oauth_fan's 500; B4's
    // conversation is A5, C1 and B1.
    let counts: [([String], Int)] = [
      (["mentions", "sandbox_user"], 11), (["mentions"], 11), (["liked", "sandbox_user"], 168), (["quotes", "1799999999999952000"], 11),
      (["list", "1500"], 500), (["conversation", "1799999999999987000"], 3),
    ]
    for (command, expected) in counts {
      let result = try await tweets.run(command + ["--all", "--format", "jsonl"])
      #expect(result.status == 0, "\(command): \(result.stderr)")
      let objects = try Self.objects(result)
      #expect(objects.count == expected, "\(command): \(objects.count) tweets")
      #expect(Set(objects.compactMap { $0["id"] as? String }).count == objects.count)
      if command[0] == "quotes" {
        #expect(
          objects.allSatisfy { ($0["referenced_tweets"] as? [[String: Any]])?.contains { $0["id"] as? String == "1799999999999952000" } == true })
      }
      if command[0] == "conversation" {
        #expect(objects.allSatisfy { $0["conversation_id"] as? String == "1799999999999987000" })
      }
    }
    // v2 only, and X's liked tweets have no window: the options are not theirs.
    let v1 = try await tweets.run(["mentions", "--api", "1.1"])
    #expect(v1.status == 2 && v1.stderr.contains("tweets mentions does not take --api"), "\(v1.stderr)")
    let window = try await tweets.run(["liked", "--start-time", "2024-01-01"])
    #expect(window.status == 2 && window.stderr.contains("tweets liked does not take --start-time"), "\(window.stderr)")
    let mentionsWindow = try await tweets.run(["mentions", "--start-time", "2020-01-01", "--all", "--format", "jsonl"])
    #expect(mentionsWindow.status == 0, "\(mentionsWindow.stderr)")
  }

  @Test("Followers and following as users, in every format, and raw pages")
  func users() async throws {
    let tweets = try TweetsRunner(server: try await VerifiedSandbox.start())
    try await tweets.loginWithTokens()
    let followers = try Self.objects(try await tweets.run(["followers", "sandbox_user", "--all", "--format", "jsonl"]))
    #expect(followers.count == 230 && Set(followers.compactMap { $0["id"] as? String }).count == 230)
    #expect(followers.allSatisfy { $0["username"] is String && ($0["metrics"] as? [String: Any])?["followers"] != nil })
    #expect(try await Self.objects(try tweets.run(["following", "swift_lang", "--all", "--format", "jsonl"])).count == 56)
    let csv = try await tweets.run(["followers", "sandbox_user", "--limit", "3", "--format", "csv"])
    let rows = csv.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }
    #expect(rows.first == "id,username,name,created_at,followers,following,tweets,listed,verified,protected,location,description")
    #expect(rows.count == 4)
    let text = try await tweets.run(["following", "sandbox_user", "--limit", "2"])
    #expect(text.status == 0 && text.stdout.contains("@") && text.stdout.contains(" followers · "))

    // 1,234 followers: two pages of at most 1,000, each written as X sent it.
    let raw = try await tweets.run(["followers", "swift_lang", "--all", "--format", "raw"])
    let pages = try Self.objects(raw)
    #expect(pages.count == 2)
    #expect(pages.reduce(0) { $0 + (($1["data"] as? [Any])?.count ?? 0) } == 1234)

    let lookup = try await tweets.run(["users", "sandbox_user", "1002", "@nosuchuser1", "--format", "jsonl"])
    #expect(lookup.status == 4, "\(lookup.stderr)")
    #expect(try Self.objects(lookup).compactMap { $0["username"] as? String } == ["sandbox_user", "swift_lang"])
    #expect(lookup.stderr.contains("nosuchuser1"))
    let invalid = try await tweets.run(["users", "this_name_is_too_long"])
    #expect(invalid.status == 2 && invalid.stderr.contains("not a username"))
  }

  @Test("Counts and full-archive search are app-only; the archive needs an access tier")
  func appOnly() async throws {
    let tweets = try TweetsRunner(server: try await VerifiedSandbox.start())
    try await tweets.loginWithTokens()
    // No X_BEARER_TOKEN: the profile's consumer key and secret obtain the app's token.
    let fromTheProfile = try await tweets.run(["counts", "from:sandbox_user"])
    #expect(fromTheProfile.status == 0, "\(fromTheProfile.stderr)")
    // No token and no consumer: refused, saying both ways to give one.
    let bare = try await tweets.run(["counts", "from:sandbox_user", "--profile", "nobody"])
    #expect(bare.status == 3 && bare.stderr.contains("set X_BEARER_TOKEN") && bare.stderr.contains("X_CONSUMER_KEY"), "\(bare.stderr)")
    let bearer = ["X_BEARER_TOKEN": VerifiedSandbox.bearerToken]
    let counts = try await tweets.run(["counts", "from:swift_lang", "--granularity", "day", "--format", "csv"], environment: bearer)
    #expect(counts.status == 0, "\(counts.stderr)")
    let total = counts.stdout.components(separatedBy: "\r\n").dropFirst().filter { !$0.isEmpty }.compactMap {
      Int($0.split(separator: ",").last ?? "")
    }
    .reduce(0, +)
    let search = try await tweets.run(["search", "from:swift_lang", "--all", "--format", "jsonl"])
    #expect(total == search.stdout.split(separator: "\n").count && total > 0)

    let archive = try await tweets.run(["search", "from:swift_lang", "--archive"], environment: bearer)
    #expect(archive.status == 3)
    #expect(archive.stderr.contains("full-archive search (/2/tweets/search/all) needs X API Pro or Enterprise access"), "\(archive.stderr)")
  }
}
