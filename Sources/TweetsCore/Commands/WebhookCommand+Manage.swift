import CommandLineSupport
import DateFormats
import Foundation
import XAPI

/// `tweets webhook register|list|check|delete|replay`: the app's webhooks at X, app-only (a
/// bearer token, `X_BEARER_TOKEN` or one obtained from the consumer key and secret), as X
/// serves them.
extension WebhookCommand {
  func manage(_ action: String, _ words: [String], _ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    let usage: UsageError
    switch action {
    case "register": usage = UsageError("tweets webhook register URL (a public https:// URL without a port)")
    case "list": usage = UsageError("tweets webhook list takes no argument")
    case "replay": usage = UsageError("tweets webhook replay ID --from TIME --to TIME")
    default: usage = UsageError("tweets webhook \(action) ID (digits, from tweets webhook list)")
    }
    guard words.count == (action == "list" ? 0 : 1) else { throw usage }
    let from = try arguments.value(Self.from), to = try arguments.value(Self.to)
    if action != "replay", from != nil || to != nil { throw UsageError("--from and --to are for tweets webhook replay") }
    if session.options.database != nil { throw UsageError("--db is for tweets webhook serve") }
    if action != "list" { try Self.checkID(words[0], action: action) }
    if session.options.format == .raw { throw UsageError("--format raw is for posts; tweets webhook list takes text, json, jsonl or csv") }
    let client = try await session.appClient(for: "webhook \(action)")
    let terminal = session.terminal
    switch action {
    case "register":
      let webhook = try await client.v2.registerWebhook(url: words[0])
      terminal.out(TerminalText.visible("Registered webhook \(webhook.id) for \(webhook.url)" + (webhook.valid ? "; it answered X's CRC." : ".")))
    case "list":
      let writer = RecordWriter<XWebhookConfig>(format: session.options.format, terminal: terminal)
      let webhooks = try await client.v2.webhooks()
      if webhooks.isEmpty, session.options.format == .text { terminal.err("No webhooks registered for this app.") }
      webhooks.forEach(writer.write)
      writer.finish()
    case "check":
      let attempted = try await client.v2.recheckWebhook(id: words[0])
      terminal.out(
        TerminalText.visible(
          attempted
            ? "X sent webhook \(words[0]) a CRC; tweets webhook list says whether it passed."
            : "X did not check webhook \(words[0]) again."))
    case "delete":
      let deleted = try await client.v2.deleteWebhook(id: words[0])
      terminal.out(TerminalText.visible(deleted ? "Deleted webhook \(words[0])." : "X did not say webhook \(words[0]) was deleted."))
      return deleted ? .success : .failure
    default:
      guard let from, let to else { throw UsageError("tweets webhook replay needs --from TIME and --to TIME (ISO 8601)") }
      guard from < to else { throw UsageError("--from must come before --to") }
      let job = try await client.v2.replayWebhookEvents(webhookID: words[0], from: from, to: to)
      terminal.out(
        TerminalText.visible(
          "Replay job \(job.id): X delivers the events of \(RFC3339.string(from: from)) to \(RFC3339.string(from: to)) to webhook \(words[0]) again."
        ))
    }
    return .success
  }

  /// A webhook id: digits, as X writes them (1 to 19).
  static func checkID(_ id: String, action: String) throws {
    guard action != "register" else { return }
    guard (1...19).contains(id.count), id.allSatisfy({ $0.isASCII && $0.isNumber }) else {
      throw UsageError("\(CommandSpec.shown(id)) is not a webhook id (digits, from tweets webhook list)")
    }
  }
}
