import Foundation

/// The `created_at` form of X's v1.1 API: `Wed May 01 12:00:00 +0000 2024`.
///
/// ```swift
/// TwitterV1Date.date(from: "Wed May 01 12:00:00 +0000 2024")   // 2024-05-01 12:00:00 UTC
/// TwitterV1Date.string(from: date)                             // "Wed May 01 12:00:00 +0000 2024"
/// ```
package enum TwitterV1Date {
  private static let posix = Locale(identifier: "en_US_POSIX")

  private static let written = Date.VerbatimFormatStyle(
    format:
      "\(weekday: .abbreviated) \(month: .abbreviated) \(day: .twoDigits) \(hour: .twoDigits(clock: .twentyFourHour, hourCycle: .zeroBased)):\(minute: .twoDigits):\(second: .twoDigits) +0000 \(year: .defaultDigits)",
    locale: posix, timeZone: .gmt, calendar: Calendar(identifier: .gregorian))

  private static let read = Date.ParseStrategy(
    format:
      "\(weekday: .abbreviated) \(month: .abbreviated) \(day: .twoDigits) \(hour: .twoDigits(clock: .twentyFourHour, hourCycle: .zeroBased)):\(minute: .twoDigits):\(second: .twoDigits) \(timeZone: .iso8601(.short)) \(year: .defaultDigits)",
    locale: posix, timeZone: .gmt)

  /// The date, with whatever offset it carries; `nil` for another form.
  package static func date(from text: String) -> Date? { try? Date(text, strategy: read) }

  /// The date in UTC, as X writes it.
  package static func string(from date: Date) -> String { date.formatted(written) }
}
