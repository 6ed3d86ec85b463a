import Foundation
import NetworkClient
import OAuth1
import Testing
import XAPI
import XSandbox

/// The sandbox's two spellings of a post's fields (`--spelling post`): the same data in X's
/// tweet names and in the post names of X's specification 2.167, and XAPI's decoders reading
/// either into equal values.
@Suite("The sandbox in X's post spelling")
struct SandboxSpellingTests {
  /// Two sandboxes on one fixed clock: the same posts, answered in each spelling.
  static func pair() -> (tweet: XSandbox, post: XSandbox) {
    (
      XSandbox(clock: FixedClock(seconds: mayDay), tweetsPerUser: 60),
      XSandbox(clock: FixedClock(seconds: mayDay), tweetsPerUser: 60, spelling: .post)
    )
  }

  /// A client signing with the sandboxes' clock.
  static func client(_ sandbox: XSandbox) -> XClient { sandbox.client(configuration: .init(clock: FixedClock(seconds: mayDay))) }

  @Test("A timeline and a lookup decode to equal posts from either spelling: references, edits, long texts, counts")
  func decodersReadBoth() async throws {
    let (old, new) = Self.pair()
    let timeline = try await Self.client(old).v2.userTweets(userID: "1001", limit: 60).tweets().collect()
    #expect(try await Self.client(new).v2.userTweets(userID: "1001", limit: 60).tweets().collect() == timeline)
    #expect(timeline.count == 60)
    #expect(timeline.contains { !($0.referencedTweets ?? []).isEmpty && $0.referencedTweets?.first?.tweet != nil }, "referenced posts, included")
    #expect(timeline.contains { $0.text.count > 280 }, "a long post's whole text, from its note")
    #expect(timeline.contains { ($0.metrics?.retweets ?? 0) > 0 && $0.metrics?.bookmarks != nil }, "the counts")
    #expect(timeline.allSatisfy { $0.editHistoryTweetIDs?.isEmpty == false }, "the edit histories")

    let ids = timeline.prefix(12).map(\.id)
    let lookup = try await Self.client(old).v2.tweets(ids: ids)
    #expect(try await Self.client(new).v2.tweets(ids: ids).tweets == lookup.tweets)
  }

  @Test("The post spelling's answers hold the post names only; v1.1 and non-v2 answers are untouched")
  func answersInPostNames() async throws {
    let (old, new) = Self.pair()
    let path =
      "https://api.x.com/2/users/1001/tweets?max_results=50&tweet.fields=public_metrics,referenced_tweets,note_tweet,edit_history_tweet_ids"
      + "&expansions=referenced_tweets.id"
    let bearer = "Bearer \(XSandbox.demoBearerToken)"
    let tweetNames = String(decoding: try await old.raw(.get, path, authorization: bearer).body, as: UTF8.self)
    let postNames = String(decoding: try await new.raw(.get, path, authorization: bearer).body, as: UTF8.self)
    for (post, tweet) in [
      ("referenced_posts", "referenced_tweets"), ("edit_history_post_ids", "edit_history_tweet_ids"), ("note_post", "note_tweet"),
      ("repost_count", "retweet_count"), ("posts", "tweets"),
    ] {
      #expect(postNames.contains("\"\(post)\":") && !postNames.contains("\"\(tweet)\":"), "\(post) instead of \(tweet)")
      #expect(tweetNames.contains("\"\(tweet)\":") && !tweetNames.contains("\"\(post)\":"), "\(tweet) in the tweet spelling")
    }
    // post.fields is read as tweet.fields is.
    let asPost = try await new.raw(.get, "https://api.x.com/2/tweets/1799999999999990000?post.fields=public_metrics", authorization: bearer)
    #expect(asPost.statusCode == 200 && String(decoding: asPost.body, as: UTF8.self).contains("\"repost_count\":"))
  }

  @Test("Respelling leaves alone what is not a v2 JSON body, and survives hostile bodies")
  func respellingEdges() throws {
    let keepAlive = Data("\r\n".utf8)
    #expect(SandboxSpelling.post.respelled(keepAlive) == keepAlive)
    let html = Data("<html>referenced_tweets</html>".utf8)
    #expect(SandboxSpelling.post.respelled(html) == html)
    let line = Data(#"{"data":{"id":"1","edit_history_tweet_ids":["1"]},"tweets":1}"#.utf8) + keepAlive
    let respelled = String(decoding: SandboxSpelling.post.respelled(line), as: UTF8.self)
    #expect(
      respelled == #"{"data":{"edit_history_post_ids":["1"],"id":"1"},"tweets":1}"# + "\r\n",
      "a stream line keeps its end; tweets outside includes stays")
    #expect(SandboxSpelling.tweet.respelled(line) == line)
    // 100,000 nested arrays (deeper than JSONSerialization reads) and 4 MB of text: no crash,
    // the first answered as it was.
    let deep = Data((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8)
    #expect(SandboxSpelling.post.respelled(deep) == deep)
    let big = Data(("{\"note_tweet\":{\"text\":\"" + String(repeating: "a", count: 4 << 20) + "\"}}").utf8)
    #expect(String(decoding: SandboxSpelling.post.respelled(big).prefix(14), as: UTF8.self) == #"{"note_post":{"#)
  }
}
