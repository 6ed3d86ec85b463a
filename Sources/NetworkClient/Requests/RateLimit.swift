import DateFormats
import Foundation

/// The rate-limit state a server reports in `x-rate-limit-limit`, `x-rate-limit-remaining` and
/// `x-rate-limit-reset` (epoch seconds), as X/Twitter and many others do.
///
/// ```swift
/// if let limit = response.rateLimit, limit.remaining == 0 { print("resets at", limit.reset) }
/// ```
public struct RateLimit: Sendable, Hashable {
  /// Requests allowed per window (`x-rate-limit-limit`); `nil` when the header is missing or not a number.
  public var limit: Int?
  /// Requests left in the current window (`x-rate-limit-remaining`); at 0 the server refuses requests until
  /// ``reset``. `nil` when the header is missing or not a number.
  public var remaining: Int?
  /// When the current window ends and the count starts again (`x-rate-limit-reset`, sent as epoch seconds);
  /// `nil` when the header is missing or not a number.
  public var reset: Date?

  /// Creates a rate-limit state from values already parsed; each is `nil` (not reported) by default.
  public init(limit: Int? = nil, remaining: Int? = nil, reset: Date? = nil) {
    self.limit = limit
    self.remaining = remaining
    self.reset = reset
  }

  /// `nil` when none of the three headers is present.
  public init?(headers: HTTPHeaders) {
    let limit = headers["x-rate-limit-limit"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    let remaining = headers["x-rate-limit-remaining"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    let reset = headers["x-rate-limit-reset"].flatMap { TimeInterval($0.trimmingCharacters(in: .whitespaces)) }.map(Date.init(timeIntervalSince1970:))
    guard limit != nil || remaining != nil || reset != nil else { return nil }
    self.init(limit: limit, remaining: remaining, reset: reset)
  }
}

/// When a server says to try again: `Retry-After` (seconds or an HTTP date, RFC 9110 10.2.3),
/// else, when the rate limit is used up, `x-rate-limit-reset`.
public enum RetryAfter {
  /// Seconds from `now` until the server accepts requests again; `nil` when it does not say.
  /// Never negative: a time in the past means "now".
  ///
  /// `Retry-After` counts for any status. The rate-limit reset counts only for a 429 or when
  /// `x-rate-limit-remaining` is 0: X sends the three rate-limit headers on every answer of a
  /// limited endpoint, errors included, and on a 503 with requests left the reset is merely the
  /// end of the current 15-minute window, not a time to wait for.
  ///
  /// ```swift
  /// RetryAfter.delay(in: ["Retry-After": "7"], statusCode: 503)  // 7
  /// ```
  public static func delay(in headers: HTTPHeaders, statusCode: Int, now: Date = Date()) -> TimeInterval? {
    if let value = headers["Retry-After"]?.trimmingCharacters(in: .whitespaces) {
      if let seconds = TimeInterval(value), seconds.isFinite { return max(0, seconds) }
      if let date = httpDate(value) { return max(0, date.timeIntervalSince(now)) }
    }
    if let limit = RateLimit(headers: headers), let reset = limit.reset, statusCode == 429 || limit.remaining == 0 {
      return max(0, reset.timeIntervalSince(now))
    }
    return nil
  }

  /// Parses the three HTTP date forms (IMF-fixdate, RFC 850, asctime).
  public static func httpDate(_ text: String) -> Date? { HTTPDate.date(from: text) }
}
