import CommandLineSupport
import Foundation
import XAPI

/// `--estimate` of `search` and `conversation`: X's counts endpoint only (one request, $0.005
/// recent or $0.01 full archive), then how many posts match and what fetching them would cost,
/// without fetching any.
enum Estimate {
  static let option = Option.flag(
    "estimate", help: "Only count what matches (one counts request, $0.005, or $0.01 with --archive) and print what fetching it would cost.",
    recorded: .omitted)

  /// Counts `query`'s matches in the window of `session`'s options and prints the estimate.
  static func run(query: String, archive: Bool, _ session: Session) async throws -> ExitCode {
    let options = session.options
    if options.api == .v1 { throw UsageError("--estimate counts with v2's counts endpoint: leave out --api 1.1") }
    let client = try await session.appClient(for: archive ? "--estimate --archive" : "--estimate")
    let counts = try await client.v2.tweetCounts(
      query: query, granularity: "day", sinceID: options.sinceID, untilID: options.untilID, startTime: options.startTime,
      endTime: options.endTime, archive: archive)
    let budget = try session.budget.behavior(session)
    // A server's count is not trusted to be sane: below zero is none.
    let posts = max(0, options.limit.map { min($0, counts.total) } ?? counts.total)
    let price = budget.pricing.price(of: .post)
    let request = budget.pricing.price(of: archive ? XRequestKind.countsAll : .countsRecent)
    let more = counts.nextToken == nil ? "" : "at least "
    session.terminal.out(
      "\(more)\(counts.total) posts match\(options.limit.map { ", \(posts) with --limit \($0)" } ?? ""): fetching them costs \(more)\(price * posts) "
        + "at \(price) a post (less what was already bought today). This count cost \(request).")
    return .success
  }
}
