import Foundation

/// HTTP dates (RFC 9110 section 5.6.7): the `Date` and `Retry-After` headers.
///
/// Reads the three forms a server may send (IMF-fixdate, the obsolete RFC 850 and asctime
/// forms) and writes IMF-fixdate, always in GMT and English whatever the machine's locale.
///
/// ```swift
/// HTTPDate.date(from: "Sun, 06 Nov 1994 08:49:37 GMT")   // 1994-11-06 08:49:37 UTC
/// HTTPDate.string(from: date)                             // "Wed, 01 May 2024 12:00:00 GMT"
/// ```
package enum HTTPDate {
  private static let posix = Locale(identifier: "en_US_POSIX")
  private static let gregorian = Calendar(identifier: .gregorian)

  private static let imfFixdate = Date.VerbatimFormatStyle(
    format:
      "\(weekday: .abbreviated), \(day: .twoDigits) \(month: .abbreviated) \(year: .defaultDigits) \(hour: .twoDigits(clock: .twentyFourHour, hourCycle: .zeroBased)):\(minute: .twoDigits):\(second: .twoDigits) GMT",
    locale: posix, timeZone: .gmt, calendar: gregorian)

  private static let forms: [Date.ParseStrategy] = [
    Date.ParseStrategy(
      format:
        "\(weekday: .abbreviated), \(day: .twoDigits) \(month: .abbreviated) \(year: .defaultDigits) \(hour: .twoDigits(clock: .twentyFourHour, hourCycle: .zeroBased)):\(minute: .twoDigits):\(second: .twoDigits) GMT",
      locale: posix, timeZone: .gmt),
    Date.ParseStrategy(
      format:
        "\(weekday: .wide), \(day: .twoDigits)-\(month: .abbreviated)-\(year: .twoDigits) \(hour: .twoDigits(clock: .twentyFourHour, hourCycle: .zeroBased)):\(minute: .twoDigits):\(second: .twoDigits) GMT",
      locale: posix, timeZone: .gmt),
    Date.ParseStrategy(
      format:
        "\(weekday: .abbreviated) \(month: .abbreviated) \(day: .defaultDigits) \(hour: .twoDigits(clock: .twentyFourHour, hourCycle: .zeroBased)):\(minute: .twoDigits):\(second: .twoDigits) \(year: .defaultDigits)",
      locale: posix, timeZone: .gmt),
  ]

  /// The date in any of the three forms, or `nil`.
  package static func date(from text: String) -> Date? {
    for form in forms {
      if let date = try? Date(text, strategy: form) { return date }
    }
    return nil
  }

  /// `Wed, 01 May 2024 12:00:00 GMT` (IMF-fixdate).
  package static func string(from date: Date) -> String { date.formatted(imfFixdate) }
}
