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
    let search = await InProcessTweets.run(["search", "from:sandbox_user", "--all", "--format", "jsonl", "--start-time", start, "--end-time", end])
    #expect(search.status == 0, "\(search.err)")
    // Each run makes its own sandbox, whose posts are dated from its clock: on a busy machine a
    // later run's posts may be a second or more later. Every post given is inside the window,
    // start inclusive, end exclusive; and where a run's posts are dated as the first run's were,
    // they are exactly the five.
    let dated = Dictionary(all.map { ($0.id, $0.createdAt) }, uniquingKeysWith: { first, _ in first })
    for (name, run) in [("timeline", tweets(windowed.out)), ("search", tweets(search.out))] {
      #expect(!run.isEmpty && run.allSatisfy { $0.createdAt >= start && $0.createdAt < end }, "\(name): \(run)")
      if run.allSatisfy({ dated[$0.id] == $0.createdAt }) {
        #expect(run.map(\.id) == all[5...9].map(\.id), "\(name): start inclusive, end exclusive")
      }
    }
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
