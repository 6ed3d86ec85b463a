import Foundation
import NetworkClient

/// What one request to X is billed, from its method and URL: a lookup of the request's
/// ``XEndpoint`` row, the one place the package says which operation charges what, read by the
/// budget (``XBudgetBehavior``) before a request is sent and by the ledger after it is
/// answered.
///
/// Reads are billed per item of the answer's `data` (``XBilling/perResource(_:owned:atMost:)``);
/// `atMost` is the worst case the request can return, from its `ids`, its `max_results`, or the
/// endpoint's largest page when it sends none. Writes and counts are billed per request.
/// Where X's documentation is silent, the rows assume (see ``XPricing``); an operation the
/// rows price as unpriced, or a path no row has, is ``XBilling/unpriced``, which a budget refuses to send rather than
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
  /// An operation X's price list names no price for, or a path no ``XEndpoint`` row has.
  case unpriced

  /// How `request` is billed; `ownerUserID` is the user who owns the app (whose own data X
  /// bills as owned reads), `nil` for app-only requests. The request's row
  /// (``XEndpoint/match(_:path:)``: method and path template) says what the operation bills;
  /// the request says how much: its `max_results` (v1.1 `count`) within the row's page, the
  /// ids it lists, the text of the post it creates. A path no row has is ``unpriced``, except
  /// OAuth's (`/oauth/…`, `/oauth2/…`), which are free.
  public static func of(_ request: HTTPRequest, ownerUserID: String?) -> XBilling {
    guard let (endpoint, captures) = XEndpoint.match(request.method, path: request.url.path) else {
      let first = XEndpoint.apiSegments(request.url.path).first
      return first == "oauth" || first == "oauth2" ? .free : .unpriced
    }
    let query = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
    func value(_ name: String) -> String? { query.first { $0.name == name }?.value }
    switch endpoint.charge {
    case .free, .streamed: return .free
    case .unpriced: return .unpriced
    case .request(let kind): return .perRequest(kind)
    case .postCreate: return .perRequest(containsURL(request.body) ? .postCreateWithURL : .postCreate)
    case .resources(let kind, let ownable, let count):
      let owned = ownable && ownerUserID != nil && captures.first == ownerUserID
      switch count {
      case .one:
        return .perResource(kind, owned: owned, atMost: 1)
      case .page(let largest):
        let asked = value("max_results").flatMap(Int.init) ?? value("count").flatMap(Int.init)
        return .perResource(kind, owned: owned, atMost: min(asked ?? largest, largest))
      case .listed(let names, let otherwise):
        let listed = names.compactMap { value($0).map { $0.split(separator: ",").count } }
        return .perResource(kind, owned: owned, atMost: listed.isEmpty ? otherwise : listed.reduce(0, +))
      }
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
