import DateFormats
import Foundation
import XAPI

/// What a route serves, as X bills it: the declaration each ``SandboxRoute`` row carries, from
/// X's pages (`x-api/getting-started/pricing.mdx`, `x-api/fundamentals/post-cap.mdx`, as
/// summarized in the project's reference), never from the client's rows (`XEndpoint`, which
/// `XBilling` looks up), so that the sandbox checks the client's beliefs instead of repeating
/// them: `SandboxRowsTests` compares the two for every row.
///
/// The dispatch reads it for every route alike (``SandboxState/billingRefusal(_:)`` before the
/// handler, ``SandboxState/bill(_:answer:context:)`` after it): handlers know nothing of money.
///
/// ```swift
/// SandboxRoute(method: "GET", pattern: ["2", "users", "*", "tweets"], name: "v2_user_tweets", limit: 1500,
///              billing: .resources(.post, ownable: true)) { $0.v2UserTweets($1) }
/// ```
enum SandboxBillable: Sendable {
  /// Not billed: stream rules, media upload itself, usage.
  case free
  /// Each item of a successful answer's `data` (v1.1: each status or user it returns) is a
  /// resource of `kind`, charged once per UTC day. With `ownable`, it is an owned read when the
  /// path's user (the first capture) is the authenticated user and that user owns the app (the
  /// demo user owns the demo app), as X's owned-read list has it for `/2/users/{id}/tweets`,
  /// `mentions`, `liked_tweets`, `followers` and `following`.
  case resources(XResourceKind, ownable: Bool = false)
  /// One charge of `kind` per successful request.
  case request(XRequestKind)
  /// A post created: `post_create`, or `post_create_with_url` when the created post's text
  /// holds a link as the sandbox's own entities find it (the `urls` of its `entities`:
  /// `http://` and `https://` links only; X's twitter-text also links a bare `example.com`,
  /// which the sandbox neither links nor bills as a URL).
  case postCreate
  /// X's price list names no price for it (creating and managing a list): not charged.
  case unpriced

  /// Whether the request reads posts: the post cap refuses only those.
  var readsPosts: Bool {
    if case .resources(.post, _) = self { return true }
    return false
  }
}

extension SandboxState {
  // MARK: - Lock held

  /// The refusal X would answer a request billed as `billable` with, before serving it: 402
  /// `CreditsDepleted` once the balance is spent, 429 `usage-capped` past the post cap for a
  /// post read; `nil` when the sandbox does not bill, or for a free route.
  func billingRefusal(_ billable: SandboxBillable) -> SandboxBilling.Refusal? {
    if case .free = billable { return nil }
    guard billing.isMetered else { return nil }
    return billing.refusal(readsPosts: billable.readsPosts)
  }

  /// Charges what `answer` served, as `billable` says, on the sandbox clock's UTC day
  /// (`context.now`): nothing for a failed answer (not 2xx), as X bills no failed request, nor
  /// when the sandbox does not bill. `includes` are not billed (X's pages are silent: the
  /// client assumes the same).
  mutating func bill(_ billable: SandboxBillable, answer: SandboxResponse, context: RouteContext) {
    guard billing.isMetered, (200..<300).contains(answer.status) else { return }
    switch billable {
    case .free, .unpriced:
      return
    case .resources(let kind, let ownable):
      let owner = context.caller.userID
      let owned = ownable && owner == SandboxData.mainUserID && context.captures.first == owner
      billing.charge(ids: answer.servedIDs, kind: kind, owned: owned, day: Self.billingDay(context.now))
    case .request(let kind):
      billing.charge(request: kind)
    case .postCreate:
      let created = answer.servedIDs.first.flatMap { tweet(id: $0) }
      let linked = created.map { SandboxText.entities(of: $0).contains(where: \.isLink) } ?? false
      billing.charge(request: linked ? .postCreateWithURL : .postCreate)
    }
  }

  /// The UTC day X deduplicates charges in (`YYYY-MM-DD`), of a time on the sandbox's clock.
  static func billingDay(_ now: Int64) -> String {
    RFC3339.dayString(from: Date(epochSeconds: now))
  }
}

extension SandboxBilling.Refusal {
  /// X's answer: the problem, with the rate-limit `headers` of the request (a 429
  /// `usage-capped` shows headroom in them, as X's does).
  func response(headers: [(String, String)]) -> SandboxResponse {
    SandboxResponse(status: status, contentType: SandboxResponse.v2ContentType, body: Data(body.utf8), headers: headers)
  }
}

extension JSON {
  /// The ids of the resources an answer served, for billing: each item of a v2 answer's `data`
  /// (an object or a list of them, by `id`); for v1.1 (`v1`), each object of a list, of
  /// `statuses`, or the object itself, by `id_str`. Nothing of `includes`.
  func servedIDs(v1: Bool) -> [String] {
    let key = v1 ? "id_str" : "id"
    func id(_ item: JSON) -> String? {
      guard case .object(let fields) = item, case .string(let id)? = fields.first(where: { $0.0 == key })?.1 else { return nil }
      return id
    }
    switch self {
    case .array(let items) where v1:
      return items.compactMap(id)
    case .object(let fields):
      let data = fields.first { $0.0 == (v1 ? "statuses" : "data") }?.1
      switch data {
      case .array(let items)?: return items.compactMap(id)
      case let item? where !v1: return id(item).map { [$0] } ?? []
      default: return v1 ? id(self).map { [$0] } ?? [] : []
      }
    default:
      return []
    }
  }
}
