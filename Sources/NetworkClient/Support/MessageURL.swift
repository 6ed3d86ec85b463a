import PercentEncoding

/// How messages name a URL: secrets redacted (``Redaction/url(_:)``) and, past `limit`
/// characters, shortened to its origin, its path and a glimpse of its query, so that a lookup of
/// 100 ids does not print 1,600 characters. Every error and progress message that names a
/// request goes through it (``HTTPRequest/requestLine``, redirects, invalid requests).
///
/// ```swift
/// MessageURL.text("https://api.x.com/2/tweets?ids=1%2C2%2C3%2C...&tweet.fields=...", limit: 116)
/// // "https://api.x.com/2/tweets?ids=1,2…(100 values)&tweet.fields=…&expansions=…&…"
/// ```
public enum MessageURL {
  /// The longest a request line (method, space, URL) is in a message, in characters.
  public static let requestLineLimit = 120

  /// `url` as a message shows it, at most `limit` characters: as it is when it fits (secrets
  /// redacted); otherwise the origin and path (cut with `…` past half the limit), then the
  /// query's parameters in order, each value decoded and shortened (a list of more than two
  /// comma-separated values to its first two and their count: `ids=1,2…(100 values)`; any other
  /// value to 24 characters), or elided (`name=…`) when it does not fit, and `&…` for the
  /// parameters left out.
  public static func text(_ url: String, limit: Int = requestLineLimit) -> String {
    let redacted = Redaction.url(url)
    guard redacted.count > limit else { return redacted }
    let withoutFragment = redacted.prefix { $0 != "#" }
    let base = withoutFragment.prefix { $0 != "?" }
    var text = base.count > limit / 2 ? base.prefix(limit / 2 - 1) + "…" : String(base)
    let query = withoutFragment.dropFirst(base.count + 1)
    var separator = "?"
    for pair in query.split(separator: "&") {
      let name = pair.prefix { $0 != "=" }
      let value = pair.dropFirst(name.count + 1)
      let shown = String(name.prefix(30)) + (name.count > 30 ? "…" : "")
      // Room is kept for a final `&…` after each parameter.
      let candidates =
        name.count == pair.count
        ? [shown] : [shown + "=" + short(PercentEncoding.decode(value, plusAsSpace: true) ?? String(value)), shown + "=…"]
      guard let piece = candidates.first(where: { text.count + 1 + $0.count + 2 <= limit }) else {
        text += separator + "…"
        return text
      }
      text += separator + piece
      separator = "&"
    }
    return text
  }

  /// A value as a message shows it: a list of more than two comma-separated values as its first
  /// two and their count, anything else cut to 24 characters.
  private static func short(_ value: String) -> String {
    let items = value.split(separator: ",", omittingEmptySubsequences: false)
    if items.count > 2 {
      return items.prefix(2).map { $0.count > 20 ? $0.prefix(19) + "…" : String($0) }.joined(separator: ",") + "…(\(items.count) values)"
    }
    return value.count > 24 ? value.prefix(23) + "…" : value
  }
}
