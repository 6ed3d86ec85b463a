import CommandLineSupport
import DateFormats
import Foundation
import NetworkClient
import XAPI
import XArchive

/// `tweets activity stream`: the events of the app's subscriptions without a webhook, as they
/// come, on X's reconnecting stream. Each event is billed at X's price
/// (``XActivityEventPrice``: posts as posts, follows and received messages $0.010, the others
/// free) and the run stops when the next would pass `--max-cost` or the profile's budget.
extension ActivityCommand {
  func stream(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    let format = session.options.format
    guard format == .text || format == .jsonl else {
      throw UsageError("tweets activity stream writes --format jsonl (the lines of tweets webhook serve) or text")
    }
    let limit = try arguments.value(Self.limit)
    let duration = try arguments.value(Self.duration)
    let output = try arguments.value(Self.output)
    let policy = try StreamCommand.reconnectPolicy(session.environment)
    let client = try await session.appClient(for: "activity stream")
    let terminal = session.terminal
    let report = StreamReport(terminal: terminal, verbose: session.options.verbose, name: "the activity stream")
    let stream = client.v2.activityStream(policy: policy) { report.event($0) }
    let budget = try session.budget.behavior(session)
    let written = Locked(0)
    let stoppedAtLimit = Locked(false)
    do {
      try await Interruption.cancelling(after: duration) {
        let sink = try StreamSink(file: output, terminal: terminal)
        defer { sink.close() }
        let archive = try session.options.database.map { try TweetArchive(path: $0.path) }
        defer { archive?.close() }
        let writer = WebhookEventWriter(receiver: nil, sink: sink, archive: archive, command: session.options.commandLine, terminal: terminal)
        let color = terminal.useColor && sink.isTerminal
        for try await event in stream {
          let now = Date()
          try writer.write([event]) { event in
            format == .text ? Self.text(event, color: color) : WebhookEventWriter.line(event, receivedAt: RFC3339.string(from: now))
          }
          let count = written.withLock { count in
            count += 1
            return count
          }
          report.delivered(count)
          if let limit, count >= limit { break }
          let price = XActivityEventPrice(event)
          if try await !budget.streamed(price.kind, id: price.id) {
            stoppedAtLimit.withLock { $0 = true }
            break
          }
        }
      }
    } catch is Interruption.Stopped {
      // Ctrl-C or SIGTERM: the end the user asked for.
    }
    report.finished(written.withLock { $0 })
    if stoppedAtLimit.withLock({ $0 }) {
      throw TweetsFailure(
        "stopped at the spending limit: \(budget.spent) spent on the stream's events; raise --max-cost (or the profile's budget) to stream longer",
        exitCode: .budget)
    }
    return .success
  }

  /// An event for people: its type, its account, and a post's text when it carries one.
  static func text(_ event: XWebhookEvent, color: Bool) -> String {
    let bold = color ? "\u{1B}[1m" : "", reset = color ? "\u{1B}[0m" : ""
    var line = bold + TerminalText.visible(event.type) + reset + (event.forUserID.map { "  user " + TerminalText.visible($0) } ?? "")
    if let post = event.tweets.first {
      line += "\n  " + TerminalText.visible(post.text.replacingOccurrences(of: "\n", with: " ")) + "  (id " + TerminalText.visible(post.id) + ")"
    }
    return line + "\n"
  }
}
