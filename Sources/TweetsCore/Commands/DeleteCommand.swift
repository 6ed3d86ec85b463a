import CommandLineSupport
import XAPI

/// `tweets delete ID`: deletes one of the account's posts.
struct DeleteCommand: TweetsCommand {
  let name = "delete"
  let shared = SharedOptions.signedIn
  var spec: CommandSpec {
    makeSpec(summary: "Delete one of your posts.", positionals: [PositionalSpec("id", help: "The post's id.")])
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    guard let id = arguments.positionals.first, arguments.positionals.count == 1, id.allSatisfy(\.isNumber) else {
      throw UsageError("give the id of one post (digits)")
    }
    let (client, _) = try session.client(api: .v2)
    guard try await client.v2.deleteTweet(id: id) else { throw TweetsFailure("X did not delete \(id)", exitCode: .failure) }
    session.terminal.out("Deleted \(id).")
    return .success
  }
}
