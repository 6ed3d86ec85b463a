import CommandLineSupport
import XAPI

/// `tweets conversation ID`.
struct ConversationCommand: TweetsCommand {
  let name = "conversation"
  let shared: SharedOptions = [.tweetPages, .window]
  var spec: CommandSpec {
    makeSpec(
      summary: "The tweets of a conversation (recent search for conversation_id; --archive for older ones).",
      options: [SearchCommand.archive, Estimate.option],
      positionals: [PositionalSpec("id", help: "The conversation's id: the id of the tweet that started it.")])
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    let id = try tweetID(arguments)
    let archive = arguments[SearchCommand.archive]
    if arguments[Estimate.option] { return try await Estimate.run(query: "conversation_id:\(id)", archive: archive, session) }
    let client = archive ? try await session.appClient(for: "conversation --archive") : try session.client().client
    let options = session.options.timelineOptions, limit = session.options.limit
    let pages =
      archive
      ? client.v2.searchAll(query: "conversation_id:\(id)", options: options, limit: limit)
      : client.v2.conversation(id: id, options: options, limit: limit)
    try await SearchCommand.print(pages, archive: archive, session)
    return .success
  }
}
