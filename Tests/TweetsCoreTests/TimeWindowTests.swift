import Foundation
import Testing

@testable import TweetsCore

/// `--start-time` and `--end-time`: X's `start_time` (inclusive) and `end_time` (exclusive), v2 only.
@Suite("Time windows")
struct TimeWindowTests {
  /// (id, created_at) of each JSON line.
  func tweets(_ jsonl: String) -> [(id: String, createdAt: String)] {
    jsonl.split(separator: "\n").compactMap { line in
      guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        let id = object["id"] as? String, let date = object["created_at"] as? String
      else { return nil }
      return (id, date)
    }
  }

  @Test func onlyTweetsInsideTheWindow() async throws {
    let all = tweets(await InProcessTweets.run(["timeline", "sandbox_user", "--all", "--format", "jsonl"]).out)
    #expect(all.count == 60)
    // Newest first: the window holds the 10th newest up to (not including) the 5th.
    let start = all[9].createdAt, end = all[4].createdAt
    let windowed = await InProcessTweets.run(["timeline", "sandbox_user", "--all", "--format", "jsonl", "--start-time", start, "--end-time", end])
    #expect(windowed.status == 0, "\(windowed.err)")
    #expect(tweets(windowed.out).map(\.id) == all[5...9].map(\.id), "start inclusive, end exclusive")
    let search = await InProcessTweets.run(["search", "from:sandbox_user", "--all", "--format", "jsonl", "--start-time", start, "--end-time", end])
    #expect(tweets(search.out).map(\.id) == all[5...9].map(\.id), "\(search.err)")
  }

  @Test(arguments: [
    (["--start-time", "yesterday"], "--start-time takes an ISO 8601 time"),
    (["--start-time", "2024-05-02", "--end-time", "2024-05-01"], "--start-time must come before --end-time"),
    (["--start-time", "2024-05-01", "--api", "1.1"], "need --api v2"),
  ])
  func badWindowsAreUsageErrors(arguments: [String], message: String) async throws {
    let result = await InProcessTweets.run(["timeline"] + arguments)
    #expect(result.status == 2 && result.err.contains(message), "\(result.err)")
  }
}
