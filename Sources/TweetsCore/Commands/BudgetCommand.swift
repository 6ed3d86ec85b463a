import CommandLineSupport
import Foundation
import XAPI

/// `tweets budget [USD | none]`: the profile's spending limit, which every command that reads or
/// writes billable resources honours when it is given no `--max-cost`.
struct BudgetCommand: TweetsCommand {
  let name = "budget"
  let shared: SharedOptions = [.session]
  var spec: CommandSpec {
    makeSpec(
      summary: "Show or set the profile's spending limit per billing cycle (X's pay-per-use billing).",
      positionals: [
        PositionalSpec("USD|none", help: "The most all runs of the profile may spend in a billing cycle, or none for no limit.", optional: true)
      ],
      discussion: """
        Every command stops (exit 7) before a request whose worst case would take what the
        profile's ledger recorded this billing cycle, by all its runs, past this limit; --max-cost
        limits one run as well. The cycle starts on X's reset day as tweets usage last learnt it,
        else on the first of the month (UTC). Runs at the same time can pass it together by at most
        their requests in flight. Examples: tweets budget 5.00; tweets budget none.
        """)
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    let name = session.options.profileName
    guard let given = arguments.positionals.first else {
      let limit = try session.store.profile(named: name)?.maxCost
      session.terminal.out(
        limit.map { "Profile \(name): at most \(USD($0).map(\.description) ?? $0) per billing cycle, all runs together." }
          ?? "Profile \(name): no limit per billing cycle.")
      return .success
    }
    if arguments.positionals.count > 1 { throw UsageError("tweets budget takes one amount, or none") }
    let amount: USD?
    if given == "none" {
      amount = nil
    } else {
      guard let parsed = USD(given) else {
        if USD.isAmount(given) { throw UsageError("tweets budget takes at most \(USD.maximum), not \(given)") }
        throw UsageError("tweets budget takes an amount in US dollars such as 5.00, or none, not \(CommandSpec.shown(given))")
      }
      amount = parsed
    }
    try await session.store.update(name) { stored in
      var profile = stored ?? Profile()
      profile.maxCost = amount?.decimal
      return (profile, ())
    }
    session.terminal.out(
      amount.map { "Profile \(name): at most \($0) per billing cycle, all runs together." } ?? "Profile \(name): no limit per billing cycle.")
    return .success
  }
}
