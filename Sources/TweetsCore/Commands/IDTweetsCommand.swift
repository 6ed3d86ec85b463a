import CommandLineSupport
import XAPI

/// `tweets quotes ID`, `tweets reposts ID` and `tweets list ID`: the tweets of one thing named
/// by its id.
struct IDTweetsCommand: TweetsCommand {
  let name: String
  let summary: String
  let idHelp: String
  /// What the id names, for a usage error.
  let what: String
  /// Neither endpoint takes a window.
  let shared = SharedOptions.tweetPages
  let source: @Sendable (XClient.V2, _ id: String, TimelineOptions, _ limit: Int?) -> TweetPages

  static let quotes = IDTweetsCommand(
    name: "quotes", summary: "Tweets that quote a tweet.", idHelp: "The quoted tweet's id.", what: "tweet id"
  ) { $0.quoteTweets(tweetID: $1, options: $2, limit: $3) }
  static let reposts = IDTweetsCommand(
    name: "reposts", summary: "The reposts of a post (each names the original in referenced_tweets).", idHelp: "The reposted post's id.",
    what: "post id"
  ) { $0.reposts(tweetID: $1, options: $2, limit: $3) }
  static let list = IDTweetsCommand(
    name: "list", summary: "A list's tweets.", idHelp: "The list's id (from its URL, x.com/i/lists/ID).", what: "list id"
  ) { $0.listTweets(listID: $1, options: $2, limit: $3) }

  var spec: CommandSpec {
    makeSpec(summary: summary, positionals: [PositionalSpec("id", help: idHelp)])
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    let id = try tweetID(arguments, what: what)
    let (client, _) = try session.client()
    try await TweetStream.print(source(client.v2, id, session.options.timelineOptions, session.options.limit), session)
    return .success
  }
}
