import CommandLineSupport
import DateFormats
import Foundation
import NetworkClient
import XAPI
import XArchive

/// `tweets stream`: the filtered stream's posts as they are posted, written line by line,
/// reconnecting by X's policy; `tweets stream rules [add|delete]`, the rules it matches; and
/// `tweets stream connections [--terminate-all | --terminate ID...]`, the app's connections.
/// App-only, as X requires: `X_BEARER_TOKEN` (the sandbox's demo token with `--sandbox`).
struct StreamCommand: TweetsCommand {
  let name = "stream"
  /// Only the session's options: its format, output and limits are its own (a stream has no
  /// pages, no checkpoint, no csv).
  let shared: SharedOptions = [.session, .database]
  static let format = Option<String>.value(
    "format", placeholder: "jsonl|raw|text", default: .value("jsonl"),
    help: "How each post is written (default \(.default)): jsonl adds the tags of the rules it matched; raw is X's line unchanged.",
    ArgumentConversion(expecting: "jsonl, raw or text") { ["jsonl", "raw", "text"].contains($0) ? $0 : nil })
  static let output = Option<URL?>.value(
    "output", short: "o", placeholder: "FILE", help: "Append the lines to FILE instead of writing them to stdout.", recorded: .omitted, .file)
  static let limit = Option<Int?>.value("limit", placeholder: "N", help: "Stop after N posts.", .integer(in: 1...Int.max))
  static let duration = Option<Double?>.value(
    "duration", placeholder: "SECONDS", help: "Stop after SECONDS seconds.",
    ArgumentConversion(failure: { option, text in "--\(option) takes a number of seconds, not \(text)" }) { text in
      Double(text).flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
    })
  static let tag = Option.value("tag", placeholder: "TAG", help: "rules add: the rule's tag, repeated in each post it matches.")
  static let all = Option.flag("all", help: "rules delete: delete every rule.")
  static let terminateAll = Option.flag(
    "terminate-all", help: "connections: end every connection of the app (a stale one causes 429 TooManyConnections).")
  static let terminate = Option.repeatable(
    "terminate", placeholder: "ID", help: "connections: end these connections (ids as tweets stream connections lists them).")
  /// Multiplies every duration of the reconnect policy: for tests, which cannot wait 20 s.
  static let timeScaleVariable = "TWEETS_STREAM_TIME_SCALE"

