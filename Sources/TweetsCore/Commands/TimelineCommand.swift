import CommandLineSupport
import XAPI

/// `tweets timeline [USERNAME]`: a user's tweets, or the home timeline.
struct TimelineCommand: TweetsCommand {
  let name = "timeline"
  let shared: SharedOptions = [.tweetPages, .api, .window]
  var spec: CommandSpec {
    makeSpec(
      summary: "Show a user's tweets, or your home timeline without a name.",
      positionals: [PositionalSpec("username", help: "Whose tweets (with or without @).", optional: true)])
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    let (client, profile) = try session.client()
    let options = session.options
    let username = arguments.positionals.first.map(Self.bareUsername)
    let pages: TweetPages
    switch options.api {
    case .v2:
      let fields = options.timelineOptions
      if let username {
        let user = try await client.v2.user(username: username)
        pages = client.v2.userTweets(userID: user.id, options: fields, limit: options.limit)
      } else {
        pages = client.v2.homeTimeline(userID: try await userID(nil, client, session, profile: profile), options: fields, limit: options.limit)
      }
    case .v1:
      pages =
        username.map { client.v1.userTimeline(screenName: $0, options: options.v1Window, limit: options.limit) }
        ?? client.v1.homeTimeline(options: options.v1Window, limit: options.limit)
    }
    try await TweetStream.print(pages, session)
    return .success
  }
}
