import Foundation

/// RFC 3339 times (the internet profile of ISO 8601): what X's v2 API sends in `created_at` and
/// takes in `start_time`, what the archive stores, and what `tweets --start-time` reads.
///
/// Parsed and written with Foundation's format styles, which are values (safe to share between
/// threads) and cost about a microsecond a date.
///
/// ```swift
/// RFC3339.date(from: "2024-05-01T12:00:00.000Z")             // 2024-05-01 12:00:00 UTC
/// RFC3339.string(from: date)                                  // "2024-05-01T12:00:00Z"
/// RFC3339.millisecondString(from: date)                       // "2024-05-01T12:00:00.000Z"
/// ```
package enum RFC3339 {
  private static let withFractions = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
  private static let whole = Date.ISO8601FormatStyle()
  private static let day = Date.ISO8601FormatStyle().year().month().day()

  /// A date and time with a zone (`Z` or an offset), fractional seconds optional; `nil` for
  /// anything else, a date alone included.
  package static func date(from text: String) -> Date? {
    if let date = try? Date(text, strategy: withFractions) { return date }
    return try? Date(text, strategy: whole)
  }

  /// A date and time as ``date(from:)`` reads it, or a date alone (`2024-05-01`, midnight UTC).
  package static func date(fromTimeOrDay text: String) -> Date? {
    if let date = date(from: text) { return date }
    // The day style reads a prefix; only a date with nothing after it is a day.
    guard text.utf8.count == 10 else { return nil }
    return try? Date(text, strategy: day)
  }

  /// `2024-05-01T12:00:00Z`: whole seconds, UTC.
  package static func string(from date: Date) -> String { date.formatted(whole) }

  /// `2024-05-01T12:00:00.000Z`: milliseconds, UTC, the form of X's v2 answers.
  package static func millisecondString(from date: Date) -> String { date.formatted(withFractions) }

  /// `2024-05-01`: the UTC day.
  package static func dayString(from date: Date) -> String { date.formatted(day) }
}
