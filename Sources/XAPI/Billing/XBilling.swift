import Foundation
import NetworkClient

/// What one request to X is billed, from its method and URL: the one table of the package that
/// knows which endpoint charges what, read by the budget (``XBudgetBehavior``) before a request
/// is sent and by the ledger after it is answered.
///
/// Reads are billed per item of the answer's `data` (``XBilling/perResource(_:owned:atMost:)``);
/// `atMost` is the worst case the request can return, from its `ids`, its `max_results`, or the
/// endpoint's largest page when it sends none. Writes and counts are billed per request.
/// Where X's documentation is silent, the table assumes (see ``XPricing``); an endpoint the
/// table does not know is ``XBilling/unpriced``, which a budget refuses to send rather than
/// guess.
///
/// ```swift
/// let url = URL(string: "https://api.x.com/2/users/42/tweets?max_results=100")!
/// XBilling.of(HTTPRequest(method: .get, url: url), ownerUserID: "42")
/// // .perResource(.post, owned: true, atMost: 100)
/// ```
public enum XBilling: Sendable, Hashable {
  /// Not billed: OAuth, usage, stream rules, media upload itself.
  case free
  /// Each item of `data` is billed once per UTC day: at most `atMost` of them.
  case perResource(XResourceKind, owned: Bool, atMost: Int)
  /// Billed once per request.
  case perRequest(XRequestKind)
  /// An endpoint not in this table: its price is unknown.
  case unpriced

  /// How `request` is billed; `ownerUserID` is the user who owns the app (whose own data X
  /// bills as owned reads), `nil` for app-only requests.
  public static func of(_ request: HTTPRequest, ownerUserID: String?) -> XBilling {
    let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
    let query = components?.queryItems ?? []
    func value(_ name: String) -> String? { query.first { $0.name == name }?.value }
    func count(_ name: String) -> Int? { value(name).map { $0.split(separator: ",").count } }
    let path = Self.apiPath(request.url.path)
    let pageSize = value("max_results").flatMap(Int.init) ?? value("count").flatMap(Int.init)
    switch (request.method, path.first) {
    case (.get, "2"): return v2Read(Array(path.dropFirst()), count: count, pageSize: pageSize, ownerUserID: ownerUserID)
    case (.get, "1.1"): return v1Read(Array(path.dropFirst()), count: count, pageSize: pageSize)
    case (_, "oauth"), (_, "oauth2"): return .free
    default: return write(request, Array(path.dropFirst()))
    }
  }

  /// The path from its API version on (`2/users/42/tweets`), whatever prefix the base URL has.
  private static func apiPath(_ path: String) -> [Substring] {
    let segments = path.split(separator: "/")
    guard let start = segments.firstIndex(where: { $0 == "2" || $0 == "1.1" || $0 == "oauth" || $0 == "oauth2" }) else { return [] }
    return Array(segments[start...]).map { $0.hasSuffix(".json") ? $0.dropLast(5) : $0 }
  }

  private static func v2Read(_ path: [Substring], count: (String) -> Int?, pageSize: Int?, ownerUserID: String?) -> XBilling {
    func page(_ largest: Int) -> Int { min(pageSize ?? largest, largest) }
    switch path.count {
    case 1 where path[0] == "tweets": return .perResource(.post, owned: false, atMost: count("ids") ?? 100)
    case 1 where path[0] == "users": return .perResource(.user, owned: false, atMost: count("ids") ?? 100)
    case 2 where path[0] == "users" && path[1] == "by": return .perResource(.user, owned: false, atMost: count("usernames") ?? 100)
    case 2 where path[0] == "usage": return .free
    // Batch compliance: X's price list names none of its endpoints (pricing.mdx), and its
    // results are what the developer terms require a dataset to follow.
    case 2...4 where path[0] == "compliance": return .free
    case 1 where path[0] == "connections": return .free  // the stream's connections (`x-api/connections`)
    case 2 where path[0] == "users": return .perResource(.user, owned: false, atMost: 1)  // users/me, users/{id}
    case 2 where path[0] == "tweets": return .perResource(.post, owned: false, atMost: 1)  // tweets/{id}
    case 3 where path[0] == "tweets" && path[2] == "stream": return .free  // the stream bills posts as they arrive
    case 3 where path[0] == "tweets" && path[1] == "search": return .perResource(.post, owned: false, atMost: page(path[2] == "all" ? 500 : 100))
    case 3 where path[0] == "tweets" && path[1] == "counts": return path[2] == "all" ? .perRequest(.countsAll) : .perRequest(.countsRecent)
    case 3 where path[0] == "tweets" && path[2] == "quote_tweets": return .perResource(.post, owned: false, atMost: page(100))
    case 3 where path[0] == "lists" && path[2] == "tweets": return .perResource(.post, owned: false, atMost: page(100))
    case 4 where path[0] == "users" && path[1] == "by" && path[2] == "username": return .perResource(.user, owned: false, atMost: 1)
    case 3 where path[0] == "users":
      let owned = ownerUserID != nil && path[1] == ownerUserID!
      switch path[2] {
      case "tweets", "mentions", "liked_tweets", "bookmarks": return .perResource(.post, owned: owned, atMost: page(100))
      case "followers", "following": return .perResource(.follow, owned: owned, atMost: page(1000))
      case "owned_lists", "followed_lists", "list_memberships", "pinned_lists": return .perResource(.list, owned: owned, atMost: page(100))
      case "blocking": return .perResource(.block, owned: owned, atMost: page(1000))
      case "muting": return .perResource(.mute, owned: owned, atMost: page(1000))
      default: return .unpriced
      }
    case 4 where path[0] == "users" && path[2] == "timelines": return .perResource(.post, owned: false, atMost: page(100))
    // Bookmark folders: X's price table names no price for the list of folders; a folder's
    // posts (ids only) are counted as bookmarks are, owned posts.
    case 4 where path[0] == "users" && path[2] == "bookmarks" && path[3] == "folders": return .free
    case 5 where path[0] == "users" && path[2] == "bookmarks" && path[3] == "folders":
      return .perResource(.post, owned: ownerUserID != nil && path[1] == ownerUserID!, atMost: page(100))
    case 4 where path[0] == "tweets" && path[2] == "stream": return .free  // stream rules; posts are billed as they arrive
    default: return .unpriced
    }
  }

