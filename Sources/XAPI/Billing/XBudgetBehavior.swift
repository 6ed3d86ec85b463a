import DateFormats
import Foundation
import NetworkClient

/// A spending limit on X's pay-per-use billing, as a request behavior: it sees each request
/// before it is sent and refuses it when the worst case of its answer would take the run past
/// `limit`, and it records what each answer was charged in a ``XLedger``.
///
/// The worst case of a read is the most resources it can return (its `ids`, its `max_results`)
/// at their price, less those the ledger shows were already bought on X's current day (X
/// charges a resource once per UTC day); of a write, its request price. Requests in flight
/// hold their worst case, so that concurrent ones cannot pass the limit together. A request
/// whose worst case equals exactly what is left may go. An endpoint whose price is unknown
/// (``XBilling/unpriced``) is refused under a limit rather than guessed. Without a limit the
/// behavior only keeps the account.
///
/// The day is X's: the UTC day of the local clock corrected by how far the last answer's `Date`
/// header was from it (the local clock's alone until an answer came). A `Date` farther than
/// ``maxClockDifference`` from the local clock is not believed (a warning says so once): a
/// server that says it is 2000 or 9999 must not move the charges out of today. Each request's
/// day is fixed when it is priced, and its worst case and its charges both use it, so that an
/// answer whose `Date` names another day cannot charge on one day what was held against
/// another. (A request in flight at midnight UTC is recorded on the day it was priced.)
///
/// An answer's charges are its `data` items not yet in the ledger for that day, and never more
/// than were asked for: of a request naming `ids`, only those ids; of any read, at most its
/// worst case's count (`max_results`, the page's largest). Items past that are not recorded
/// (a warning counts them): what was charged never exceeds what was held, so the limit holds
/// whatever a server answers.
///
/// A ``XSharedLimit`` bounds what every run recording in the same ledger spends together
/// (`tweets budget`, per billing cycle): before each request, what the other runs recorded in the
/// ledger since the limit's first day (read again at most every ``sharedReadInterval``), plus
/// this run's charges, its requests in flight and the request's worst case, must fit in it.
/// Runs at the same time see each other's records, not each other's requests in flight nor
/// the last few seconds' records: together they can pass it by at most what they bought in
/// that window. Runs one after the other share it exactly.
///
/// ```swift
/// let budget = XBudgetBehavior(limit: USD("0.50")!, ledger: InMemoryXLedger(), command: "search", ownerUserID: nil)
/// let client = XClient(authentication: auth, behaviors: [budget])
/// // a search past $0.50 ends with XError.network(.rejected(by: "XBudgetBehavior", underlying: XBudgetError.wouldExceed(...)))
/// print(budget.spent)
/// ```
public final class XBudgetBehavior: RequestBehavior {
  /// What this run may spend; `nil` for no limit.
  public let limit: USD?
  /// The prices charges are computed with.
  public let pricing: XPricing
  /// Where charges are recorded and looked up.
  public let ledger: any XLedger
  /// The command charges are recorded for.
  public let command: String
  /// The user who owns the app, whose own data X bills as owned reads; `nil` when unknown.
  public let ownerUserID: String?
  /// Told, when ``ownerUserID`` is `nil`, of each request that would be an owned read if the
  /// user it reads (the argument) were the owner: such reads are recorded at the full price,
  /// and the caller can say so.
  public let onUnknownOwner: (@Sendable (_ userID: String) -> Void)?
  /// The limit this run shares with every run that records in ``ledger``; `nil` for none.
  public let shared: XSharedLimit?

  /// How far an answer's `Date` header may be from the local clock and still be believed:
  /// 15 minutes. Within it, X's clock decides the UTC day (X bills on its own day, and a local
  /// clock a few minutes off must not split a day's charges); past it, the `Date` is wrong
  /// (or hostile) and the local clock's day is used, with a warning. Correcting the local clock
  /// by at most this much can move a charge to the neighbouring day only within 15 minutes of
  /// midnight UTC.
  public static let maxClockDifference: TimeInterval = 15 * 60

