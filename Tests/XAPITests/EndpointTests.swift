import Foundation
import NetworkClient
import OAuth1
import TestSupport
import Testing
import XAPI

/// Every typed endpoint against the X sandbox over loopback.
@Suite("X: v2 and v1.1 endpoints", .sandboxChecks, .tags(.peers), .tier(.peers))
struct EndpointTests {
  @Test func v2Users() async throws {
    let server = try await VerifiedSandbox.start()
    let client = server.client()
    #expect(try await client.v2.user(username: "Swift_Lang") == XUser(id: "1002", username: "swift_lang", name: "Swift Language"))
    await #expect {
      try await client.v2.user(username: "nobody_here")
    } throws: { error in
      guard case .notFound(let message) = error as? XError else { return false }
      return message.contains("nobody_here")
    }
    #expect(client.rateLimits.last?.limit != nil, "rate-limit state is readable after a call")
  }

  @Test func v2HomeTimelineMixesAuthors() async throws {
    let server = try await VerifiedSandbox.start()
    let tweets = try await server.client().v2.homeTimeline(userID: "1001", limit: 150).tweets().collect()
    #expect(tweets.count == 150)
    #expect(Set(tweets.compactMap(\.author?.username)).count == 3)
  }

  @Test func v2TweetLookupKeepsPartialErrors() async throws {
    let server = try await VerifiedSandbox.start()
    let client = server.client()
    let first = try #require(try await client.v2.userTweets(userID: "1001", limit: 2).tweets().collect().first)
    let one = try await client.v2.tweet(id: first.id)
    #expect(one.id == first.id && one.text == first.text && one.author?.username == "sandbox_user")
    let lookup = try await client.v2.tweets(ids: [first.id, "1", "2"])
    #expect(lookup.tweets.map(\.id) == [first.id])
    #expect(lookup.errors.map(\.resourceID) == ["1", "2"])
    #expect(lookup.errors.first?.type?.hasSuffix("resource-not-found") == true)
    await #expect(throws: XError.self) { try await client.v2.tweet(id: "3") }
  }

  /// X cuts a post longer than 280 characters short in `text` and sends it whole only in
  /// `note_tweet`, when `tweet.fields` asks (the sandbox does the same); the default options ask, so
  /// no command silently keeps a cut post.
  @Test func longPostsArriveWholeWithTheDefaultFields() async throws {
    let server = try await VerifiedSandbox.start()
    let client = server.client()
    let tweets = try await client.v2.userTweets(userID: "1001", limit: 50).tweets().collect()
    let long = try #require(tweets.first { $0.text.hasPrefix("Thread ") }, "the fixtures have long posts")
    #expect(long.text.count > 280 && long.text.hasSuffix("\u{1F9F5}"), "\(long.text)")
    #expect(try await client.v2.tweet(id: long.id).text == long.text)

    // Asking X for fields without note_tweet gives the cut text, as X does.
    let bare = try await client.v2.tweet(id: long.id, options: TimelineOptions(tweetFields: ["created_at"]))
    #expect(bare.text.count == 280 && bare.text.hasSuffix("\u{2026}") && long.text.hasPrefix(bare.text.dropLast()), "\(bare.text)")
    // v1.1 has no long posts: its full_text is cut too.
    let v1 = try await client.v1.userTimeline(userID: "1001", limit: 50).tweets().collect()
    #expect(v1.first { $0.id == long.id }?.text == bare.text)
  }

  @Test func v2SearchPagesWithNextToken() async throws {
    let server = try await VerifiedSandbox.start()
    let client = server.client()
    let all = try await client.v2.searchRecent(query: "from:swift_lang").tweets().collect()
    #expect(all.count == 250)
    #expect(all.allSatisfy { $0.author?.username == "swift_lang" })
    let pages = try await client.v2.searchRecent(query: "from:swift_lang", options: TimelineOptions(maxResults: 100)).collect()
    #expect(pages.count == 3)
  }

  @Test func v2PostWithAJSONBody() async throws {
    let server = try await VerifiedSandbox.start()
    let client = server.client()
    let posted = try await client.v2.post(text: "Hello from Swift + OAuth 1.0a 🚀")
    #expect(posted.text == "Hello from Swift + OAuth 1.0a 🚀")
    let newest = try #require(try await client.v2.userTweets(userID: "1001", limit: 1).tweets().collect().first)
    #expect(newest.id == posted.id)
    await #expect {
      try await client.v2.post(text: "Hello from Swift + OAuth 1.0a 🚀")
    } throws: { error in
      if case .duplicate = error as? XError { return true }
      return false
    }
  }

  @Test func v1Endpoints() async throws {
    let server = try await VerifiedSandbox.start()
    let client = server.client()
    #expect(try await client.v1.verifyCredentials() == XUser(id: "1001", username: "sandbox_user", name: "Sandbox User"))
    let timeline = try await client.v1.userTimeline(screenName: "swift_lang").tweets().collect()
    #expect(timeline.count == 250)
    let home = try await client.v1.homeTimeline(limit: 30).tweets().collect()
    #expect(home.count == 30)
    let shown = try await client.v1.show(id: timeline[0].id)
    #expect(shown.id == timeline[0].id && shown.text == timeline[0].text)
    let found = try await client.v1.search(query: "from:oauth_fan", limit: 25).tweets().collect()
    #expect(found.count == 25 && found.allSatisfy { $0.author?.username == "oauth_fan" })
    let posted = try await client.v1.updateStatus("A form-encoded status: 100% & more!")
    #expect(posted.text == "A form-encoded status: 100% & more!")
    await #expect {
      try await client.v1.show(id: "5")
    } throws: { error in
      if case .notFound(let message) = error as? XError { return message == "No status found with that ID." }
      return false
    }
  }

  /// v1.1 (max_id paging) and v2 (token paging) give the same tweets for the same account; a
  /// long post is whole from v2 only (v1.1 has no long posts and cuts it, as X does).
  @Test func v1AndV2Agree() async throws {
    let server = try await VerifiedSandbox.start()
    let client = server.client()
    let v2 = try await client.v2.userTweets(userID: "1001").tweets().collect()
    let v1 = try await client.v1.userTimeline(userID: "1001", options: V1TimelineOptions(count: 77)).tweets().collect()
    #expect(v2.count == 250)
    #expect(v1.map(\.id) == v2.map(\.id))
    #expect(v2.contains { $0.text.count > 280 })
    #expect(v1.map(\.text) == v2.map { $0.text.count <= 280 ? $0.text : String($0.text.prefix(279)) + "\u{2026}" })
    #expect(v1.map(\.createdAt) == v2.map(\.createdAt))
    #expect(v1.map { $0.author?.username } == v2.map { $0.author?.username })
    #expect(v1.map { $0.metrics?.likes } == v2.map { $0.metrics?.likes })
  }

  @Test func bearerTokenForPublicData() async throws {
    let server = try await VerifiedSandbox.start()
    let app = server.client(authentication: .bearer(VerifiedSandbox.bearerToken))
    let tweets = try await app.v2.searchRecent(query: "from:sandbox_user", limit: 15).tweets().collect()
    #expect(tweets.count == 15)
    await #expect {
      try await app.v2.me()
    } throws: { error in
      guard case .api(let status, _, let message, _) = error as? XError else { return false }
      return status == 403 && message.contains("Application-Only is forbidden")
    }
  }
}