  private static func v1Read(_ path: [Substring], count: (String) -> Int?, pageSize: Int?) -> XBilling {
    switch path.joined(separator: "/") {
    case "statuses/user_timeline", "statuses/home_timeline", "statuses/mentions_timeline", "favorites/list":
      return .perResource(.post, owned: false, atMost: min(pageSize ?? 200, 200))
    case "search/tweets": return .perResource(.post, owned: false, atMost: min(pageSize ?? 100, 100))
    case "statuses/lookup": return .perResource(.post, owned: false, atMost: count("id") ?? 100)
    case "statuses/show": return .perResource(.post, owned: false, atMost: 1)
    case "users/lookup": return .perResource(.user, owned: false, atMost: (count("user_id") ?? 0) + (count("screen_name") ?? 0))
    case "users/show", "account/verify_credentials": return .perResource(.user, owned: false, atMost: 1)
    case "application/rate_limit_status": return .free
    default: return .unpriced
    }
  }

  private static func write(_ request: HTTPRequest, _ path: [Substring]) -> XBilling {
    switch (request.method, path.first, path.count) {
    case (.post, "tweets", 1): return .perRequest(containsURL(request.body) ? .postCreateWithURL : .postCreate)
    case (.delete, "tweets", 2): return .perRequest(.interactionDelete)
    case (.post, "statuses", _) where path.last == "destroy": return .perRequest(.interactionDelete)
    case (.post, "statuses", _) where path.last == "update": return .perRequest(containsURL(request.body) ? .postCreateWithURL : .postCreate)
    case (.post, "media", _) where path.last == "metadata" || path.last == "create": return .perRequest(.mediaMetadata)
    case (.post, "media", _), (.put, "media", _): return .free  // the upload itself
    case (.post, "tweets", 4): return .free  // stream rules
    case (.post, "oauth2", _), (.post, "oauth", _), (.post, "compliance", _), (.put, "compliance", _), (.delete, "compliance", _): return .free
    case (.delete, "connections", _): return .free  // ending stream connections
    case (.post, "users", 3) where path[2] == "bookmarks": return .perRequest(.bookmark)
    case (.delete, "users", 4) where path[2] == "bookmarks": return .perRequest(.bookmark)
    case (.post, "users", 3): return .perRequest(.interaction)  // likes, retweets, following, muting, blocking
    case (.delete, "users", 4): return .perRequest(.interactionDelete)
    default: return .unpriced
    }
  }

  /// Whether a post's text holds what X links as a URL. X bills such a post at the URL price and
  /// links bare domains too (`example.com`), so anything shaped like a host name counts: a word,
  /// a dot, two or more letters. Overestimating a post's price is the safe side of a budget.
  static func containsURL(_ body: Data?) -> Bool {
    guard let body else { return false }
    let text =
      (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["text"] as? String
      ?? URLComponents(string: "?" + String(decoding: body, as: UTF8.self).replacingOccurrences(of: "+", with: "%20"))?
      .queryItems?.first { $0.name == "status" }?.value ?? ""
    return containsURL(text: text)
  }

  /// Whether a post's `text` holds what X links as a URL (see ``XPricing/priceOfPost(_:)``).
  static func containsURL(text: String) -> Bool {
    text.range(of: #"[A-Za-z0-9-]\.[A-Za-z]{2,}"#, options: .regularExpression) != nil
  }
}
