import Foundation
import TestSupport
import Testing

/// The built `tweets` binary as a process against the X sandbox over loopback HTTP (behind the oauthlib proxy).
@Suite("tweets, end to end", .sandboxChecks, .tags(.peers, .processes), .tier(.peers, .processes))
struct TweetsCommandTests {
  @Test func pinLoginOnStandardInputThenWhoami() async throws {
    let server = try await VerifiedSandbox.start()
    let tweets = try TweetsRunner(server: server)
    let login = try tweets.interactive(["login"] + tweets.consumer)
    #expect(await login.waitForError(containing: "PIN: "), "stderr: \(login.stderr)")
    let url = try #require(
      login.stderr.split(separator: "\n").first { $0.contains("/oauth/authorize?oauth_token=") }.map { $0.trimmingCharacters(in: .whitespaces) })
    let page = try await server.browse(try #require(URL(string: url)))
    let pin = try #require(page.firstMatch(of: /<code id="oauth_pin">(\d{7})<\/code>/)?.1)
    login.send(String(pin))
    let result = await login.wait()
    tweets.record(result)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("Logged in as @sandbox_user"))

    // The credentials file: private, and complete.
    let attributes = try FileManager.default.attributesOfItem(atPath: tweets.credentialsFile.path)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    let whoami = try await tweets.run(["whoami"])
    #expect(whoami.status == 0 && whoami.stdout == "@sandbox_user (Sandbox User), id 1001, signed in with OAuth 1.0a\n")
    let whoamiV1 = try await tweets.run(["whoami", "--api", "1.1", "--json"])
    #expect((try whoamiV1.json() as? [String: String])?["username"] == "sandbox_user")
    try expectNoSecrets(tweets)
  }

  @Test func pinFromTheCommandLineAndAWrongPin() async throws {
    let server = try await VerifiedSandbox.start()
    let tweets = try TweetsRunner(server: server)
    let wrong = try await tweets.run(["login", "--pin", "0000000"] + tweets.consumer)
    #expect(wrong.status == 3)
    #expect(wrong.stderr.contains("Invalid oauth_verifier parameter"))
    #expect(wrong.stderr.contains("Check the PIN"))
  }

  @Test func timelineAllPagesAndEveryFormat() async throws {
    let tweets = try TweetsRunner(server: try await VerifiedSandbox.start())
    try await tweets.loginWithTokens()

    let all = try await tweets.run(["timeline", "sandbox_user", "--all", "--format", "jsonl"])
    #expect(all.status == 0, "\(all.stderr)")
    let lines = all.stdout.split(separator: "\n")
    #expect(lines.count == 250)
    let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
    // The sandbox sends what X sends for the fields asked: the newest fixture tweet has no entities
    // ("#1" is no hashtag), so X leaves `entities` out; A5 (the fifth line) replies with a mention and a hashtag.
    #expect(
      Set(first.keys) == [
        "id", "text", "created_at", "author", "metrics", "lang", "conversation_id", "possibly_sensitive", "edit_history_tweet_ids",
        "paid_partnership",
      ])
    #expect(first["lang"] as? String == "en")
    // X's newer counts, in every post (issue #33).
    #expect((first["metrics"] as? [String: Any]).map { $0["bookmarks"] is Int && $0["impressions"] is Int } == true)
    let reply = try #require(try JSONSerialization.jsonObject(with: Data(lines[4].utf8)) as? [String: Any])
    let entities = try #require(reply["entities"] as? [String: Any], "\(reply)")
    #expect((entities["mentions"] as? [String]) == ["swift_lang"] && (entities["hashtags"] as? [String]) == ["SwiftLang"], "\(entities)")
    #expect((first["author"] as? [String: String])?["username"] == "sandbox_user")
    #expect((first["created_at"] as? String)?.hasSuffix("Z") == true)

    let json = try await tweets.run(["timeline", "sandbox_user", "--json", "--limit", "7"])
    #expect((try json.json() as? [[String: Any]])?.count == 7)

    let csv = try await tweets.run(["timeline", "sandbox_user", "--format", "csv", "--limit", "3"])
    let rows = csv.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }
    #expect(
      rows.first
        == "id,created_at,author_id,author_username,author_name,text,retweets,replies,likes,quotes,lang,conversation_id,in_reply_to_user_id,"
        + "referenced_tweets,urls,mentions,hashtags,media,possibly_sensitive,edit_history_tweet_ids,bookmarks,impressions,paid_partnership")
    #expect(rows.count == 4)

    let text = try await tweets.run(["timeline", "@swift_lang", "--limit", "2"])
    #expect(text.status == 0)
    #expect(text.stdout.contains("@swift_lang Swift Language"))
    #expect(text.stdout.contains("  id "))
    #expect(!text.stdout.contains("\u{1B}["), "no colour without a terminal")

    let home = try await tweets.run(["timeline", "--limit", "30", "--format", "jsonl"])
    #expect(home.stdout.split(separator: "\n").count == 30)

    let v1 = try await tweets.run(["timeline", "sandbox_user", "--all", "--format", "jsonl", "--api", "1.1"])
    // The same tweets from both versions; v1.1 knows fewer metrics (no replies or quotes) and no
    // long posts (it cuts them at 280 characters, as X does; v2 has them whole).
    func essentials(_ output: String) throws -> [[String]] {
      try output.split(separator: "\n").map { line in
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let author = object["author"] as? [String: String]
        let text = object["text"] as? String ?? ""
        let cut = text.count <= 280 ? text : String(text.prefix(279)) + "\u{2026}"
        return [object["id"], cut, object["created_at"], author?["username"], author?["name"]].map { "\($0 ?? "")" }
      }
    }
    #expect(try essentials(v1.stdout) == essentials(all.stdout), "v1.1 and v2 print the same tweets")
    try expectNoSecrets(tweets)
  }

  @Test func showSearchPostAndApi() async throws {
    let tweets = try TweetsRunner(server: try await VerifiedSandbox.start())
    try await tweets.loginWithTokens()
    let newest = try await #require(
      try tweets.run(["timeline", "sandbox_user", "--limit", "2", "--format", "jsonl"]).stdout.split(separator: "\n").compactMap {
        (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["id"] as? String
      } as [String]?)
    #expect(newest.count == 2)

    let show = try await tweets.run(["show"] + newest + ["--format", "jsonl"])
    #expect(show.status == 0 && show.stdout.split(separator: "\n").count == 2)
    let missing = try await tweets.run(["show", newest[0], "1"])
    #expect(missing.status == 4)
    #expect(missing.stderr.contains("Could not find tweet with ids: [1]"))

    let search = try await tweets.run(["search", "from:swift_lang", "--all", "--format", "jsonl"])
    #expect(search.status == 0 && search.stdout.split(separator: "\n").count == 250)

    let post = try await tweets.run(["post", "Hello", "from", "tweets", "+", "🚀", "--json"])
    #expect(post.status == 0, "\(post.stderr)")
    // X's whole answer, as sent.
    #expect((((try post.json() as? [String: Any])?["data"] as? [String: Any])?["text"] as? String) == "Hello from tweets + 🚀")
    let v1post = try await tweets.run(["post", "A v1.1 status: 100% & more", "--api", "1.1", "--format", "jsonl"])
    #expect(v1post.status == 0 && v1post.stdout.contains("100% & more"))

    let me = try await tweets.run(["api", "GET", "/2/users/me"])
    #expect(me.status == 0 && me.stdout.contains("\"username\":\"sandbox_user\""))
    let update = try await tweets.run(["api", "POST", "1.1/statuses/update.json", "-d", "status=Sent with tweets api"])
    #expect(update.status == 0 && update.stdout.contains("Sent with tweets api"))
    let notFound = try await tweets.run(["api", "GET", "/1.1/statuses/show.json", "--query", "id=5"])
    #expect(notFound.status == 4)
    #expect(notFound.stdout.contains("No status found with that ID."), "the error body is printed")
    try expectNoSecrets(tweets)
  }

  @Test func rateLimitsWaitOrFail() async throws {
    let server = try await VerifiedSandbox.start()
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()
    try await server.script("/2/users/me", [["status": 429, "reset_in": 2]])
    let waited = try await tweets.run(["whoami"])
    #expect(waited.status == 0, "\(waited.stderr)")
    #expect(waited.stderr.contains("Rate limited on GET"))
    #expect(waited.stderr.contains("for the limit to reset"))

    try await server.script("/2/users/me", [["status": 429, "reset_in": 600]])
    let failed = try await tweets.run(["whoami", "--no-wait"])
    #expect(failed.status == 5)
    #expect(failed.stderr.contains("Rate limit exceeded"))

    try await server.script("/2/users/me", [["status": 429, "reset_in": 600]])
    let tooLong = try await tweets.run(["whoami", "--max-wait", "5"])
    #expect(tooLong.status == 5, "a reset beyond --max-wait fails at once")
  }

  /// A lookup of 100 ids is a 2,000-character URL: the rate-limit wait and the transport error
  /// name its endpoint and a glimpse of its query, within 120 characters.
  @Test func messagesAboutALongRequestAreShort() async throws {
    let server = try await VerifiedSandbox.start()
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()
    let ids = (0..<100).map { String(1_799_999_999_999_952_000 + $0) }
    try await server.script("/2/tweets", [["status": 429, "reset_in": 1]])
    let waited = try await tweets.run(["show"] + ids + ["--format", "jsonl"])
    let wait = try #require(waited.stderr.split(separator: "\n").first { $0.hasPrefix("Rate limited on GET ") }, "\(waited.stderr)")
    let requestLine = try #require(Self.between("Rate limited on ", and: ": waiting ", in: wait), "\(wait)")
    #expect(requestLine.count <= 120 && requestLine.contains("/2/tweets?ids=1799999999999952000,1799999999999952001…(100 values)"), "\(wait)")

    let refused = try await tweets.run(["show"] + ids + ["--max-wait", "1"], baseURL: "http://127.0.0.1:9")
    #expect(refused.status == 1, "\(refused.stderr)")
    let error = try #require(refused.stderr.split(separator: "\n").first { $0.hasPrefix("tweets: error: GET ") }, "\(refused.stderr)")
    let failed = try #require(Self.between("tweets: error: ", and: " failed: ", in: error), "\(error)")
    #expect(failed.count <= 120 && failed.hasPrefix("GET http://127.0.0.1:9/2/tweets?ids=1799999999999952000,"), "\(error)")
    #expect(!refused.stderr.contains(ids[2]), "\(refused.stderr)")
  }

  /// The text of `line` after `start` (which it begins with) and before `end`.
  static func between(_ start: String, and end: String, in line: Substring) -> Substring? {
    guard line.hasPrefix(start), let stop = line.range(of: end) else { return nil }
    return line[line.index(line.startIndex, offsetBy: start.count)..<stop.lowerBound]
  }

  @Test func authenticationAndServerFailures() async throws {
    let server = try await VerifiedSandbox.start()
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()

    let badSecret = try await tweets.run(["timeline", "--consumer-secret", "tampered-secret"])
    #expect(badSecret.status == 3)
    #expect(badSecret.stderr.contains("HTTP 401"), "\(badSecret.stderr)")
    #expect(badSecret.stderr.contains("--verbose"))

    try await server.script("/2/users/me", Array(repeating: ["status": 503], count: 10))
    let down = try await tweets.run(["whoami", "--max-wait", "4"])
    #expect(down.status == 6, "\(down.stderr)")
    #expect(down.stderr.contains("retrying"))

    try await server.skewClock(by: -7200)
    let skewed = try await tweets.run(["whoami"])
    #expect(skewed.status == 3)
    #expect(skewed.stderr.contains("code 135") && skewed.stderr.contains(/X's clock is -7(19\d|20\d) s/), "\(skewed.stderr)")
    try expectNoSecrets(tweets)
  }

  @Test func missingProfileAndBadFlags() async throws {
    let tweets = try TweetsRunner(server: try await VerifiedSandbox.start())
    let missing = try await tweets.run(["timeline"])
    #expect(missing.status == 3)
    #expect(missing.stderr.contains("tweets login"))

    for arguments in [
      ["timeline", "--limit", "0"], ["timeline", "--format", "xml"], ["frobnicate"], ["timeline", "--nope"],
      ["show"], ["show", "12ab"], ["api", "GET"], ["timeline", "--all", "--limit", "5"], ["login", "--access-token", "x"],
    ] {
      let result = try await tweets.run(arguments)
      #expect(result.status == 2, "\(arguments): \(result.status) \(result.stderr)")
    }
    let help = try await tweets.run(["help", "timeline"])
    #expect(help.status == 0 && help.stdout.contains("--all") && help.stdout.contains("Exit status"))
    #expect(try await tweets.run(["--version"]).stdout.hasPrefix("tweets "))
    #expect(try await tweets.run(["timeline", "--help"]).status == 0)
  }

  @Test func verboseShowsRequestsButNoSecrets() async throws {
    let tweets = try TweetsRunner(server: try await VerifiedSandbox.start())
    try await tweets.loginWithTokens()
    let verbose = try await tweets.run(["whoami", "--verbose"])
    #expect(verbose.status == 0)
    #expect(verbose.stderr.contains("[verbose] → GET \(tweets.server.baseURL.absoluteString)/2/users/me"))
    #expect(verbose.stderr.contains("[verbose] signature base string: GET&http%3A%2F%2F127.0.0.1"))
    #expect(verbose.stderr.contains("x-rate-limit-remaining"))
    #expect(verbose.stderr.contains("Authorization: <redacted>"))
    try expectNoSecrets(tweets)
  }

  @Test func logout() async throws {
    let tweets = try TweetsRunner(server: try await VerifiedSandbox.start())
    try await tweets.loginWithTokens()
    #expect(try await tweets.run(["logout"]).status == 0)
    #expect(try await tweets.run(["whoami"]).status == 3)
  }

  /// No secret may appear in anything the tool printed.
  func expectNoSecrets(_ tweets: TweetsRunner) throws {
    let output = tweets.everything
    for secret in [VerifiedSandbox.consumerSecret, VerifiedSandbox.accessTokenSecret, "tampered-secret", "oauth_signature=\"", "OAuth oauth_"] {
      #expect(!output.contains(secret), "\(secret) appeared in the output")
    }
    // The login's own token secret, issued by the server, is in the credentials file only.
    if let data = try? Data(contentsOf: tweets.credentialsFile),
      let file = try? JSONSerialization.jsonObject(with: data) as? [String: [String: [String: String]]],
      let secret = file["profiles"]?["default"]?["access_token_secret"]
    {
      #expect(!output.contains(secret), "the access token secret appeared in the output")
    }
  }
}