  private struct State {
    var spent = USD.zero
    var held = USD.zero
    /// X's clock less the local one, from the last believed `Date`.
    var offset: TimeInterval?
    var sequence = 0
    var warnedOfDate = false
    /// What the ledger recorded in the shared limit's scope that this run did not charge.
    var others = USD.zero
    /// When ``others`` was last read from the ledger.
    var othersReadAt: Date?
  }
  private let state = Locked(State())
  private let now: @Sendable () -> Date
  private let warn: @Sendable (String) -> Void

  /// A budget of `limit` (`nil`: none) over `ledger`, at `pricing`.
  ///
  /// - Parameters:
  ///   - limit: what the run may spend; `nil` to keep the account only.
  ///   - pricing: the prices (X's published ones, or with a price file laid over them).
  ///   - ledger: where charges are recorded, and what was bought today is looked up.
  ///   - command: the command the charges are recorded for.
  ///   - ownerUserID: the user who owns the app, for owned reads; `nil` when unknown or app-only.
  ///   - onUnknownOwner: told of each read that would be owned, were `ownerUserID` known.
  ///   - now: the local clock, which X's `Date` corrects by at most ``maxClockDifference``
  ///     (tests move it).
  ///   - warn: told, once each, when an answer's `Date` is not believed and when an answer holds
  ///     more items than were asked for (a command prints it on standard error).
  ///   - shared: a limit on what the ledger records from every run (a billing cycle's), checked
  ///     with this run's own.
  public init(
    limit: USD?, pricing: XPricing = .published, ledger: any XLedger, command: String, ownerUserID: String? = nil,
    onUnknownOwner: (@Sendable (_ userID: String) -> Void)? = nil,
    now: @escaping @Sendable () -> Date = Date.init, warn: @escaping @Sendable (String) -> Void = { _ in }, shared: XSharedLimit? = nil
  ) {
    self.limit = limit
    self.pricing = pricing
    self.ledger = ledger
    self.command = command
    self.ownerUserID = ownerUserID
    self.onUnknownOwner = onUnknownOwner
    self.now = now
    self.warn = warn
    self.shared = shared
  }

  /// What this run's answers were charged so far.
  public var spent: USD { state.withLock { $0.spent } }

  /// What is left of the limit, or of the shared limit as last read from the ledger when that
  /// is less (`nil` without either).
  public var remaining: USD? {
    state.withLock { state in
      let own = limit.map { $0 - state.spent - state.held }
      let common = shared.map { $0.limit - state.others - state.spent - state.held }
      return [own, common].compactMap { $0 }.min()
    }
  }

  /// How often, at most, what other runs recorded against the shared limit is read again from
  /// the ledger: every 5 seconds. Reading sums the cycle's records (millions of rows for a
  /// busy profile), too slow for every request of a long fetch; this run's own charges are
  /// counted as they happen, so only other runs' are up to 5 seconds late, as they would be
  /// anyway by their requests in flight.
  public static let sharedReadInterval: TimeInterval = 5

  /// Reads what the ledger recorded in the shared limit's scope, less this run's charges: what
  /// the other runs spent (at most every ``sharedReadInterval`` unless `force`). It only grows,
  /// and never counts this run's charges (at worst, while requests are in flight, it counts
  /// less than the others spent, until the next read).
  private func readShared(force: Bool = false) async throws {
    guard let shared else { return }
    let local = now()
    let due = state.withLock { state in
      guard force || state.othersReadAt.map({ abs(local.timeIntervalSince($0)) >= Self.sharedReadInterval }) ?? true else { return false }
      state.othersReadAt = local
      return true
    }
    guard due else { return }
    let total = try await ledger.totals(recordedFrom: shared.since, through: "9999-12-31").reduce(USD.zero) { $0 + $1.amount }
    // Less what this run holds too: an answer recorded in the ledger but not yet counted in
    // `spent` is still held, so this run's own charges are never taken for another run's.
    state.withLock { $0.others = max($0.others, total - $0.spent - $0.held) }
  }

