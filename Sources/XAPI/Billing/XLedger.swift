import DateFormats
import Foundation
import NetworkClient

/// What a charge is for: a resource read (deduplicated per UTC day) or a request.
public enum XChargeKind: Sendable, Hashable, CustomStringConvertible {
  /// One resource returned by a read.
  case resource(XResourceKind)
  /// One request billed per request.
  case request(XRequestKind)

  /// `post`, `user` ... for resources; `request:post_create` ... for requests: the ledger's key.
  public var description: String {
    switch self {
    case .resource(let kind): kind.rawValue
    case .request(let kind): "request:" + kind.rawValue
    }
  }

  /// The kind named by ``description``.
  public init?(_ text: String) {
    if text.hasPrefix("request:") {
      guard let kind = XRequestKind(rawValue: String(text.dropFirst(8))) else { return nil }
      self = .request(kind)
    } else {
      guard let kind = XResourceKind(rawValue: text) else { return nil }
      self = .resource(kind)
    }
  }
}

/// One charge as X makes it: on X's UTC day, for one resource (or request), at a price.
///
/// ```swift
/// XCharge(day: "2026-11-26", kind: .resource(.post), id: "1800000000000000001", price: USD("0.005")!, command: "search")
/// ```
public struct XCharge: Sendable, Hashable {
  /// X's UTC day (`YYYY-MM-DD`, from the answer's `Date` header): X deduplicates per this day.
  public var day: String
  /// What was bought.
  public var kind: XChargeKind
  /// The resource's id; for a request, an id of its own.
  public var id: String
  /// What X charges for it.
  public var price: USD
  /// The command that bought it (`search`, `hydrate` ...), for the totals per command.
  public var command: String

  /// A charge.
  public init(day: String, kind: XChargeKind, id: String, price: USD, command: String) {
    self.day = day
    self.kind = kind
    self.id = id
    self.price = price
    self.command = command
  }
}

/// What was spent on one day by one command.
public struct XLedgerTotal: Sendable, Hashable, Codable {
  /// The UTC day.
  public var day: String
  /// The command.
  public var command: String
  /// Resources and requests charged.
  public var items: Int
  /// Their price.
  public var amount: USD

  /// A total.
  public init(day: String, command: String, items: Int, amount: USD) {
    self.day = day
    self.command = command
    self.items = items
    self.amount = amount
  }
}

/// The account of what X charged, kept by the client because X's answers carry no cost: each
/// resource once per (UTC day, kind, id), as X deduplicates, at the first price it was seen
/// at. ``XBudgetBehavior`` reads it before a request (what today's answers already bought costs
/// nothing again) and writes it after.
///
/// `InMemoryXLedger` is one implementation (a run's own account); XArchive's `SQLiteLedger`
/// keeps it per profile on disk, shared by processes.
///
/// ```swift
/// let ledger = InMemoryXLedger()
/// let new = try await ledger.record([charge, charge])  // one of them: the second is the same resource
/// ```
public protocol XLedger: Sendable {
  /// Records the charges not yet recorded for their (day, kind, id), all or none, and returns
  /// those: what X charges for this answer.
  func record(_ charges: [XCharge]) async throws -> [XCharge]

  /// Of `ids`, those already charged on `day` as `kind`.
  func charged(day: String, kind: XChargeKind, ids: [String]) async throws -> Set<String>

  /// What was spent from `firstDay` through `lastDay` (UTC days, inclusive), per day and
  /// command, in day order.
  func totals(from firstDay: String, through lastDay: String) async throws -> [XLedgerTotal]

  /// What was recorded from `firstDay` through `lastDay` by the local clock (UTC days,
  /// inclusive), per the day each charge is dated and command: how `tweets usage` finds charges
  /// recorded in a billing cycle but dated outside it (an answer's `Date` that said 2000 or
  /// 9999, before ``XBudgetBehavior`` stopped believing such dates).
  func totals(recordedFrom firstDay: String, through lastDay: String) async throws -> [XLedgerTotal]
}

extension XLedger {
  /// A ledger that does not keep when it recorded each charge answers with the charges dated
  /// in the range.
  public func totals(recordedFrom firstDay: String, through lastDay: String) async throws -> [XLedgerTotal] {
    try await totals(from: firstDay, through: lastDay)
  }
}

/// A ledger in memory: one process's account, for a library user without a database and for tests.
///
/// ```swift
/// let budget = XBudgetBehavior(limit: USD("1.00")!, ledger: InMemoryXLedger(), command: "search")
/// ```
public final class InMemoryXLedger: XLedger {
  private struct Key: Hashable {
    let day: String
    let kind: XChargeKind
    let id: String
  }
  private let state = Locked<(keys: Set<Key>, charges: [(charge: XCharge, recorded: String)])>(([], []))
  private let now: @Sendable () -> Date

  /// An empty ledger; `now` is the clock that dates each record (tests move it).
  public init(now: @escaping @Sendable () -> Date = Date.init) { self.now = now }

  public func record(_ charges: [XCharge]) async throws -> [XCharge] {
    let recorded = RFC3339.dayString(from: now())
    return state.withLock { state in
      charges.filter { state.keys.insert(Key(day: $0.day, kind: $0.kind, id: $0.id)).inserted }.map {
        state.charges.append(($0, recorded))
        return $0
      }
    }
  }

  public func charged(day: String, kind: XChargeKind, ids: [String]) async throws -> Set<String> {
    state.withLock { state in Set(ids.filter { state.keys.contains(Key(day: day, kind: kind, id: $0)) }) }
  }

  public func totals(from firstDay: String, through lastDay: String) async throws -> [XLedgerTotal] {
    XLedgerTotal.sum(state.withLock { $0.charges }.map(\.charge).filter { $0.day >= firstDay && $0.day <= lastDay })
  }

  public func totals(recordedFrom firstDay: String, through lastDay: String) async throws -> [XLedgerTotal] {
    XLedgerTotal.sum(state.withLock { $0.charges }.filter { $0.recorded >= firstDay && $0.recorded <= lastDay }.map(\.charge))
  }
}

extension XLedgerTotal {
  /// The totals of `charges` per day and command, in day then command order.
  package static func sum(_ charges: [XCharge]) -> [XLedgerTotal] {
    var totals: [String: XLedgerTotal] = [:]
    for charge in charges {
      totals[charge.day + "\u{0}" + charge.command, default: XLedgerTotal(day: charge.day, command: charge.command, items: 0, amount: .zero)]
        .add(charge.price)
    }
    return totals.values.sorted { ($0.day, $0.command) < ($1.day, $1.command) }
  }

  private mutating func add(_ price: USD) {
    items += 1
    amount += price
  }
}
