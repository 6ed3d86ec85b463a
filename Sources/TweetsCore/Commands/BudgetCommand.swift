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
      summary: "Show or set the profile's spending limit per run (X's pay-per-use billing).",
      positionals: [PositionalSpec("USD|none", help: "The most a run may spend, or none for no limit.", optional: true)],
      discussion: """
        Every command stops (exit 7) before a request whose worst case would take the run past the
        limit: --max-cost for one run, else this. Examples: tweets budget 5.00; tweets budget none.
        """)
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    let name = session.options.profileName
    guard let given = arguments.positionals.first else {
      let limit = try session.store.profile(named: name)?.maxCost
      session.terminal.out(
        limit.map { "Profile \(name): at most \(USD($0).map(\.description) ?? $0) per run." } ?? "Profile \(name): no limit per run.")
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
    session.terminal.out(amount.map { "Profile \(name): at most \($0) per run." } ?? "Profile \(name): no limit per run.")
    return .success
  }
}
