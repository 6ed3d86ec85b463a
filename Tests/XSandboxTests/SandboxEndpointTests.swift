import Foundation
import NetworkClient
import OAuth1
import Testing
import XAPI
import XSandbox

/// The endpoints, driven through the real client: what `tweets --sandbox` will see.
@Suite("XSandbox: endpoints through XClient")
struct SandboxEndpointTests {
  @Test func usersMeAndFriends() async throws {
    let sandbox = XSandbox()
    let client = sandbox.client()
    let me = try await client.v2.me()
    #expect(me == XUser(id: "1001", username: "sandbox_user", name: "Sandbox User"))
    #expect(try await client.v1.verifyCredentials() == me)
    #expect(try await client.v2.user(username: "Swift_Lang") == XUser(id: "1002", username: "swift_lang", name: "Swift Language"))
    let limit = try #require(client.rateLimits.rateLimit(forPath: "/2/users/me"))
    #expect(limit.limit == 75 && limit.remaining == 74)
    let error = await xError { _ = try await client.v2.user(username: "nobody_here") }
    guard case .notFound(let message) = error else {
      Issue.record("expected notFound, got \(String(describing: error))")
      return
    }
    #expect(message.contains("nobody_here"))
    #expect(sandbox.stats == (verified: 4, rejected: 0))
  }

  /// Long posts as X keeps them: cut in `text`, whole in `note_tweet` when asked for, which the
  /// client's default fields do.
  @Test func longPostsAreWholeThroughTheDefaultFields() async throws {
    let sandbox = XSandbox()
    let client = sandbox.client()
    let tweets = try await client.v2.userTweets(userID: "1001", limit: 12).tweets().collect()
    let long = try #require(tweets.first { $0.text.hasPrefix("Thread") })
    #expect(long.text.count > 280 && long.text.hasSuffix("🧵"), "\(long.text)")
    let bare = try await client.v2.tweet(id: long.id, options: TimelineOptions(tweetFields: []))
    #expect(bare.text.count == 280 && bare.text.hasSuffix("\u{2026}"), "\(bare.text)")
  }