  var spec: CommandSpec {
    makeSpec(
      summary:
        "Posts matching your rules as they are posted (X's filtered stream); app-only: X_BEARER_TOKEN, or one obtained from the app's consumer key and secret.",
      options: [Self.format, Self.output, Self.limit, Self.duration, Self.tag, Self.all, Self.terminateAll, Self.terminate],
      positionals: [
        PositionalSpec(
          "rules", help: "rules: list them; rules add QUERY; rules delete ID...; connections: list them", optional: true, variadic: true)
      ],
      discussion: """
        tweets stream rules add QUERY [--tag TAG]   add a rule (X's search syntax; after -- if it starts with -)
        tweets stream rules                         list the rules
        tweets stream rules delete ID... | --all    delete rules
        tweets stream connections [--terminate-all | --terminate ID...]
                                                    list the app's connections, or end them
        tweets stream [--format F] [--output FILE | --db FILE] [--limit N] [--duration SECONDS]
        Each post is one whole line, written as it arrives. Ctrl-C (or SIGTERM) ends the stream
        cleanly (exit 0). A dropped connection is reopened at once; failed ones are retried as X
        asks (x-api/fundamentals/handling-disconnections.mdx): 250 ms more each time up to 16 s
        for network errors, 5 s doubling up to 320 s for HTTP errors, 1 minute doubling for 429;
        20 s without a post or keep-alive counts as a drop. Each reconnect and wait is reported
        on stderr. X allows one connection per app: a 429 TooManyConnections while none of yours
        runs means a stale one (a crashed collector's); tweets stream connections --terminate-all
        ends it.
        """)
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    let words = arguments.positionals
    guard let first = words.first else { return try await stream(arguments, session) }
    if first == "connections" { return try await connections(arguments, session) }
    if arguments[Self.terminateAll] || !arguments[Self.terminate].isEmpty {
      throw UsageError("--terminate-all and --terminate are for tweets stream connections")
    }
    guard first == "rules" else {
      throw UsageError("tweets stream takes no argument but rules or connections: tweets stream rules [add QUERY | delete ID...]")
    }
    let client = try await session.appClient(for: "stream rules")
    let terminal = session.terminal
    switch words.dropFirst().first {
    case nil, "list":
      guard words.count <= 2 else { throw UsageError("tweets stream rules (list) takes no more arguments") }
      let rules = try await client.v2.streamRules()
      if rules.isEmpty { terminal.err("No rules: add one with tweets stream rules add QUERY [--tag TAG].") }
      for rule in rules { terminal.out(TerminalText.visible("\(rule.id)  \(rule.value)" + (rule.tag.map { "  (tag: \($0))" } ?? ""))) }
    case "add":
      let query = words.dropFirst(2).joined(separator: " ")
      guard !query.trimmingCharacters(in: .whitespaces).isEmpty else {
        throw UsageError("the rule is empty: tweets stream rules add QUERY [--tag TAG]")
      }
      let update = try await client.v2.addStreamRules([StreamRule.New(value: query, tag: arguments[Self.tag])])
      for rule in update.rules {
        terminal.out(TerminalText.visible("Added rule \(rule.id): \(rule.value)" + (rule.tag.map { " (tag: \($0))" } ?? "")))
      }
    case "delete":
      let ids = Array(words.dropFirst(2))
      if arguments[Self.all] {
        guard ids.isEmpty else { throw UsageError("give rule ids or --all, not both") }
        let rules = try await client.v2.streamRules()
        guard !rules.isEmpty else {
          terminal.out("No rules to delete.")
          return .success
        }
        let update = try await client.v2.deleteStreamRules(ids: rules.map(\.id))
        terminal.out("Deleted \(update.summary["deleted"] ?? rules.count) rules.")
      } else {
        guard !ids.isEmpty else { throw UsageError("tweets stream rules delete takes rule ids (see tweets stream rules) or --all") }
        if let bad = ids.first(where: { !IDLookup.isTweetID($0) }) { throw UsageError("\(CommandSpec.shown(bad)) is not a rule id") }
        let update = try await client.v2.deleteStreamRules(ids: ids)
        terminal.out("Deleted \(update.summary["deleted"] ?? ids.count) of \(ids.count) rules.")
      }
    case let other?:
      throw UsageError("tweets stream rules takes add or delete, not \(CommandSpec.shown(other))")
    }
    return .success
  }

  /// `tweets stream connections`: the app's active connections (one line each: id, stream,
  /// since when, from where), or with `--terminate-all` / `--terminate ID` ended.
  private func connections(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    // `--terminate A B` as well as `--terminate A --terminate B`.
    let ids = arguments[Self.terminate] + arguments.positionals.dropFirst()
    guard arguments.positionals.count == 1 || !arguments[Self.terminate].isEmpty else {
      throw UsageError("tweets stream connections takes no more arguments (--terminate ID... to end connections)")
    }
    let all = arguments[Self.terminateAll]
    if all && !ids.isEmpty { throw UsageError("give --terminate ID... or --terminate-all, not both") }
    let client = try await session.appClient(for: "stream connections")
    let terminal = session.terminal
    if all || !ids.isEmpty {
      let kills = try await all ? client.v2.terminateAllStreamConnections() : client.v2.terminateStreamConnections(uuids: ids)
      for result in kills.results where !result.success {
        terminal.err(TerminalText.visible("tweets: \(result.uuid) was not ended: \(result.errorMessage ?? "X gave no reason")"))
      }
      terminal.out(
        "Ended \(kills.successfulKills) connection\(kills.successfulKills == 1 ? "" : "s")"
          + (kills.failedKills > 0 ? "; \(kills.failedKills) could not be ended." : "."))
      return kills.failedKills > 0 ? .failure : .success
    }
    let connections = try await client.v2.streamConnections()
    if connections.isEmpty { terminal.err("No active connections.") }
    for connection in connections {
      let since = connection.connectedAt.map { " since " + RFC3339.string(from: $0) } ?? ""
      terminal.out(
        TerminalText.visible("\(connection.id)  \(connection.endpointName ?? "stream")\(since)" + (connection.clientIP.map { " from \($0)" } ?? "")))
    }
    return .success
  }

