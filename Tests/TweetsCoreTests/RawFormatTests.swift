import Foundation
import Testing

@testable import TweetsCore

/// `--format raw`: X's own JSON, one response per line, nothing dropped or renamed.
@Suite("Raw format")
struct RawFormatTests {
  func lines(_ output: String) throws -> [Any] {
    try output.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) }
  }

  @Test func v2PagesAreXsOwnEnvelopes() async throws {
    let result = await InProcessTweets.run(["timeline", "--all", "--format", "raw"])
    #expect(result.status == 0, "\(result.err)")
    let pages = try lines(result.out).compactMap { $0 as? [String: Any] }
    #expect(pages.count == 2, "one line per response")
    let tweets = pages.flatMap { $0["data"] as? [[String: Any]] ?? [] }
    #expect(tweets.count == 180)
    // As X sends them: the fields asked for, the long post's note_tweet, includes and meta.
    #expect(tweets.allSatisfy { $0["edit_history_tweet_ids"] != nil && $0["author_id"] != nil && $0["public_metrics"] != nil })
    #expect(tweets.contains { ($0["note_tweet"] as? [String: Any])?["text"] != nil })
    #expect(pages.allSatisfy { ($0["includes"] as? [String: Any])?["users"] != nil && $0["meta"] != nil })
  }

  @Test func v1PagesAreArraysOfStatuses() async throws {
    let result = await InProcessTweets.run(["timeline", "--limit", "30", "--api", "1.1", "--format", "raw"])
    #expect(result.status == 0, "\(result.err)")
    let pages = try lines(result.out)
    #expect(!pages.isEmpty && pages.allSatisfy { $0 is [Any] })
    #expect(pages.compactMap { $0 as? [[String: Any]] }.flatMap { $0 }.allSatisfy { $0["id_str"] != nil && $0["user"] != nil })
  }

  @Test func showAndRefusals() async throws {
    let timeline = await InProcessTweets.run(["timeline", "--limit", "2", "--format", "jsonl"])
    let ids = try lines(timeline.out).compactMap { ($0 as? [String: Any])?["id"] as? String }
    let show = await InProcessTweets.run(["show"] + ids + ["--format", "raw"])
    #expect(show.status == 0, "\(show.err)")
    let lookup = try #require(try lines(show.out).first as? [String: Any])
    #expect((lookup["data"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ids)
    for arguments in [["whoami", "--format", "raw"], ["post", "hello", "--format", "raw"], ["show", "1", "--api", "1.1", "--format", "raw"]] {
      let refused = await InProcessTweets.run(arguments)
      #expect(refused.status == 2 && refused.err.contains("--format raw"), "\(arguments): \(refused.err)")
    }
  }
}
