import Foundation

/// When an E\*TRADE access token stops working, and the paths that renew and revoke it.
///
/// Why: E\*TRADE's tokens do not say when they expire. A token ends at midnight US Eastern (of
/// the day it was issued there, daylight saving time included), and before that after two hours
/// without a request; a signed GET of ``renewPath`` revives an idle token until midnight, and
/// ``revokePath`` ends it. A program that knows the moment asks the user again, or renews,
/// before its requests start failing.
///
/// ```swift
/// let expiry = ETradeTokenLifetime.expiry(issued: issuedAt, lastUsed: lastRequestAt)
/// if expiry < Date().addingTimeInterval(60) {
///   _ = try await client.send(Request<Data>(path: ETradeTokenLifetime.renewPath))  // signed with the token
/// }
/// ```
public enum ETradeTokenLifetime {
  /// How long a token may stay unused: two hours.
  public static let idleLimit: TimeInterval = 2 * 60 * 60
  /// The path (under the API's URL) whose signed GET revives an idle token until midnight.
  public static let renewPath = "oauth/renew_access_token"
  /// The path whose signed GET ends the token.
  public static let revokePath = "oauth/revoke_access_token"

  /// US Eastern time, in which E\*TRADE's day ends.
  static let eastern = TimeZone(identifier: "America/New_York")!

  /// The next midnight in US Eastern time after `date`.
  public static func midnightAfter(_ date: Date) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = eastern
    let start = calendar.startOfDay(for: date)
    return calendar.date(byAdding: .day, value: 1, to: start) ?? start.addingTimeInterval(24 * 60 * 60)
  }

  /// When a token issued (or last renewed) at `issued` and last used at `lastUsed` stops
  /// working: the midnight US Eastern after `issued`, or two hours after `lastUsed`, whichever
  /// comes first.
  public static func expiry(issued: Date, lastUsed: Date) -> Date {
    min(midnightAfter(issued), max(issued, lastUsed).addingTimeInterval(idleLimit))
  }
}
