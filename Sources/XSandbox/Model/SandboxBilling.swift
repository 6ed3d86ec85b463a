import XAPI

/// X's pay-per-use billing as the sandbox models it, from X's pages
/// (`x-api/getting-started/pricing.mdx`, `x-api/fundamentals/post-cap.mdx`): a credit balance
/// deducted as answers are served, each resource charged at the price list once per UTC day
/// (a post already charged today is free, whatever price it was charged at), owned reads at
/// their price, writes and counts per request; a balance may go slightly negative (the answer
/// that took it there is served whole), after which every billed request is refused with 402
/// `CreditsDepleted`; past the post cap, post reads are refused with 429 `usage-capped` while
/// the rate-limit headers still show headroom. Failed requests are not billed.
///
/// Off unless the sandbox is given credits or a post cap (`tweets sandbox serve --credits USD
/// --post-cap N`, or the control API's `billing`): the sandbox is free by default. Its billing
/// cycle is the sandbox's life (X's resets monthly); the post cap counts the posts charged in
/// it. The dispatch applies it to every route alike, from the route's ``SandboxBillable``;
/// `GET /2/usage/tweets` reports its ``postsPerDay``.
///
/// ```swift
/// var billing = SandboxBilling(credits: USD("1.00")!, postCap: nil)
/// billing.charge(ids: ["1", "2"], kind: .post, owned: false, day: "2026-11-26")  // $0.01
/// billing.balance  // $0.99
/// ```
package struct SandboxBilling: Sendable {
  /// Why a request is refused before it is served.
  package enum Refusal: Sendable, Equatable {
    /// 402: the balance is spent.
    case creditsDepleted
    /// 429 `usage-capped`: the cycle's post reads reached the cap.
    case usageCapped

    /// The HTTP status.
    package var status: Int { self == .creditsDepleted ? 402 : 429 }

    /// X's problem body.
    package var body: String {
      switch self {
      case .creditsDepleted:
        #"{"title":"CreditsDepleted","detail":"Your enrolled account does not have any credits to fulfill this request.","type":"https://api.twitter.com/2/problems/credits"}"#
      case .usageCapped:
        #"{"title":"UsageCapExceeded","detail":"Usage cap exceeded: Monthly product cap","type":"https://api.twitter.com/2/problems/usage-capped","period":"Monthly","scope":"Product"}"#
      }
    }
  }

  /// How many charges of one kind, and their sum.
  package struct Total: Sendable, Equatable {
    /// Resources (or requests) charged.
    package var count = 0
    /// What they cost.
    package var amount = USD.zero
  }

  private struct Key: Hashable, Sendable {
    let day: String
    let kind: XResourceKind
    let id: String
  }

  /// The prices charged.
  package var pricing: XPricing
  /// What is left; `nil` when the sandbox does not bill.
  package private(set) var balance: USD?
  /// Post reads allowed in the cycle; `nil` for no cap.
  package var postCap: Int?
  /// What was charged in all.
  package private(set) var spent = USD.zero
  /// Posts charged per UTC day (what `GET /2/usage/tweets` reports).
  package private(set) var postsPerDay: [String: Int] = [:]
  /// What was charged, by kind: a resource kind's name (`post`, `user`, `follow` ...; an owned
  /// read's with `_owned` after it, `post_owned`) or a request kind's (`post_create_with_url`,
  /// `counts_recent` ...).
  package private(set) var totals: [String: Total] = [:]
  private var charged: Set<Key> = []

  /// Billing with `credits` (`nil`: free) and a post cap.
  package init(credits: USD?, postCap: Int?, pricing: XPricing = .published) {
    balance = credits
    self.postCap = postCap
    self.pricing = pricing
  }

  /// Whether requests are metered at all.
  package var isMetered: Bool { balance != nil || postCap != nil }

  /// Posts charged in the cycle.
  package var postsInCycle: Int { postsPerDay.values.reduce(0, +) }

  /// The refusal X would answer a billed request with, if any; `readsPosts` for an endpoint
  /// the post cap tracks.
  package func refusal(readsPosts: Bool) -> Refusal? {
    if let balance, balance <= .zero { return .creditsDepleted }
    if readsPosts, let postCap, postsInCycle >= postCap { return .usageCapped }
    return nil
  }

  /// Charges the resources `ids` of one answer, each once per `day`, and returns the amount.
  @discardableResult
  package mutating func charge(ids: [String], kind: XResourceKind, owned: Bool, day: String) -> USD {
    let price = pricing.price(of: kind, owned: owned)
    var amount = USD.zero
    var count = 0
    for id in ids where charged.insert(Key(day: day, kind: kind, id: id)).inserted {
      amount += price
      count += 1
      if kind == .post { postsPerDay[day, default: 0] += 1 }
    }
    if count > 0 { record(owned ? kind.rawValue + "_owned" : kind.rawValue, count: count, amount: amount) }
    deduct(amount)
    return amount
  }

  /// Charges one request of `kind` and returns the amount.
  @discardableResult
  package mutating func charge(request kind: XRequestKind) -> USD {
    let amount = pricing.price(of: kind)
    record(kind.rawValue, count: 1, amount: amount)
    deduct(amount)
    return amount
  }

  /// Adds credits (the console's top-up; the control API's `credits`); starts billing when off.
  package mutating func add(credits: USD) {
    balance = (balance ?? .zero) + credits
  }

  /// Sets the balance (the control API's `credits`); starts billing when off.
  package mutating func set(credits: USD) {
    balance = credits
  }

  private mutating func record(_ name: String, count: Int, amount: USD) {
    totals[name, default: Total()].count += count
    totals[name, default: Total()].amount += amount
  }

  private mutating func deduct(_ amount: USD) {
    spent += amount
    if let balance { self.balance = balance - amount }
  }
}