  public func around(_ request: HTTPRequest, send: @Sendable (HTTPRequest) async throws -> HTTPResponse) async throws -> HTTPResponse {
    let billing = XBilling.of(request, ownerUserID: ownerUserID)
    if ownerUserID == nil, let onUnknownOwner, let userID = XBilling.ownableUserID(of: request) { onUnknownOwner(userID) }
    let day = day()
    let worst: USD
    switch billing {
    case .free: return try await send(request)
    case .unpriced:
      guard limit != nil else { return try await send(request) }
      throw XBudgetError.unpriced(request: Self.describe(request))
    case .perRequest(let kind): worst = pricing.price(of: kind)
    case .perResource(let kind, let owned, let atMost): worst = try await worstCase(request, kind: kind, owned: owned, atMost: atMost, day: day)
    }
    try await readShared()
    try hold(worst, for: request)
    do {
      let response = try await send(request)
      observeClock(response)
      let charged = response.isSuccess ? try await record(response, billing, day: day) : .zero
      state.withLock {
        $0.held -= worst
        $0.spent += charged
      }
      return response
    } catch {
      state.withLock { $0.held -= worst }
      throw error
    }
  }

  /// Refuses, before anything is sent, a piece of work whose whole price is known (a thread's
  /// posts) when it would take the run past its limit: ``XBudgetError/wouldExceed(limit:spent:inFlight:next:request:)``
  /// naming `what`. Nothing is held: each request is still checked as it goes.
  public func check(_ amount: USD, for what: String) throws(XBudgetError) {
    let (spent, held, others) = state.withLock { ($0.spent, $0.held, $0.others) }
    if let limit, spent + held + amount > limit { throw .wouldExceed(limit: limit, spent: spent, inFlight: held, next: amount, request: what) }
    if let shared, others + spent + held + amount > shared.limit {
      throw .wouldExceedShared(limit: shared.limit, recorded: others + spent, inFlight: held, next: amount, request: what, scope: shared.scope)
    }
  }

  /// Reads what other runs recorded against the shared limit, then ``check(_:for:)``: for a
  /// piece of work checked before its first request, when the ledger has not been read yet.
  public func checkAfterReading(_ amount: USD, for what: String) async throws {
    try await readShared(force: true)
    try check(amount, for: what)
  }

  /// Records a post the filtered stream delivered (X bills each unique post delivered, once
  /// per UTC day; a stream's posts do not pass through ``around(_:send:)`` one by one) and says
  /// whether the run may take another: `false` once what is left of the limit is less than one
  /// post's price, when the stream must stop.
  ///
  /// ```swift
  /// for try await post in stream where try await budget.streamed(postID: post.tweet.id) == false { break }
  /// ```
  public func streamed(postID: String) async throws -> Bool {
    try await streamed(.post, id: postID)
  }

  /// Records a resource a stream delivered at its price (the activity stream's posts, follows
  /// and received messages, ``XActivityEventPrice``), once per id and UTC day as X bills, and
  /// says whether the run may take another of its kind; a free event (`kind` `nil`) records
  /// nothing.
  ///
  /// ```swift
  /// let price = XActivityEventPrice(event)
  /// if try await !budget.streamed(price.kind, id: price.id) { break }
  /// ```
  public func streamed(_ kind: XResourceKind?, id: String) async throws -> Bool {
    guard let kind else { return state.withLock { state in limit.map { state.spent + state.held <= $0 } ?? true } }
    let price = pricing.price(of: kind)
    let charge = XCharge(day: day(), kind: .resource(kind), id: id, price: price, command: command)
    let charged = try await ledger.record([charge]).isEmpty ? USD.zero : price
    state.withLock { $0.spent += charged }
    try await readShared()
    return state.withLock { state in
      let own = limit.map { state.spent + state.held + price <= $0 } ?? true
      let common = shared.map { state.others + state.spent + state.held + price <= $0.limit } ?? true
      return own && common
    }
  }

  private func worstCase(_ request: HTTPRequest, kind: XResourceKind, owned: Bool, atMost: Int, day: String) async throws -> USD {
    var count = atMost
    if let ids = Self.requestedIDs(request), limit != nil {
      count -= try await ledger.charged(day: day, kind: .resource(kind), ids: Array(Set(ids))).count
    }
    return pricing.price(of: kind, owned: owned) * max(count, 0)
  }

