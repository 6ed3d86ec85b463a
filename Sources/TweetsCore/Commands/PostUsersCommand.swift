import CommandLineSupport
import XAPI

/// `tweets likers POST_ID` and `tweets reposters POST_ID`: the accounts that liked or reposted
/// a post, in every format, to a file or an archive. Each account is a user read ($0.010).
struct PostUsersCommand: TweetsCommand {
  /// `likers` or `reposters`.
  let name: String
  let shared: SharedOptions = [.signedIn, .format, .paging, .output, .database]

  var spec: CommandSpec {
    makeSpec(
      summary: name == "likers" ? "The accounts that liked a post." : "The accounts that reposted a post.",
      positionals: [PositionalSpec("id", help: "The post's id.")],
      discussion: name == "likers"
        ? """
        X serves them to user context only: OAuth 1.0a, or OAuth 2.0 with the scopes like.read,
        tweet.read and users.read. Each account is billed as a user read.
        """
        : "Each account is billed as a user read.")
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    let id = try tweetID(arguments, what: "post id")
    let (client, _) = try session.client(api: .v2)
    let limit = session.options.limit
    let pages = name == "likers" ? client.v2.likingUsers(tweetID: id, limit: limit) : client.v2.repostedBy(tweetID: id, limit: limit)
    try await ScopeExplanation.explained("Liking users need OAuth 2.0 user context with the scopes like.read, tweet.read and users.read") {
      try await TweetStream.print(pages, session)
    }
    return .success
  }
}
