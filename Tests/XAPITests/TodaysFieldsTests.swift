import Foundation
import TestSupport
import Testing

@testable import XAPI

/// The fields X sends today that older answers lack: `public_metrics.bookmark_count` and
/// `impression_count`, and `paid_partnership`, asked for by default.
@Suite("X's newer post fields")
struct TodaysFieldsTests {
  @Test func bookmarkAndImpressionCountsFromARealStreamLine() throws {
    let file = PackagePaths.root.appendingPathComponent("Tests/XAPITests/Recordings/v2-stream-line-bookmark-and-impression-counts.jsonl")
    guard case .tweet(let streamed) = StreamLine(try Data(contentsOf: file)) else {
      Issue.record("the line is not a post")
      return
    }
    #expect(streamed.tweet.metrics == Metrics(retweets: 72, replies: 0, likes: 0, quotes: 0, bookmarks: 0, impressions: 0))
    let original = try #require(streamed.tweet.referencedTweets?.first?.tweet)
    #expect(original.metrics == Metrics(retweets: 72, replies: 17, likes: 639, quotes: 5, bookmarks: 67, impressions: 23_725))
  }

  @Test func paidPartnershipIsAskedForAndRead() throws {
    #expect(TimelineOptions.defaultTweetFields.contains("paid_partnership"))
    let body = Data(#"{"data":{"id":"1","text":"a","edit_history_tweet_ids":["1"],"paid_partnership":true}}"#.utf8)
    #expect(try PostSpelling.decoder().decode(V2Envelope<V2Tweet>.self, from: body).tweet?.paidPartnership == true)
  }
}
