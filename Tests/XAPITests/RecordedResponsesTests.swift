import Foundation
import NetworkClient
import NetworkClientTesting
import OAuth1
import TestSupport
import Testing
import XAPI

/// The decoders on real responses X sent, recorded by other projects' test suites (tweepy's
/// cassettes, academictwitteR's fixtures, twarc-csv's twarc2 output, Twitter's own sample
/// payloads), replayed through `XClient` by `ReplayTransport`. Where each came from:
/// `Tests/XAPITests/Recordings/PROVENANCE.md`.
@Suite("Real recorded X responses")
struct RecordedResponsesTests {
  func client(_ name: String) throws -> XClient {
    let file = PackagePaths.root.appendingPathComponent("Tests/XAPITests/Recordings/\(name).json")
    // Recorded by other clients, which asked for other fields: matched on method and path.
    let replay = ReplayTransport(try Cassette(contentsOf: file), matching: .methodAndPath)
    return XClient(
      authentication: .oauth1(consumer: Credentials(key: "k", secret: "s"), token: Credentials(key: "t", secret: "u")),
      baseURL: URL(string: "https://api.twitter.com")!, transport: replay, retry: nil)
  }

  @Test func aTweetThatQuotesOneAndRepliesToAnother() async throws {
    let lookup = try await client("v2-tweet-lookup-quoted-and-replied-edit").v2.tweets(ids: ["1576995594388000768"])
    let tweet = try #require(lookup.tweets.first)
    #expect(tweet.referencedTweets?.map(\.kind) == [.quoted, .repliedTo])
    #expect(tweet.referencedTweets?.map(\.id) == ["1576994746135764992", "1576994789110992896"])
    // Both referenced tweets came expanded in includes.tweets, with their authors.
    #expect(tweet.referencedTweets?.allSatisfy { $0.tweet?.author?.username == "wongmjane" } == true)
    #expect(tweet.lang == "en" && tweet.conversationID != nil && tweet.inReplyToUserID != nil)
    #expect(tweet.editHistoryTweetIDs == ["1576995594388000768"])
    #expect(tweet.entities?.mentions == ["wongmjane"])
    #expect(tweet.entities?.urls.first?.expandedURL == "https://twitter.com/wongmjane/status/1576994746135764992")
  }

  @Test func aRetweetCarriesTheOriginal() async throws {
    let tweet = try #require(try await client("v2-tweet-lookup-retweeted").v2.tweets(ids: ["1589681856941002753"]).tweets.first)
    let original = try #require(tweet.referencedTweets?.first)
    #expect(original.kind == .retweeted && original.id == "1589671906718134272")
    #expect(original.tweet?.text.isEmpty == false)
    #expect(tweet.text.hasPrefix("RT @"))
  }

