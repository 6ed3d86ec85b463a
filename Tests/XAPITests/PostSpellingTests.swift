import Foundation
import NetworkClientTesting
import TestSupport
import Testing

@testable import XAPI

/// Answers in X's new spelling (OpenAPI 2.167's post names) decode to the same values as in the
/// tweet names every real answer uses. The new-spelling answers are made here from real answers
/// recorded by other projects, renaming the pairs the specification renamed (as listed by another
/// client generated from the specification), written out below independently of the decoder's table.
@Suite("X's two spellings of a post")
struct PostSpellingTests {
  static let renamed = [
    "edit_history_tweet_ids": "edit_history_post_ids", "note_tweet": "note_post", "referenced_tweets": "referenced_posts",
    "retweet_count": "repost_count", "total_tweet_count": "total_post_count", "pinned_tweet_id": "pinned_post_id",
  ]

  /// `value` with the tweet names renamed, and `includes.tweets` as `includes.posts`.
  static func postSpelling(_ value: Any, parent: String? = nil) -> Any {
    if let array = value as? [Any] { return array.map { postSpelling($0, parent: parent) } }
    guard let object = value as? [String: Any] else { return value }
    var out: [String: Any] = [:]
    for (key, child) in object {
      let name = parent == "includes" && key == "tweets" ? "posts" : renamed[key] ?? key
      out[name] = postSpelling(child, parent: key)
    }
    return out
  }

  static let v2Recordings = [
    "v2-home-timeline-default-fields", "v2-search-recent-gif-and-video", "v2-tweet-lookup-edited-latest", "v2-tweet-lookup-many-urls",
    "v2-tweet-lookup-photo-alt-text-edited", "v2-tweet-lookup-quoted-and-replied-edit", "v2-tweet-lookup-retweeted",
    "v2-tweet-lookup-video-variants", "v2-tweet-lookup-withheld", "v2-user-tweets-all-reference-types",
  ]

  @Test(arguments: v2Recordings)
  func theSameAnswerInBothSpellingsDecodesAlike(recording: String) throws {
    let file = PackagePaths.root.appendingPathComponent("Tests/XAPITests/Recordings/\(recording).json")
    let body = Data(try #require(try Cassette(contentsOf: file).interactions.first?.response.body).utf8)
    let renamedBody = try JSONSerialization.data(withJSONObject: Self.postSpelling(try JSONSerialization.jsonObject(with: body)))
    #expect(renamedBody != body)
    let decoder = PostSpelling.decoder()
    let (old, new): ([Tweet], [Tweet])
    if let many = try? decoder.decode(V2Envelope<[V2Tweet]>.self, from: body) {
      (old, new) = (many.tweets, try decoder.decode(V2Envelope<[V2Tweet]>.self, from: renamedBody).tweets)
    } else {
      let one = try decoder.decode(V2Envelope<V2Tweet>.self, from: body)
      (old, new) = ([try #require(one.tweet)], [try #require(try decoder.decode(V2Envelope<V2Tweet>.self, from: renamedBody).tweet)])
    }
    #expect(!old.isEmpty && old == new)
  }

  /// The recordings hold the fields the rename could lose: references and their expansions,
  /// counts and edit history (none holds a long post: the stream line below has one).
  @Test func theRecordingsExerciseEveryRenamedField() throws {
    var bodies = ""
    for recording in Self.v2Recordings {
      let file = PackagePaths.root.appendingPathComponent("Tests/XAPITests/Recordings/\(recording).json")
      bodies += try #require(try Cassette(contentsOf: file).interactions.first?.response.body)
    }
    let missing = ["referenced_tweets", "retweet_count", "edit_history_tweet_ids", #""tweets":["#].filter { !bodies.contains($0) }
    #expect(missing.isEmpty)
  }

  @Test func aStreamLineInThePostSpelling() throws {
    let old = Data(
      #"{"data":{"id":"2","text":"b…","note_tweet":{"text":"b, whole"},"referenced_tweets":[{"type":"quoted","id":"1"}],"edit_history_tweet_ids":["2"]},"includes":{"tweets":[{"id":"1","text":"a","edit_history_tweet_ids":["1"]}]},"matching_rules":[{"id":"9","tag":"t"}]}"#
        .utf8)
    let new = try JSONSerialization.data(withJSONObject: Self.postSpelling(try JSONSerialization.jsonObject(with: old)))
    guard case .tweet(let a) = StreamLine(old), case .tweet(let b) = StreamLine(new) else {
      Issue.record("not decoded")
      return
    }
    #expect(a.tweet == b.tweet && a.tweet.referencedTweets?.first?.tweet?.text == "a" && b.tweet.text == "b, whole")
    #expect(a.includes.tweets == b.includes.tweets && b.includes.tweets.count == 1)
  }
}
