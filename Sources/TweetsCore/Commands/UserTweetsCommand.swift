import CommandLineSupport
import XAPI

/// `tweets mentions [USERNAME]` and `tweets liked [USERNAME]`: a user's stream of tweets (the
/// logged-in user's without a name).
struct UserTweetsCommand: TweetsCommand {
  let name: String
  let summary: String
  /// The window options only where X's endpoint takes an id or time window (mentions).
  let shared: SharedOptions
  let source: @Sendable (XClient.V2, _ userID: String, TimelineOptions, _ limit: Int?) -> TweetPages

  static let mentions = UserTweetsCommand(
    name: "mentions", summary: "Tweets that mention a user (you, without a name).", shared: [.tweetPages, .window]
  ) { $0.mentions(userID: $1, options: $2, limit: $3) }
  static let liked = UserTweetsCommand(
    name: "liked", summary: "Tweets a user liked (you, without a name).", shared: .tweetPages
  ) { $0.likedTweets(userID: $1, options: $2, limit: $3) }

  var spec: CommandSpec {
    makeSpec(summary: summary, positionals: [PositionalSpec("username", help: "Whose (with or without @).", optional: true)])
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    let (client, profile) = try session.client()
    let id = try await userID(arguments.positionals.first, client, session, profile: profile)
    try await TweetStream.print(source(client.v2, id, session.options.timelineOptions, session.options.limit), session)
    return .success
  }
}
