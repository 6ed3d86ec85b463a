import CommandLineSupport
import DateFormats
import Foundation
import XAPI
import XArchive

/// `tweets usage`: what X counts (`GET /2/usage/tweets`: the project's post reads against its
/// cap, per day and per app) next to what the profile's ledger says was spent, by day and by
/// command, over the billing cycle.
struct UsageCommand: TweetsCommand {
  let name = "usage"
  let shared: SharedOptions = [.session, .consumer, .format]
  static let days = Option<Int>.value(
    "days", placeholder: "N", default: .value(30), help: "Days of X's daily counts (1-90, default \(.default)).", .integer(in: 1...90))
  var spec: CommandSpec {
    makeSpec(
      summary: "Show X's count of post reads against the cap, and what the ledger says was spent.",
      options: [Self.days],
      discussion: """
        X's answers carry no cost and its usage endpoint counts posts, not money: the money is this
        profile's ledger (ledgers/PROFILE.sqlite in the config directory), kept by every command.
        The billing cycle starts on X's cap reset day (the calendar month when X does not say).
        Reads of your own posts and followers are recorded as X bills them, as owned reads, when
        the account is known: from the profile (tweets login), or from an access token in the
        environment, which X issues beginning with the account's numeric id. Otherwise they are
        recorded at the full price, and the command that read them says so.
        Charges recorded during the cycle but dated outside it (a server's Date far from this
        computer's clock, before such dates were refused) are listed apart and counted in the cycle.
        """)
  }

  /// The answer in JSON (`--format json`).
  struct Report: Encodable {
    struct Usage: Encodable {
      let projectUsage: Int
      let projectCap: Int?
      let capResetDay: Int?
      let daily: [Day]
    }
    struct Day: Encodable {
      let day: String
      let posts: Int
    }
    struct Spent: Encodable {
      let day: String
      let command: String
      let items: Int
      let amount: String
    }
    let x: Usage?
    let xError: String?
    let cycleStart: String
    let today: String
    let spentToday: String
    let spentThisCycle: String
    let spent: [Spent]
    /// Charges recorded in this cycle whose day is outside it: counted in `spentThisCycle`.
    let datedOutsideCycle: [Spent]
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    if ![.text, .json].contains(session.options.format) { throw UsageError("tweets usage prints text or --format json") }
    var usage: XUsage?
    var xError: String?
    do {
      usage = try await session.appClient(for: "usage").v2.usage(days: try arguments.value(Self.days))
    } catch {
      xError = TweetsCLI.describe(error).0
    }
    let today = RFC3339.dayString(from: Date())
    let cycleStart = Self.cycleStart(today: today, resetDay: usage?.capResetDay)
    // The profile's budget (tweets budget) counts from the same day as this report.
    if let resetDay = usage?.capResetDay, let profile = try? session.store.profile(named: session.options.profileName),
      profile.capResetDay != resetDay
    {
      try? await session.store.update(session.options.profileName) { stored in
        guard var profile = stored else { return (nil, ()) }
        profile.capResetDay = resetDay
        return (profile, ())
      }
    }
    let ledger = try session.budget.behavior(session).ledger
    let totals = try await ledger.totals(from: cycleStart, through: today)
    let misdated = try await ledger.totals(recordedFrom: cycleStart, through: today).filter { $0.day < cycleStart || $0.day > today }
    let spentToday = totals.filter { $0.day == today }.reduce(USD.zero) { $0 + $1.amount }
    let spentCycle = (totals + misdated).reduce(USD.zero) { $0 + $1.amount }
    func rows(_ totals: [XLedgerTotal]) -> [Report.Spent] {
      totals.map { Report.Spent(day: $0.day, command: $0.command, items: $0.items, amount: $0.amount.decimal) }
    }

    if session.options.format == .json {
      let report = Report(
        x: usage.map {
          Report.Usage(
            projectUsage: $0.projectUsage, projectCap: $0.projectCap, capResetDay: $0.capResetDay,
            daily: $0.daily.map { Report.Day(day: $0.day, posts: $0.posts) })
        },
        xError: xError, cycleStart: cycleStart, today: today, spentToday: spentToday.decimal, spentThisCycle: spentCycle.decimal,
        spent: rows(totals), datedOutsideCycle: rows(misdated))
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys]
      encoder.keyEncodingStrategy = .convertToSnakeCase
      session.terminal.out(String(decoding: try encoder.encode(report), as: UTF8.self))
      return .success
    }
    if let usage {
      let cap = usage.projectCap.map { " of \($0)" } ?? ""
      let reset = usage.capResetDay.map { ", resets on day \($0) of the month" } ?? ""
      session.terminal.out("X's count: \(usage.projectUsage)\(cap) posts read this cycle\(reset).")
      for day in usage.daily.suffix(7) { session.terminal.out(TerminalText.visible("  \(day.day)  \(day.posts) posts")) }
    } else if let xError {
      session.terminal.out(TerminalText.visible("X's count: not available (\(xError))."))
    }
    session.terminal.out("Spent since \(cycleStart) (the ledger of profile \(session.options.profileName)): \(spentCycle); today \(spentToday).")
    for total in totals {
      session.terminal.out("  \(total.day)  \(total.command)  \(total.items) \(total.items == 1 ? "item" : "items")  \(total.amount)")
    }
    if !misdated.isEmpty {
      session.terminal.out("Recorded this cycle but dated outside it (counted above):")
      for total in misdated {
        session.terminal.out("  \(total.day)  \(total.command)  \(total.items) \(total.items == 1 ? "item" : "items")  \(total.amount)")
      }
    }
    return .success
  }

  /// The first day of the billing cycle holding `today`: the last `resetDay` of a month on or
  /// before it, or the first of the month.
  static func cycleStart(today: String, resetDay: Int?) -> String {
    let parts = today.split(separator: "-").compactMap { Int($0) }
    guard parts.count == 3 else { return today }
    var (year, month) = (parts[0], parts[1])
    let day = min(max(resetDay ?? 1, 1), 28)
    if parts[2] < day {
      month -= 1
      if month == 0 { (year, month) = (year - 1, 12) }
    }
    return String(format: "%04d-%02d-%02d", year, month, day)
  }
}
