import CommandLineSupport
import XAPI

/// `tweets blocks` and `tweets mutes`: the accounts you block or mute, in every format, to a
/// file or an archive. X serves them to the account itself only: an owned read ($0.001 an
/// account for the app's owner).
struct ModerationCommand: TweetsCommand {
  /// `blocks` or `mutes`.
  let name: String
  let shared: SharedOptions = [.signedIn, .format, .paging, .output, .database]
  private var scope: String { name == "blocks" ? "block.read" : "mute.read" }

  var spec: CommandSpec {
    makeSpec(
      summary: name == "blocks" ? "The accounts you block, the most recent first." : "The accounts you mute, the most recent first.",
      discussion: """
        X serves them to the account itself only, with OAuth 2.0 user context and the scopes
        \(scope), tweet.read and users.read (tweets login --oauth2), or an OAuth 1.0a login.
        Each account is an owned read when you own the app. Blocking and muting are not
        commands: X sells blocking to Enterprise only since 2026-04-20.
        """)
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    let (client, profile) = try session.client(api: .v2)
    let me = try await userID(nil, client, session, profile: profile)
    let limit = session.options.limit
    let pages = name == "blocks" ? client.v2.blocking(userID: me, limit: limit) : client.v2.muting(userID: me, limit: limit)
    try await ScopeExplanation.explained("Listing them needs OAuth 2.0 user context with the scopes \(scope), tweet.read and users.read") {
      try await TweetStream.print(pages, session)
    }
    return .success
  }
}