  @Test func mediaPhotoWithAltTextAndVideoWithPreview() async throws {
    let photo = try #require(try await client("v2-tweet-lookup-photo-alt-text-edited").v2.tweets(ids: ["1576994746135764992"]).tweets.first)
    #expect(
      photo.media == [
        Media(
          key: "3_1576994475507077121", type: "photo", url: "https://pbs.twimg.com/media/FeKcHsVaUAEYpU_.jpg", altText: "selfie of me with memoji")
      ])
    #expect(photo.editHistoryTweetIDs == ["1576994746135764992", "1576994789110992896"])
    let video = try #require(try await client("v2-tweet-lookup-video-variants").v2.tweets(ids: ["1558553189766631429"]).tweets.first)
    #expect(video.media?.first?.type == "video")
    #expect(video.media?.first?.url == "https://pbs.twimg.com/ext_tw_video_thumb/1558552952549277696/pu/img/7VaQu-AvReI8RHkv.jpg")
  }

  @Test func linksAreExpanded() async throws {
    let tweet = try #require(try await client("v2-tweet-lookup-many-urls").v2.tweets(ids: ["1610692575752601600"]).tweets.first)
    #expect(tweet.entities?.urls.first?.expandedURL == "https://uiadrian.gumroad.com/l/web-design-guide/?offer_code=twk0uc9f7")
    #expect(tweet.entities?.urls.allSatisfy { $0.url.hasPrefix("https://t.co/") } == true)
    #expect(tweet.referencedTweets?.first?.kind == .repliedTo)
  }

  @Test func lookupsWithMissingIds() async throws {
    let partial = try await client("v2-tweets-lookup-partial-errors").v2.tweets(ids: (1...20).map(String.init))
    #expect(partial.tweets.map(\.id) == ["20"])
    #expect(partial.errors.count == 19 && partial.errors.allSatisfy { $0.type?.hasSuffix("resource-not-found") == true })
    let none = try await client("v2-tweets-lookup-all-missing").v2.tweets(ids: (1...15).map(String.init))
    #expect(none.tweets.isEmpty && none.errors.count == 15)
    let orphan = try await client("v2-tweet-lookup-reply-missing-parent-error").v2.tweets(ids: ["506695756406095872"])
    #expect(orphan.tweets.first?.referencedTweets?.first?.tweet == nil)
    #expect(orphan.errors.first?.parameter == "referenced_tweets.id")
  }

  @Test func aTimelinePageOfEveryReferenceKind() async throws {
    let page = try #require(try await client("v2-user-tweets-all-reference-types").v2.userTweets(userID: "2832986725", limit: 100).firstPage())
    let kinds = Set(page.tweets.flatMap { $0.referencedTweets?.map(\.kind) ?? [] })
    #expect(kinds == [.repliedTo, .quoted, .retweeted])
    #expect(page.tweets.count == 22 && page.next == nil)
    #expect(page.tweets.contains { !($0.entities?.hashtags.isEmpty ?? true) })
  }

  @Test func defaultFieldsOnlyLeaveTheRestEmpty() async throws {
    let page = try #require(
      try await client("v2-home-timeline-default-fields").v2.homeTimeline(userID: "1072250532645998596", limit: 100).firstPage())
    let first = try #require(page.tweets.first)
    #expect(first.createdAt == nil && first.lang == nil && first.referencedTweets == nil && first.media == nil)
    #expect(first.editHistoryTweetIDs?.isEmpty == false)
  }

  @Test func searchPagesWithGIFsAndVideos() async throws {
    let page = try #require(try await client("v2-search-recent-gif-and-video").v2.searchRecent(query: "kpop", limit: 100).firstPage())
    let types = Set(page.tweets.flatMap { $0.media?.map(\.type) ?? [] })
    #expect(types.isSuperset(of: ["animated_gif", "video"]))
  }

  @Test func followersAndUserLookups() async throws {
    let page = try #require(try await client("v2-users-followers-page-default-fields").v2.followers(userID: "783214", limit: 1000).firstPage())
    #expect(page.users.count == 100 && page.next != nil && page.users.allSatisfy { !$0.username.isEmpty })
    let full = try #require(
      try await client("v2-users-followers-full-fields-last-page").v2.followers(userID: "2758518175", limit: 1000).firstPage())
    #expect(full.next == nil && full.users.allSatisfy { $0.metrics != nil && $0.createdAt != nil })
    let empty = try await client("v2-users-followers-empty-page").v2.followers(userID: "1145936974064177152").firstPage()
    #expect(empty?.users.isEmpty == true && empty?.next == nil)
    let lookup = try await client("v2-users-by-usernames-partial-error").v2.users(
      usernames: ["icahdq", "POTUS", "hadleywickhaM", "_R_Foundation", "adljfhjsd"])
    #expect(lookup.users.count == 4 && lookup.errors.count == 1)
  }

  @Test func tweetCountsPerHour() async throws {
    let counts = try await client("v2-tweets-counts-recent-hour").v2.tweetCounts(query: "dogs")
    #expect(counts.buckets.count == 169)
    #expect(counts.total == counts.buckets.reduce(0) { $0 + $1.count })
    #expect(counts.buckets.allSatisfy { $0.start != nil && $0.end != nil })
  }

  @Test func fullArchiveSearchWithoutTheAccess() async throws {
    await #expect {
      _ = try await client("v2-error-403-client-not-enrolled-app-level").v2.searchAll(query: "dogs").collect()
    } throws: { error in
      guard case .clientNotEnrolled = error as? XError else { return false }
      return true
    }
  }

  @Test func v1ExtendedQuoteReplyAndPhoto() async throws {
    let quote = try await client("v1-status-extended-quoted-official-sample").v1.show(id: "1")
    let quoted = try #require(quote.referencedTweets?.first { $0.kind == .quoted })
    #expect(quoted.tweet?.text.isEmpty == false && quoted.tweet?.author != nil)
    let reply = try await client("v1-status-extended-reply-gif-official-sample").v1.show(id: "2")
    #expect(reply.referencedTweets?.first?.kind == .repliedTo && reply.inReplyToUserID != nil)
    #expect(reply.media?.first?.type == "animated_gif")
    let photo = try await client("v1-status-extended-photo-python-twitter").v1.show(id: "3")
    #expect(photo.media?.first?.type == "photo" && photo.media?.first?.url?.hasPrefix("https://pbs.twimg.com/") == true)
    #expect(photo.text.count > 140)
  }

  @Test func v1HomeTimelineWithRetweetsAndQuotes() async throws {
    let page = try #require(try await client("v1-home-timeline-tweepy-quoted").v1.homeTimeline(limit: 200).firstPage())
    let retweets = page.tweets.filter { $0.referencedTweets?.contains { $0.kind == .retweeted } == true }
    let quotes = page.tweets.filter { $0.referencedTweets?.contains { $0.kind == .quoted } == true }
    #expect(retweets.count == 7 && retweets.allSatisfy { $0.referencedTweets?.first { $0.kind == .retweeted }?.tweet != nil })
    #expect(quotes.count >= 4)
  }
}
