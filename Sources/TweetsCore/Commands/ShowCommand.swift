import CommandLineSupport

/// `tweets show ID...`.
struct ShowCommand: TweetsCommand {
  let name = "show"
  let shared: SharedOptions = [.signedIn, .api, .format, .tweetFields, .database]
  var spec: CommandSpec {
    makeSpec(summary: "Show tweets by id.", positionals: [PositionalSpec("id", help: "Tweet ids.", variadic: true)])
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    let ids = arguments.positionals
    if let bad = ids.first(where: { !IDLookup.isTweetID($0) }) {
      throw UsageError("\"\(bad)\" is not a tweet id")
    }
    return try await IDLookup.run(.list(ids), total: ids.count, session)
  }
}