  /// The ids a read names (`ids` of v2's lookups, `id` of v1.1's), `nil` when it names none.
  private static func requestedIDs(_ request: HTTPRequest) -> [String]? {
    URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "ids" || $0.name == "id" }?.value
      .map { $0.split(separator: ",").map(String.init) }
  }

  /// Of the ids an answer bills, those the request asked for: only named ids when it named
  /// some, at most `atMost` in all; and how many were left out.
  static func asked(_ answered: [String], request: HTTPRequest, atMost: Int) -> (ids: [String], excess: Int) {
    var kept = answered
    if let requested = requestedIDs(request).map(Set.init) { kept = kept.filter(requested.contains) }
    kept = Array(kept.prefix(max(atMost, 0)))
    return (kept, answered.count - kept.count)
  }

  /// Believes the answer's `Date` when it is within ``maxClockDifference`` of the local clock,
  /// and then corrects the local clock by it; warns once when it is not.
  private func observeClock(_ response: HTTPResponse) {
    guard let date = response.headers["Date"].flatMap(HTTPDate.date(from:)) else { return }
    let local = now()
    let difference = date.timeIntervalSince(local)
    let believed = abs(difference) <= Self.maxClockDifference
    let firstDoubt = state.withLock { state in
      if believed {
        state.offset = difference
        return false
      }
      defer { state.warnedOfDate = true }
      return !state.warnedOfDate
    }
    if firstDoubt {
      warn(
        "the server's clock (Date: \(response.headers["Date"] ?? "")) is \(Int(difference.rounded())) s from this computer's, more than the "
          + "\(Int(Self.maxClockDifference)) s believed: charges are recorded on this computer's UTC day (\(RFC3339.dayString(from: local))). "
          + "Check this computer's clock if the server is X.")
    }
  }

  private func hold(_ worst: USD, for request: HTTPRequest) throws(XBudgetError) {
    let refused: XBudgetError? = state.withLock { state in
      if let limit, state.spent + state.held + worst > limit {
        return .wouldExceed(limit: limit, spent: state.spent, inFlight: state.held, next: worst, request: Self.describe(request))
      }
      if let shared, state.others + state.spent + state.held + worst > shared.limit {
        return .wouldExceedShared(
          limit: shared.limit, recorded: state.others + state.spent, inFlight: state.held, next: worst, request: Self.describe(request),
          scope: shared.scope)
      }
      state.held += worst
      return nil
    }
    if let refused { throw refused }
  }

  private func record(_ response: HTTPResponse, _ billing: XBilling, day: String) async throws -> USD {
    let charges: [XCharge]
    switch billing {
    case .perResource(let kind, let owned, let atMost):
      let price = pricing.price(of: kind, owned: owned)
      let (ids, excess) = Self.asked(XBilling.billedIDs(in: response.body), request: response.request, atMost: atMost)
      if excess > 0 {
        warn(
          "\(Self.describe(response.request)) answered \(excess) more \(excess == 1 ? "item" : "items") than were asked for "
            + "(at most \(atMost)\(Self.requestedIDs(response.request) == nil ? "" : ", of the ids named")): "
            + "\(excess == 1 ? "it is" : "they are") not recorded as charges, and no limit is passed for \(excess == 1 ? "it" : "them").")
      }
      charges = ids.map { XCharge(day: day, kind: .resource(kind), id: $0, price: price, command: command) }
    case .perRequest(var kind):
      if kind == .postCreateWithURL && !XBilling.linked(response) { kind = .postCreate }
      let sequence = state.withLock { state in
        state.sequence += 1
        return state.sequence
      }
      let id = "\(Int(now().timeIntervalSince1970 * 1000))-\(ProcessInfo.processInfo.processIdentifier)-\(sequence)"
      charges = [XCharge(day: day, kind: .request(kind), id: id, price: pricing.price(of: kind), command: command)]
    case .free, .unpriced: return .zero
    }
    let new = try await ledger.record(charges)
    return new.reduce(USD.zero) { $0 + $1.price }
  }

  /// X's UTC day now: the local clock, corrected by the last believed `Date`.
  private func day() -> String { RFC3339.dayString(from: now().addingTimeInterval(state.withLock { $0.offset } ?? 0)) }

  /// `GET /2/tweets/search/recent`: the method and path, without the query (which may be long).
  private static func describe(_ request: HTTPRequest) -> String { "\(request.method.rawValue) \(request.url.path)" }
}