  @Test func pagingAUsersTweetsToTheEnd() async throws {
    let sandbox = XSandbox(tweetsPerUser: 23)
    let client = sandbox.client()
    let pages = try await client.v2.userTweets(userID: "1002", options: TimelineOptions(maxResults: 5)).collect()
    #expect(pages.count == 5)
    #expect(pages.dropLast().allSatisfy { $0.next != nil && $0.tweets.count == 5 })
    #expect(pages.last?.next == nil && pages.last?.tweets.count == 3)
    let tweets = pages.flatMap(\.tweets)
    #expect(tweets.count == 23)
    #expect(Set(tweets.map(\.id)).count == 23)
    #expect(isNewestFirst(tweets))
    #expect(tweets.allSatisfy { $0.author?.username == "swift_lang" && $0.author?.name == "Swift Language" && $0.metrics != nil })
    // Dated a minute apart or more, the newest a few minutes ago.
    let dates = tweets.compactMap(\.createdAt)
    #expect(dates.count == 23 && zip(dates, dates.dropFirst()).allSatisfy { $0.timeIntervalSince($1) >= 60 })
    let age = Date().timeIntervalSince(try #require(dates.first))
    #expect(age > 60 && age < 600)
    // One page of everything gives the same tweets.
    #expect(try await client.v2.userTweets(userID: "1002").tweets().collect() == tweets)
    // X's range for max_results is enforced.
    let error = await xError { _ = try await client.raw(Request<HTTPResponse>(path: "2/users/1002/tweets", query: [("max_results", "4")])) }
    guard case .api(400, nil, let message, _) = error else {
      Issue.record("expected a 400, got \(String(describing: error))")
      return
    }
    #expect(message.contains("The `max_results` query parameter value [4] is not between 5 and 100"))
  }

  @Test func homeTimelineMixesThreeAuthors() async throws {
    let sandbox = XSandbox(tweetsPerUser: 20)
    let client = sandbox.client()
    let home = try await client.v2.homeTimeline(userID: "1001").tweets().collect()
    #expect(home.count == 60)
    #expect(Set(home.compactMap(\.author?.username)) == ["sandbox_user", "swift_lang", "oauth_fan"])
    #expect(isNewestFirst(home))
    let firstPage = try await client.v2.homeTimeline(userID: "1001", limit: 12).tweets().collect()
    #expect(firstPage.map(\.id) == home.prefix(12).map(\.id))
    #expect(Set(firstPage.compactMap(\.author?.username)).count == 3)
    let v1 = try await client.v1.homeTimeline(limit: 30).tweets().collect()
    #expect(v1.map(\.id) == home.prefix(30).map(\.id))
    // v1.1 escapes / and writes emoji as surrogate pairs (both decode), and cuts long posts, as X does.
    #expect(v1.map(\.text) == home.prefix(30).map { $0.text.count <= 280 ? $0.text : String($0.text.prefix(279)) + "\u{2026}" })
    // Only your own home timeline.
    let error = await xError { _ = try await client.v2.homeTimeline(userID: "1002").tweets().collect() }
    guard case .api(403, _, _, _) = error else {
      Issue.record("expected a 403, got \(String(describing: error))")
      return
    }
  }

  @Test func generatedTweetsAreVariedAndValid() async throws {
    let sandbox = XSandbox(tweetsPerUser: 12)
    let home = try await sandbox.client().v2.homeTimeline(userID: "1001").tweets().collect()
    #expect(home.count == 36)
    for author in ["sandbox_user", "swift_lang", "oauth_fan"] {
      let texts = home.filter { $0.author?.username == author }.map(\.text)
      #expect(texts.count == 12 && Set(texts).count == 12, "no duplicates within an author")
      #expect(texts.contains { $0.unicodeScalars.count > 140 }, "a long tweet for v1.1 truncation")
      #expect(texts.contains { $0.unicodeScalars.contains { $0.value > 0xFFFF } }, "an emoji outside the BMP")
    }
    // Within X's 280 characters, except long posts, which arrive whole through `note_tweet`.
    #expect(home.allSatisfy { !$0.text.isEmpty && ($0.text.count <= 280 || $0.text.hasPrefix("Thread")) })
    #expect(home.contains { $0.text.count > 280 }, "a long post")
    #expect(home.contains { $0.text.contains("&") } && home.contains { $0.text.contains("+") })
    #expect(home.contains { $0.text.unicodeScalars.contains { $0.value > 0x7F && $0.value <= 0xFFFF } })
    // Deterministic: another sandbox generates the same ids and texts.
    let again = try await XSandbox(tweetsPerUser: 12).client().v2.homeTimeline(userID: "1001").tweets().collect()
    #expect(again.map(\.id) == home.map(\.id) && again.map(\.text) == home.map(\.text))
  }

  @Test func searchWithFrom() async throws {
    let sandbox = XSandbox(tweetsPerUser: 30)
    let client = sandbox.client()
    let all = try await client.v2.searchRecent(query: "from:oauth_fan").tweets().collect()
    #expect(all.count == 30 && all.allSatisfy { $0.author?.username == "oauth_fan" })
    #expect(isNewestFirst(all))
    let pages = try await client.v2.searchRecent(query: "from:oauth_fan", options: TimelineOptions(maxResults: 10)).collect()
    #expect(pages.count == 3 && pages.last?.next == nil)
    let hmac = try await client.v2.searchRecent(query: "from:@OAuth_Fan hmac").tweets().collect()
    #expect(hmac.count == 5 && hmac.allSatisfy { $0.text.contains("HMAC") })
    let everyone = try await client.v2.searchRecent(query: "sandbox").tweets().collect()
    #expect(!everyone.isEmpty && everyone.allSatisfy { $0.text.lowercased().contains("sandbox") })
    #expect(try await client.v2.searchRecent(query: "from:nobody_here").tweets().collect().isEmpty)
    let v1 = try await client.v1.search(query: "from:oauth_fan").tweets().collect()
    #expect(v1.map(\.id) == all.map(\.id))
  }

  @Test func tweetLookupWithPartialErrors() async throws {
    let sandbox = XSandbox()
    let client = sandbox.client()
    let first = try #require(try await client.v2.userTweets(userID: "1001", limit: 5).tweets().collect().first)
    #expect(try await client.v2.tweet(id: first.id) == first)
    let lookup = try await client.v2.tweets(ids: [first.id, "1", "2", first.id])
    #expect(lookup.tweets == [first])
    #expect(lookup.errors.map(\.resourceID) == ["1", "2"])
    #expect(lookup.errors.allSatisfy { $0.type?.hasSuffix("/resource-not-found") == true })
    #expect(lookup.rateLimit?.limit == 300)
    let shown = try await client.v1.show(id: first.id)
    #expect(shown.id == first.id && shown.text == first.text && shown.author?.username == "sandbox_user")
    guard case .notFound = await xError({ _ = try await client.v2.tweet(id: "3") }) else {
      Issue.record("v2 tweet 3")
      return
    }
    guard case .notFound = await xError({ _ = try await client.v1.show(id: "3") }) else {
      Issue.record("v1 show 3")
      return
    }
    guard case .api(400, _, let message, _) = await xError({ _ = try await client.v2.tweets(ids: ["12a"]) }) else {
      Issue.record("bad id")
      return
    }
    #expect(message.contains("does not match ^[0-9]{1,19}$"))
  }

  @Test func postingPutsTheTweetOnTop() async throws {
    let sandbox = XSandbox()
    let client = sandbox.client()
    let text = "Hello from the sandbox + OAuth 1.0a & Swift 🚀 — été, 100% offline"
    let posted = try await client.v2.post(text: text)
    #expect(posted.text == text)
    let newest = try #require(try await client.v2.userTweets(userID: "1001", limit: 1).tweets().collect().first)
    #expect(newest.id == posted.id && newest.text == text)
    // Made now: seconds ago, even on a busy machine (a run with two builds beside it took 5 s).
    #expect(abs(try #require(newest.createdAt).timeIntervalSinceNow) < 120)
    guard case .duplicate = await xError({ _ = try await client.v2.post(text: text) }) else {
      Issue.record("v2 duplicate")
      return
    }

    let second = "Second post, via v1.1: 1 + 1 = 2 & done ✅"
    let viaV1 = try await client.v1.updateStatus(second)
    #expect(viaV1.text == second && viaV1.author?.username == "sandbox_user")
    #expect(try #require(UInt64(viaV1.id)) > (try #require(UInt64(posted.id))))
    #expect(try await client.v2.userTweets(userID: "1001", limit: 2).tweets().collect().map(\.id) == [viaV1.id, posted.id])
    #expect(try await client.v1.userTimeline(limit: 2).tweets().collect().map(\.text) == [second, text])
    #expect(try await client.v2.homeTimeline(userID: "1001", limit: 1).tweets().collect().first?.id == viaV1.id)
    guard case .duplicate = await xError({ _ = try await client.v1.updateStatus(second) }) else {
      Issue.record("v1 duplicate")
      return
    }
    guard case .api(403, _, let message, _) = await xError({ _ = try await client.v2.post(text: String(repeating: "a", count: 281)) }) else {
      Issue.record("too long")
      return
    }
    #expect(message.contains("too long"))
    // Search finds it too.
    #expect(try await client.v2.searchRecent(query: "from:sandbox_user offline").tweets().collect().map(\.id) == [posted.id])
  }

  @Test func v1AndV2AgreeOnAUsersTweets() async throws {
    let sandbox = XSandbox(tweetsPerUser: 45)
    let client = sandbox.client()
    let v2 = try await client.v2.userTweets(userID: "1003").tweets().collect()
    let v1 = try await client.v1.userTimeline(screenName: "oauth_fan").tweets().collect()
    #expect(v2.count == 45)
    #expect(v1.map(\.id) == v2.map(\.id))
    #expect(v1.map(\.text) == v2.map(\.text))
    #expect(v1.map(\.createdAt) == v2.map(\.createdAt))
    #expect(v1.map(\.author?.id) == v2.map(\.author?.id))
    #expect(v1.map(\.metrics?.likes) == v2.map(\.metrics?.likes))
    let paged = try await client.v1.userTimeline(userID: "1003", options: V1TimelineOptions(count: 10)).tweets().collect()
    #expect(paged.map(\.id) == v2.map(\.id))
    // Without tweet_mode=extended, a long tweet is cut to 140 characters, as X does.
    let long = try #require(v2.first { $0.text.unicodeScalars.count > 140 })
    let short = try await client.v1.show(id: long.id, extended: false)
    #expect(short.text.unicodeScalars.count == 140 && short.text.hasSuffix("…"))
    #expect(try await client.v1.show(id: long.id).text == long.text)
  }

  @Test func unknownRoutesAreNotFound() async throws {
    let sandbox = XSandbox()
    let client = sandbox.client()
    guard case .notFound = await xError({ _ = try await client.raw(Request<HTTPResponse>(path: "2/nothing/here")) }) else {
      Issue.record("v2")
      return
    }
    guard case .notFound = await xError({ _ = try await client.raw(Request<HTTPResponse>(path: "1.1/nothing/here.json")) }) else {
      Issue.record("v1.1")
      return
    }
    guard
      case .api(400, _, let message, _) = await xError({
        _ = try await client.raw(Request<HTTPResponse>(path: "2/users/me", query: [("colour", "blue")]))
      })
    else {
      Issue.record("unknown parameter")
      return
    }
    #expect(message.contains("The query parameter [colour] is not one of"))
    let page = try await sandbox.raw(.get, "https://api.x.com/favicon.ico")
    #expect(page.statusCode == 404 && page.headers["Content-Type"] == "text/html; charset=utf-8" && page.text.contains("Nothing to see here"))
  }

  @Test func wireShapesAndHeadersWithAFixedClock() async throws {
    let clock = FixedClock(seconds: mayDay)
    let sandbox = XSandbox(clock: clock, tweetsPerUser: 10)
    let client = sandbox.client(configuration: .init(clock: clock))

    let v2 = try await client.raw(
      Request<HTTPResponse>(
        path: "2/users/1001/tweets", query: [("max_results", "5"), ("tweet.fields", "created_at,public_metrics"), ("expansions", "author_id")]))
    #expect(v2.headers["Date"] == "Wed, 01 May 2024 12:00:00 GMT")
    #expect(v2.headers["Content-Type"] == "application/json; charset=utf-8")
    #expect(v2.rateLimit == RateLimit(limit: 1500, remaining: 1499, reset: Date(timeIntervalSince1970: TimeInterval(mayDay + 900))))
    let body = try #require(jsonObject(v2))
    let data = try #require(body["data"] as? [[String: Any]])
    #expect(data.count == 5)
    #expect(data[0]["id"] as? String == "1800000000000000000")
    #expect(data[0]["created_at"] as? String == "2024-05-01T11:58:00.000Z")
    #expect(data[0]["edit_history_tweet_ids"] as? [String] == ["1800000000000000000"])
    #expect(data[0]["author_id"] as? String == "1001")
    let meta = try #require(body["meta"] as? [String: Any])
    #expect(meta["result_count"] as? Int == 5 && (meta["next_token"] as? String)?.hasPrefix("7140dib") == true)
    let users = try #require((body["includes"] as? [String: Any])?["users"] as? [[String: Any]])
    #expect(users.map { $0["username"] as? String } == ["sandbox_user"])

    let v1 = try await client.raw(Request<HTTPResponse>(path: "1.1/statuses/user_timeline.json", query: [("count", "1")]))
    #expect(v1.headers["Content-Type"] == "application/json;charset=utf-8")
    #expect(v1.text.contains(#""id":1800000000000000000,"id_str":"1800000000000000000""#))
    #expect(v1.text.contains(#""created_at":"Wed May 01 11:58:00 +0000 2024""#))
    #expect(v1.rateLimit?.limit == 900)

    // Writes carry no rate-limit headers; the new tweet is dated by the sandbox's clock.
    let posted = try await client.raw(Request<HTTPResponse>(method: .post, path: "2/tweets", body: .json(["text": "Posted at noon 🕛"])))
    #expect(posted.statusCode == 201 && posted.rateLimit == nil)
    let tweet = try await client.v2.tweet(id: try #require((jsonObject(posted)?["data"] as? [String: Any])?["id"] as? String))
    #expect(tweet.text == "Posted at noon 🕛" && tweet.createdAt == Date(timeIntervalSince1970: TimeInterval(mayDay)))
  }

  @Test func rateLimitsRunOutPerEndpoint() async throws {
    let clock = FixedClock(seconds: mayDay)
    let sandbox = XSandbox(clock: clock, tweetsPerUser: 5)
    let client = sandbox.client(configuration: .init(clock: clock))
    for _ in 0..<75 { _ = try await client.v2.me() }
    #expect(client.rateLimits.last?.remaining == 0)
    let error = await xError { _ = try await client.v2.me() }
    guard case .rateLimited(let reset, let limit) = error else {
      Issue.record("expected 429, got \(String(describing: error))")
      return
    }
    #expect(reset == Date(timeIntervalSince1970: TimeInterval(mayDay + 900)))
    #expect(limit?.limit == 75 && limit?.remaining == 0)
    // Other endpoints have their own windows.
    #expect(try await client.v2.user(username: "oauth_fan").id == "1003")
    guard case .rateLimited = await xError({ _ = try await client.v2.me() }) else {
      Issue.record("still limited")
      return
    }
  }

  @Test func concurrentRequests() async throws {
    let sandbox = XSandbox(tweetsPerUser: 10)
    let client = sandbox.client()
    let names = try await withThrowingTaskGroup(of: String.self) { group in
      for index in 0..<40 {
        group.addTask {
          index.isMultiple(of: 2) ? try await client.v2.me().username : try await client.v1.verifyCredentials().username
        }
      }
      var names: [String] = []
      for try await name in group { names.append(name) }
      return names
    }
    #expect(names.count == 40 && Set(names) == ["sandbox_user"])
    #expect(sandbox.stats == (verified: 40, rejected: 0))
  }
}
