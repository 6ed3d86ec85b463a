import CommandLineSupport
import XAPI

/// `tweets reposts-of-me`: the reposts other accounts made of your posts, most recent first,
/// in every format, to a file or an archive (each a post read, $0.005).
struct RepostsOfMeCommand: TweetsCommand {
  let name = "reposts-of-me"
  let shared = SharedOptions.tweetPages

  var spec: CommandSpec {
    makeSpec(
      summary: "The reposts of your posts, most recent first.",
      discussion: """
        X serves them to user context only: OAuth 1.0a, or OAuth 2.0 with the scopes
        timeline.read and tweet.read. Each repost is billed as a post read.
        """)
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    let (client, _) = try session.client(api: .v2)
    let pages = client.v2.repostsOfMe(options: session.options.timelineOptions, limit: session.options.limit)
    try await ScopeExplanation.explained("The reposts of your posts need OAuth 2.0 user context with the scopes timeline.read and tweet.read") {
      try await TweetStream.print(pages, session)
    }
    return .success
  }
}
