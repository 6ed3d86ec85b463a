import DateFormats
import Foundation

/// `since_id`, `until_id` (exclusive) and `start_time` (inclusive), `end_time` (exclusive).
struct TweetWindow {
  var since: UInt64?
  var until: UInt64?
  var start: Int64?
  var end: Int64?

  init(_ query: [String: String]) throws(SandboxRefusal) {
    for name in ["since_id", "until_id"] {
      if let value = query[name], let bad = badID(value, parameter: name) { throw SandboxRefusal(bad) }
    }
    for name in ["start_time", "end_time"] {
      if let value = query[name], Self.utcSeconds(value) == nil {
        throw SandboxRefusal.invalid(name, value, "Invalid '\(name)':'\(value)'. '\(name)' must be a valid RFC 3339 date-time")
      }
    }
    since = query["since_id"].flatMap { UInt64($0) }
    until = query["until_id"].flatMap { UInt64($0) }
    start = query["start_time"].flatMap(Self.utcSeconds)
    end = query["end_time"].flatMap(Self.utcSeconds)
  }

  /// Seconds since 1970 of an RFC 3339 time in UTC (`Z`, `+00:00` or `+0000`), fractional
  /// seconds dropped; `nil` for another zone or form, which X refuses here too.
  static func utcSeconds(_ text: String) -> Int64? {
    guard ["Z", "+00:00", "-00:00", "+0000", "-0000"].contains(where: text.hasSuffix) else { return nil }
    return RFC3339.date(from: text)?.epochSeconds
  }

  /// Within both the ids and the times.
  func contains(_ tweet: SandboxTweet) -> Bool {
    containsID(tweet) && (start.map { tweet.createdAt >= $0 } ?? true) && (end.map { tweet.createdAt < $0 } ?? true)
  }

  /// Within the ids.
  func containsID(_ tweet: SandboxTweet) -> Bool {
    (since.map { tweet.id > $0 } ?? true) && (until.map { tweet.id < $0 } ?? true)
  }
}
