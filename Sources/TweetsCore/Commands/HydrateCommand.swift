import CommandLineSupport
import Foundation

/// `tweets hydrate [FILE|-]`: the tweets of a list of ids, as datasets ship them (X's terms
/// allow sharing ids, not tweets), at dataset scale: the input is read as it goes, and with
/// `--output` or `--db` a run killed at any moment resumes after the last batch stored.
struct HydrateCommand: TweetsCommand {
  let name = "hydrate"
  let shared: SharedOptions = [.signedIn, .api, .format, .tweetFields, .output, .database]
  var spec: CommandSpec {
    makeSpec(
      summary: "Look up the tweets of a list of ids (one per line, or JSON lines with an \"id\"), in their order.",
      positionals: [PositionalSpec("file", help: "The ids' file; standard input when absent or \"-\".", optional: true)],
      discussion: """
        Ids go to X in batches of 100; the tweets come out in the order of the input, which is read
        as it goes (memory does not grow with it). Each id X does not return (deleted, withheld,
        protected, unknown) is reported on stderr, or recorded in the missing_tweets table with
        --db, and the exit status is then 4 (for the ids this run looked up). With --output FILE or --db FILE, each batch is stored
        with the count of input ids done, so --resume continues after the last batch stored.
        """)
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    let file = arguments.positionals.first.flatMap { $0 == "-" ? nil : $0 }
    // A file is read once first: every line checked before the first request, and a total for
    // the progress line. Standard input is read once, as it comes.
    let total = try file.map(IDInput.count(file:))
    if total == 0 { throw UsageError("no tweet ids in the input") }
    return try await IDLookup.run(.file(file), total: total, session)
  }
}
