import CommandLineSupport
import Foundation
import XAPI

/// `tweets search QUERY`.
struct SearchCommand: TweetsCommand {
  let name = "search"
  let shared: SharedOptions = [.tweetPages, .api, .window]
  static let archive = Option.flag("archive", help: "Full-archive search (/2/tweets/search/all; X API Pro or Enterprise only).")
  var spec: CommandSpec {
    makeSpec(
      summary: "Search recent tweets (the last 7 days), or the full archive with --archive.", options: [Self.archive, Estimate.option],
      positionals: [PositionalSpec("query", help: "The query (X's search syntax).", variadic: true)])
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    let query = arguments.positionals.joined(separator: " ")
    guard !query.trimmingCharacters(in: .whitespaces).isEmpty else { throw UsageError("the query is empty") }
    let options = session.options
    let archive = arguments[Self.archive]
    if archive && options.api == .v1 { throw UsageError("--archive is v2's full-archive search; leave out --api 1.1") }
    if arguments[Estimate.option] { return try await Estimate.run(query: query, archive: archive, session) }
    // Full-archive search is app-only at X.
    let client = archive ? try await session.appClient(for: "search --archive") : try session.client().client
    let pages =
      archive
      ? client.v2.searchAll(query: query, options: options.timelineOptions, limit: options.limit)
      : options.api == .v2
        ? client.v2.searchRecent(query: query, options: options.timelineOptions, limit: options.limit)
        : client.v1.search(query: query, options: options.v1Window, limit: options.limit)
    try await Self.print(pages, archive: archive, session)
    return .success
  }

  /// Writes the pages; a full-archive search refused for the app's access tier says so plainly.
  static func print(_ pages: TweetPages, archive: Bool, _ session: Session) async throws {
    do {
      try await TweetStream.print(pages, session)
    } catch let error as XError where archive {
      switch error {
      case .clientNotEnrolled, .accessLevel:
        throw TweetsFailure(
          "full-archive search (/2/tweets/search/all) needs X API Pro or Enterprise access, which this app does not have (\(error.description)). "
            + "Without --archive, search covers the last 7 days.",
          exitCode: .authentication)
      default:
        throw error
      }
    }
  }
}
