/// The three date spellings of the API, computed from epoch seconds without formatters (which
/// are neither cheap nor, everywhere, safe to share between threads).
enum SandboxDates {
  struct Parts {
    var year: Int64, month: Int, day: Int, hour: Int, minute: Int, second: Int
    /// 0 is Sunday.
    var weekday: Int
  }

  static let dayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
  static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

  /// The UTC calendar fields of `seconds` since 1970 (proleptic Gregorian).
  static func parts(_ seconds: Int64) -> Parts {
    let days = floorDiv(seconds, 86_400)
    let rest = seconds - days * 86_400
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468
    let era = floorDiv(z, 146_097)
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    let weekday = Int(((days + 4) % 7 + 7) % 7)
    return Parts(
      year: year, month: Int(month), day: Int(day), hour: Int(rest / 3600), minute: Int(rest % 3600 / 60),
      second: Int(rest % 60), weekday: weekday)
  }

  /// Seconds since 1970 of a UTC date and time.
  static func timestamp(year: Int64, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) -> Int64 {
    // Howard Hinnant's days_from_civil.
    let y = year - (month <= 2 ? 1 : 0)
    let era = floorDiv(y, 400)
    let yoe = y - era * 400
    let m = Int64(month)
    let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    let days = era * 146_097 + doe - 719_468
    return days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
  }

  /// `Wed, 01 May 2024 12:00:00 GMT` (the `Date` header, RFC 9110 IMF-fixdate).
  static func http(_ seconds: Int64) -> String {
    let p = parts(seconds)
    return "\(dayNames[p.weekday]), \(pad(p.day)) \(monthNames[p.month - 1]) \(p.year) \(pad(p.hour)):\(pad(p.minute)):\(pad(p.second)) GMT"
  }

  /// `2024-05-01T12:00:00.000Z` (v2).
  static func iso(_ seconds: Int64) -> String {
    let p = parts(seconds)
    return "\(p.year)-\(pad(p.month))-\(pad(p.day))T\(pad(p.hour)):\(pad(p.minute)):\(pad(p.second)).000Z"
  }

  /// `Wed May 01 12:00:00 +0000 2024` (v1.1).
  static func v1(_ seconds: Int64) -> String {
    let p = parts(seconds)
    return "\(dayNames[p.weekday]) \(monthNames[p.month - 1]) \(pad(p.day)) \(pad(p.hour)):\(pad(p.minute)):\(pad(p.second)) +0000 \(p.year)"
  }

  /// Parses the RFC 3339 times v2 accepts in `start_time`/`end_time`: UTC only, fractional
  /// seconds ignored (`2024-05-01T12:00:00Z`, `...00.000Z`, `...00+00:00`).
  static func parseISO(_ text: String) -> Int64? {
    let bytes = Array(text.utf8)
    guard bytes.count >= 20 else { return nil }
    func number(_ range: Range<Int>) -> Int? {
      var value = 0
      for index in range {
        let byte = bytes[index]
        guard byte >= 0x30 && byte <= 0x39 else { return nil }
        value = value * 10 + Int(byte - 0x30)
      }
      return value
    }
    let separators: [(Int, UInt8)] = [(4, 0x2D), (7, 0x2D), (10, 0x54), (13, 0x3A), (16, 0x3A)]
    guard separators.allSatisfy({ bytes[$0.0] == $0.1 }),
      let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
      let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
      (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
    else { return nil }
    var index = 19
    if bytes[index] == 0x2E {  // "."
      index += 1
      let start = index
      while index < bytes.count, bytes[index] >= 0x30 && bytes[index] <= 0x39 { index += 1 }
      guard index > start else { return nil }
    }
    let zone = String(decoding: bytes[index...], as: UTF8.self)
    guard ["Z", "+00:00", "-00:00", "+0000", "-0000"].contains(zone) else { return nil }
    return timestamp(year: Int64(year), month: month, day: day, hour: hour, minute: minute, second: second)
  }

  private static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

  private static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
  }
}
