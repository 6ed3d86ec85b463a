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

  @Test func jsonlIsOneObjectPerLine() {
    let lines = render([tweet, tweet, tweet], .jsonl).split(separator: "\n")
    #expect(lines.count == 3)
    #expect(lines.allSatisfy { $0.hasPrefix("{") && $0.hasSuffix("}") })
  }

  @Test func csvQuotesWhatNeedsQuoting() {
    let output = render([tweet], .csv)
    #expect(
      output == """
        id,created_at,author_id,author_username,author_name,text,retweets,replies,likes,quotes\r
        1800000000000000000,2024-05-01T12:00:00Z,1001,swift_fixture,"Swift, Fixture","Hello, ""world""
        second line",3,1,12,0\r

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
