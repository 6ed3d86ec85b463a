import CommandLineSupport
import Foundation

/// `tweets whoami`: the account the credentials belong to.
struct WhoamiCommand: TweetsCommand {
  let name = "whoami"
  let shared: SharedOptions = [.signedIn, .api, .format]
  var spec: CommandSpec { makeSpec(summary: "Show the account the stored credentials belong to.") }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    if session.options.format == .raw { throw UsageError("--format raw is for the commands that fetch tweets or users (X's own responses)") }
    let (client, profile) = try session.client()
    let user = session.options.api == .v1 ? try await client.v1.verifyCredentials() : try await client.v2.me()
    switch session.options.format {
    case .text:
      session.terminal.out(
        TerminalText.visible("@\(user.username) (\(user.name)), id \(user.id), signed in with \(session.authenticationName(profile))"))
    case .json, .jsonl:
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys]
      session.terminal.out(String(decoding: try encoder.encode(user), as: UTF8.self))
    case .csv:
      session.terminal.out("id,username,name\r\n\(user.id),\(TweetWriter.csvField(user.username)),\(TweetWriter.csvField(user.name))")
    case .raw:
      break  // refused above
    }
    return .success
  }
}
