import CommandLineSupport
import XAPI

/// `tweets followers [USERNAME]` and `tweets following [USERNAME]`: users, in every format.
struct FollowsCommand: TweetsCommand {
  /// `followers` or `following`.
  let name: String
  /// Users, not tweets: no window, no tweet fields.
  let shared: SharedOptions = [.signedIn, .format, .paging, .output, .database]
  var spec: CommandSpec {
    makeSpec(
      summary: name == "followers" ? "The accounts that follow a user (you, without a name)." : "The accounts a user follows (you, without a name).",
      positionals: [PositionalSpec("username", help: "Whose (with or without @).", optional: true)])
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    let (client, profile) = try session.client()
    let id = try await userID(arguments.positionals.first, client, session, profile: profile)
    let limit = session.options.limit
    try await TweetStream.print(
      name == "followers" ? client.v2.followers(userID: id, limit: limit) : client.v2.following(userID: id, limit: limit), session)
    return .success
  }
}