  /// X's reconnect policy, its waits scaled by ``timeScaleVariable`` when set (the sandbox's
  /// tests run a stream's minutes in seconds): the filtered stream's and the activity stream's.
  static func reconnectPolicy(_ environment: [String: String]) throws -> StreamReconnectPolicy {
    guard let text = environment[timeScaleVariable] else { return .x }
    guard let scale = Double(text), scale > 0, scale <= 1 else {
      throw UsageError("\(timeScaleVariable) takes a number above 0 and at most 1, not \(text)")
    }
    return StreamReconnectPolicy.x.scaled(by: scale)
  }

  /// The stream itself, until --limit, --duration, SIGINT or SIGTERM.
  private func stream(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    if arguments.has(Self.tag) || arguments[Self.all] { throw UsageError("--tag and --all are for tweets stream rules add and delete") }
    if arguments[Self.terminateAll] || !arguments[Self.terminate].isEmpty {
      throw UsageError("--terminate-all and --terminate are for tweets stream connections")
    }
    let format = try arguments.value(Self.format)
    let limit = try arguments.value(Self.limit)
    let duration = try arguments.value(Self.duration)
    let policy = try Self.reconnectPolicy(session.environment)
    let client = try await session.appClient(for: "stream")
    let output = try arguments.value(Self.output)
    let database = session.options.database
    let terminal = session.terminal
    let report = StreamReport(terminal: terminal, verbose: session.options.verbose)
    let stream = client.v2.filteredStream(options: session.options.timelineOptions, policy: policy) { report.event($0) }
    let commandLine = session.options.commandLine
    let written = Locked(0)
    let budget = try session.budget.behavior(session)
    // X bills each post the stream delivers; the stream stops when the next one no longer fits.
    let stoppedAtLimit = Locked(false)
    do {
      // SIGINT, SIGTERM and --duration cancel the reading; the line in hand is finished first.
      try await Interruption.cancelling(after: duration) {
        // With --db the posts go to the archive, and nothing is written.
        let sink = database == nil ? try StreamSink(file: output, terminal: terminal) : nil
        defer { sink?.close() }
        let archive = try database.map { try TweetArchive(path: $0.path) }
        defer { archive?.close() }
        var fetch = try archive?.beginFetch(command: commandLine, resume: false)
        let now = Date()
        for try await item in stream {
          if let archive, var current = fetch {
            try archive.store(
              streamed: item.tweet, body: item.line, users: item.includes.users,
              matching: item.matchingRules, in: &current)
            fetch = current
          } else if let sink {
            sink.write(StreamLineFormat.line(item, format: format, now: now, color: terminal.useColor && sink.isTerminal))
            try sink.check()
          }
          let count = written.withLock { count in
            count += 1
            return count
          }
          report.delivered(count)
          if let limit, count >= limit { break }
          if try await !budget.streamed(postID: item.tweet.id) {
            stoppedAtLimit.withLock { $0 = true }
            break
          }
        }
        if let archive, var current = fetch { try archive.complete(&current) }
      }
    } catch is Interruption.Stopped {
      // Ctrl-C or SIGTERM: the end the user asked for.
    }
    report.finished(written.withLock { $0 })
    if stoppedAtLimit.withLock({ $0 }) {
      if let limit = budget.limit, budget.spent + budget.pricing.price(of: .post) > limit {
        throw TweetsFailure(
          "stopped at the spending limit: \(budget.spent) of \(limit) spent on the stream's posts; raise --max-cost to stream longer",
          exitCode: .budget)
      }
      throw TweetsFailure(
        "stopped at the profile's spending limit for \(budget.shared?.scope ?? "the billing cycle"): \(budget.spent) spent on the stream's posts; "
          + "raise it (tweets budget) to stream longer", exitCode: .budget)
    }
    return .success
  }
}

/// One post as a line of the chosen format.
enum StreamLineFormat {
  static func line(_ item: StreamedTweet, format: String, now: Date, color: Bool) -> String {
    switch format {
    case "raw":
      return String(decoding: item.line, as: UTF8.self) + "\n"
    case "text":
      let tags = item.matchingRules.map { $0.tag ?? $0.id }
      return item.tweet.text(now: now, color: color) + (tags.isEmpty ? "" : "\n  rules: " + tags.joined(separator: ", ")) + "\n\n"
    default:
      let encoded = TweetWriter.json(item.tweet)
      guard var object = (try? JSONSerialization.jsonObject(with: Data(encoded.utf8))) as? [String: Any] else { return encoded + "\n" }
      object["matching_rules"] = item.matchingRules.map { rule -> [String: Any] in
        rule.tag.map { ["id": rule.id, "tag": $0] } ?? ["id": rule.id]
      }
      let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data(encoded.utf8)
      return String(decoding: data, as: UTF8.self) + "\n"
    }
  }
}

