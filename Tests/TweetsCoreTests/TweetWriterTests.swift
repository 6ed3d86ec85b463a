import Foundation
import Testing
import XAPI

@testable import TweetsCore

@Suite("Output formats")
struct TweetWriterTests {
  func render(_ tweets: [Tweet], _ format: OutputFormat, color: Bool = false) -> String {
    let buffer = Captured()
    let terminal = Terminal(writeOut: buffer.append, writeError: { _ in }, readLine: { nil }, isInteractive: color, useColor: color)
    let writer = TweetWriter(format: format, terminal: terminal, now: Date(timeIntervalSince1970: 1_714_565_000))
    tweets.forEach(writer.write)
    writer.finish()
    return buffer.value
  }

  let tweet = Tweet(
    id: "1800000000000000000", text: "Hello, \"world\"\nsecond line", createdAt: Date(timeIntervalSince1970: 1_714_564_800),
    author: Author(id: "1001", username: "swift_fixture", name: "Swift, Fixture"), metrics: Metrics(retweets: 3, replies: 1, likes: 12, quotes: 0))

  @Test func jsonIsOneArrayWithTheDocumentedKeys() throws {
    let output = render([tweet, tweet], .json)
    let array = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
    #expect(array.count == 2)
    #expect(Set(array[0].keys) == ["id", "text", "created_at", "author", "metrics"])
    #expect(array[0]["created_at"] as? String == "2024-05-01T12:00:00Z")
    #expect(render([], .json) == "[]\n")
  }

  @Test func everyFieldInEveryFormat() throws {
    var rich = tweet
    rich.lang = "en"
    rich.conversationID = "1799999999999999999"
    rich.inReplyToUserID = "1002"
    rich.referencedTweets = [
      ReferencedTweet(kind: .repliedTo, id: "1799999999999999999"),
      ReferencedTweet(
        kind: .quoted, id: "1700000000000000000", tweet: Tweet(id: "1700000000000000000", text: "quoted", author: Author(id: "1003", username: "q"))),
    ]
    rich.entities = Entities(
      urls: [.init(url: "https://t.co/abc", expandedURL: "https://example.com/a", displayURL: "example.com/a")], mentions: ["q"], hashtags: ["swift"])
    rich.media = [Media(key: "3_1", type: "photo", url: "https://pbs.twimg.com/media/a.jpg", altText: "a cat")]
    rich.possiblySensitive = false
    rich.editHistoryTweetIDs = ["1800000000000000000"]
    rich.metrics?.bookmarks = 4
    rich.metrics?.impressions = 1_234
    rich.paidPartnership = false
    let object = try #require(try JSONSerialization.jsonObject(with: Data(render([rich], .jsonl).utf8)) as? [String: Any])
    #expect(
      Set(object.keys) == [
        "id", "text", "created_at", "author", "metrics", "lang", "conversation_id", "in_reply_to_user_id", "referenced_tweets", "entities", "media",
        "possibly_sensitive", "edit_history_tweet_ids", "paid_partnership",
      ])
    #expect(
      (object["metrics"] as? [String: Any])?["bookmarks"] as? Int == 4 && (object["metrics"] as? [String: Any])?["impressions"] as? Int == 1_234)
    let references = try #require(object["referenced_tweets"] as? [[String: Any]])
    #expect(references.map { $0["type"] as? String } == ["replied_to", "quoted"])
    #expect((references[1]["tweet"] as? [String: Any])?["text"] as? String == "quoted")
    let row = render([rich], .csv).components(separatedBy: "\r\n")[1]
    #expect(
      row.hasSuffix(
        ",en,1799999999999999999,1002,replied_to:1799999999999999999 quoted:1700000000000000000,https://example.com/a,q,swift,"
          + "photo:https://pbs.twimg.com/media/a.jpg,false,1800000000000000000,4,1234,false"))
    let text = render([rich], .text)
    #expect(text.contains("reply to 1799999999999999999 · quotes @q 1700000000000000000"))
    #expect(text.contains("[photo: a cat] https://pbs.twimg.com/media/a.jpg"))
  }

  @Test func jsonlIsOneObjectPerLine() {
    let lines = render([tweet, tweet, tweet], .jsonl).split(separator: "\n")
    #expect(lines.count == 3)
    #expect(lines.allSatisfy { $0.hasPrefix("{") && $0.hasSuffix("}") })
  }

  @Test func csvQuotesWhatNeedsQuoting() {
    let output = render([tweet], .csv)
    #expect(
      output == """
        id,created_at,author_id,author_username,author_name,text,retweets,replies,likes,quotes,lang,conversation_id,in_reply_to_user_id,\
        referenced_tweets,urls,mentions,hashtags,media,possibly_sensitive,edit_history_tweet_ids,bookmarks,impressions,paid_partnership\r
        1800000000000000000,2024-05-01T12:00:00Z,1001,swift_fixture,"Swift, Fixture","Hello, ""world""
        second line",3,1,12,0,,,,,,,,,,,,,\r

        """)
    #expect(render([], .csv) == TweetWriter.csvHeader + "\r\n")
  }

  @Test func textIsForPeopleAndColouredOnlyWhenAllowed() {
    let plain = render([tweet], .text)
    #expect(
      plain == """
        @swift_fixture Swift, Fixture · 3m
          Hello, "world"
          second line
          id 1800000000000000000 · 3 retweets · 12 likes · 1 reply

        """)
    #expect(render([tweet], .text, color: true).contains("\u{1B}[1m@swift_fixture\u{1B}[0m"))
  }

  @Test func relativeTimes() {
    let now = Date(timeIntervalSince1970: 1_000_000)
    let cases: [(TimeInterval, String)] = [(2, "now"), (42, "42s"), (300, "5m"), (7200, "2h"), (3 * 86_400, "3d"), (30 * 86_400, "1969-12-13")]
    for (ago, expected) in cases {
      #expect(TweetWriter.relative(now.addingTimeInterval(-ago), now: now) == expected)
    }
  }
}
