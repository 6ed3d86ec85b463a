import Foundation
import NetworkClient
import OAuth1
import Testing
import XAPI
import XSandbox

/// The sandbox's new sources and fields, through the real client: what `tweets --sandbox`
/// mentions, liked, quotes, conversation, list, followers, users and counts see.
@Suite("XSandbox: every source and field")
struct SandboxSourcesTests {
  func all<Item>(_ pages: Pages<Item>) async throws -> [Item] {
    var items: [Item] = []
    for try await page in pages { items += page.items }
    return items
  }

  @Test func fieldsOfRepliesQuotesRetweetsAndMedia() async throws {
    let client = XSandbox().client()
    let lookup = try await client.v2.tweets(ids: [
      "1799999999999992000", "1799999999999994000", "1799999999999991000", "1799999999999996000",
      "1799999999999987000", "1799999999999998000",
    ])
    let byID = Dictionary(uniqueKeysWithValues: lookup.tweets.map { ($0.id, $0) })
    #expect(byID["1799999999999992000"]?.referencedTweets?.first?.kind == .repliedTo)
    #expect(byID["1799999999999992000"]?.conversationID == "1799999999999987000")
    #expect(byID["1799999999999994000"]?.referencedTweets?.first?.kind == .quoted)
    let retweet = try #require(byID["1799999999999991000"]?.referencedTweets?.first)
    #expect(retweet.kind == .retweeted && retweet.tweet?.author?.username == "oauth_fan")
    #expect(byID["1799999999999996000"]?.media?.first?.altText?.isEmpty == false)
    #expect(byID["1799999999999987000"]?.possiblySensitive == true && byID["1799999999999987000"]?.media?.first?.type == "video")
    #expect(byID["1799999999999998000"]?.editHistoryTweetIDs == ["1799999999999997500", "1799999999999998000"])
  }

  @Test func tweetSources() async throws {
    let client = XSandbox().client()
    #expect(try await all(client.v2.mentions(userID: "1001")).count == 11)
    #expect(try await all(client.v2.likedTweets(userID: "1001")).count == 40)
    let quotes = try await all(client.v2.quoteTweets(tweetID: "1799999999999952000"))
    #expect(quotes.count == 11 && quotes.allSatisfy { $0.referencedTweets?.contains { $0.id == "1799999999999952000" } == true })
    #expect(try await all(client.v2.listTweets(listID: "1500")).count == 120)
    let conversation = try await all(client.v2.conversation(id: "1799999999999987000"))
    #expect(conversation.count == 3 && conversation.allSatisfy { $0.conversationID == "1799999999999987000" })
  }

  @Test func usersAndCounts() async throws {
    let sandbox = XSandbox()
    let client = sandbox.client()
    let followers = try await all(client.v2.followers(userID: "1001"))
    #expect(followers.count == 230 && Set(followers.map(\.id)).count == 230)
    #expect(try await all(client.v2.following(userID: "1002")).count == 56)
    let lookup = try await client.v2.users(usernames: ["sandbox_user", "swift_lang", "nobody_here"])
    #expect(lookup.users.map(\.username) == ["sandbox_user", "swift_lang"] && lookup.errors.count == 1)
    #expect(lookup.users.first?.metrics?.followers == 230)
    // App-only, as at X: a user-context signature is refused.
    await #expect(throws: XError.self) { _ = try await client.v2.tweetCounts(query: "from:sandbox_user") }
    let app = XClient(authentication: .bearer(XSandbox.demoBearerToken), transport: sandbox)
    let counts = try await app.v2.tweetCounts(query: "from:sandbox_user", granularity: "day")
    #expect(counts.total == counts.buckets.reduce(0) { $0 + $1.count } && counts.total > 0)
    await #expect {
      var iterator = app.v2.searchAll(query: "hello").makeAsyncIterator()
      _ = try await iterator.next()
    } throws: { error in
      guard case .clientNotEnrolled = error as? XError else { return false }
      return true
    }
  }
}