/// Where the lines go: stdout, or appended to a file (`O_APPEND`), each line in one write.
/// A write that fails is kept (``CheckedOutput``), and ``check()`` ends the stream with it.
final class StreamSink: Sendable {
  private let file: CheckedOutput?
  private let terminal: Terminal
  let isTerminal: Bool

  init(file: URL?, terminal: Terminal) throws {
    self.terminal = terminal
    isTerminal = file == nil && terminal.isInteractive
    guard let file else {
      self.file = nil
      return
    }
    let descriptor = open(file.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw TweetsFailure(
        "cannot write to \(file.path): \(String(cString: strerror(errno))): check the folder exists and is writable", exitCode: .failure)
    }
    self.file = CheckedOutput(descriptor: descriptor, naming: file.path)
  }

  func write(_ line: String) {
    if let file { file.write(line) } else { terminal.writeOut(line) }
  }

  /// Throws the first line that could not be written: the stream stops there, since every
  /// post it delivers is paid for.
  func check() throws(WriteFailure) {
    if let file { try file.check() } else { try terminal.checkOutput() }
  }

  func close() {
    guard let file else { return }
    fsync(file.descriptor)
    Foundation.close(file.descriptor)
  }
}

/// What `tweets stream` says on stderr: each reconnect and wait, and (on a terminal) progress.
final class StreamReport: Sendable {
  private let terminal: Terminal
  private let verbose: Bool
  private let started = Date()
  /// The stream's name in its messages: "the filtered stream", "the activity stream".
  private let name: String
  /// How many times the stream reconnected, and when the status line was last drawn.
  private let progress = Locked((reconnects: 0, lastStatus: Date.distantPast))

  init(terminal: Terminal, verbose: Bool, name: String = "the filtered stream") {
    self.terminal = terminal
    self.verbose = verbose
    self.name = name
  }

  private func say(_ line: String) {
    terminal.status("")
    terminal.err(line)
  }

  func event(_ event: FilteredStreamEvent) {
    switch event {
    case .connected(let attempt):
      say(attempt == 1 ? "tweets: connected to \(name) (Ctrl-C to stop)." : "tweets: reconnected (attempt \(attempt)).")
    case .dropped(let reason):
      progress.withLock { $0.reconnects += 1 }
      say("tweets: the stream dropped (\(reason)); reconnecting at once.")
    case .waiting(let seconds, let failure, let consecutive, let reason):
      progress.withLock { $0.reconnects += 1 }
      let kind: String
      switch failure {
      case .network: kind = "a network error"
      case .http: kind = "an HTTP error"
      case .rateLimited: kind = "a 429"
      case .dropped: kind = "a drop"
      }
      if reason.contains("TooManyConnections") {
        say(
          "tweets: X allows one stream connection per app and counts one already: if no collector of yours is running, a stale connection holds it; end it with tweets stream connections --terminate-all"
        )
      }
      say(
        "tweets: the stream could not connect (\(reason)); waiting \(String(format: "%.2f", seconds)) s before reconnecting (X's back-off after \(kind), \(consecutive) in a row)."
      )
    case .keepAlive:
      if verbose { say("[verbose] keep-alive") }
    case .message(let text):
      say("tweets: X says: \(text)")
    }
  }

  func delivered(_ count: Int) {
    guard terminal.errorIsInteractive else { return }
    let now = Date()
    let (show, reconnects) = progress.withLock { progress -> (Bool, Int) in
      guard now.timeIntervalSince(progress.lastStatus) >= 0.25 else { return (false, 0) }
      progress.lastStatus = now
      return (true, progress.reconnects)
    }
    guard show else { return }
    let rate = Double(count) / max(0.001, now.timeIntervalSince(started))
    terminal.status("\(count) posts · \(String(format: "%.1f", rate))/s · \(reconnects) reconnect\(reconnects == 1 ? "" : "s")")
  }

  func finished(_ count: Int) {
    let seconds = Date().timeIntervalSince(started)
    let reconnects = progress.withLock { $0.reconnects }
    say(
      "tweets: \(count) post\(count == 1 ? "" : "s") in \(String(format: "%.1f", seconds)) s, \(reconnects) reconnect\(reconnects == 1 ? "" : "s").")
  }
}