/// Why ``XBudgetBehavior`` did not send a request.
public enum XBudgetError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The request's worst case would take the run past its limit.
  case wouldExceed(limit: USD, spent: USD, inFlight: USD, next: USD, request: String)
  /// The request's price is not in the price list, so a limit cannot be kept.
  case unpriced(request: String)
  /// The request's worst case would take what the ledger recorded from every run in `scope`
  /// past the shared limit (``XSharedLimit``).
  case wouldExceedShared(limit: USD, recorded: USD, inFlight: USD, next: USD, request: String, scope: String)

  public var description: String {
    switch self {
    case .wouldExceed(let limit, let spent, let inFlight, let next, let request):
      let pending = inFlight == .zero ? "" : " (\(inFlight) more held by requests in flight)"
      return
        "stopped before \(request): it could cost up to \(next), and \(spent) of the \(limit) allowed is spent\(pending). Raise the limit (--max-cost) to go on."
    case .wouldExceedShared(let limit, let recorded, let inFlight, let next, let request, let scope):
      let pending = inFlight == .zero ? "" : " (\(inFlight) more held by requests in flight)"
      return
        "stopped before \(request): it could cost up to \(next), and the ledger records \(recorded) of the \(limit) allowed \(scope), "
        + "by this run and others\(pending). Raise that limit (tweets budget) to go on."
    case .unpriced(let request):
      return
        "\(request) is not in the price list, so its cost cannot be held to the limit: add it to pricing.json in the config directory, or run it without a limit."
    }
  }
}

extension XBilling {
  /// Whether a created post holds a link X made: the text sent has an `http(s)://` URL, or the
  /// text X answered with has one of its `t.co` links (it links bare domains too). The worst case
  /// held before sending counts anything shaped like a host name; the charge recorded after is
  /// what the answer shows.
  static func linked(_ response: HTTPResponse) -> Bool {
    func hasLink(_ text: String) -> Bool { text.range(of: #"https?://"#, options: .regularExpression) != nil }
    let answered = AnswerItems.objects(in: response.body).first?["text"] as? String ?? ""
    let sent = response.request.body.flatMap { (try? JSONSerialization.jsonObject(with: $0) as? [String: Any])?["text"] as? String } ?? ""
    return hasLink(answered) || hasLink(sent)
  }

  /// The ids of the resources an answer bills: those of its items (``AnswerItems``).
  /// Expanded `includes` are not counted (X does not document that it bills them).
  static func billedIDs(in body: Data) -> [String] {
    AnswerItems.objects(in: body).compactMap(AnswerItems.id(of:))
  }
}

/// A spending limit shared by every run that records in the same ``XLedger``: what the ledger
/// recorded since `since` (a UTC day by the local clock: a billing cycle's first) may not pass
/// `limit`. `tweets budget` is one, per billing cycle, so that two runs under $0.50 spend $0.50
/// together, not $0.50 each.
///
/// ```swift
/// let cycle = XSharedLimit(limit: USD("5.00")!, since: "2026-11-01", scope: "this billing cycle (since 2026-11-01)")
/// let budget = XBudgetBehavior(limit: nil, ledger: ledger, command: "search", shared: cycle)
/// ```
public struct XSharedLimit: Sendable, Hashable {
  /// What all runs together may have recorded.
  public var limit: USD
  /// The first UTC day (`YYYY-MM-DD`, by the local clock, as the ledger dates its records) whose
  /// records count.
  public var since: String
  /// What the limit covers, as a refusal says it: `this billing cycle (since 2026-11-01)`.
  public var scope: String

  /// A shared limit of `limit` over what was recorded since `since`.
  public init(limit: USD, since: String, scope: String) {
    self.limit = limit
    self.since = since
    self.scope = scope
  }
}
