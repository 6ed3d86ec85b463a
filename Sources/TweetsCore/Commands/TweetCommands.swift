import CommandLineSupport
import Foundation
import NetworkClient
import XAPI

/// `tweets timeline [USERNAME]`: a user's tweets, or the home timeline.
struct TimelineCommand: TweetsCommand {
  let name = "timeline"
  let shared: SharedOptions = [.tweetPages, .api, .window]
  var spec: CommandSpec {
    makeSpec(
      summary: "Show a user's tweets, or your home timeline without a name.",
      positionals: [PositionalSpec("username", help: "Whose tweets (with or without @).", optional: true)])
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    let (client, profile) = try session.client()
    let options = session.options
    let username = arguments.positionals.first.map(Self.bareUsername)
    let pages: TweetPages
    switch options.api {
    case .v2:
      let fields = options.timelineOptions
      if let username {
        let user = try await client.v2.user(username: username)
        pages = client.v2.userTweets(userID: user.id, options: fields, limit: options.limit)
      } else {
        pages = client.v2.homeTimeline(userID: try await userID(nil, client, session, profile: profile), options: fields, limit: options.limit)
      }
    case .v1:
      pages =
        username.map { client.v1.userTimeline(screenName: $0, options: options.v1Window, limit: options.limit) }
        ?? client.v1.homeTimeline(options: options.v1Window, limit: options.limit)
    }
    try await TweetStream.print(pages, session)
    return .success
  }
}

/// `tweets search QUERY`.
struct SearchCommand: TweetsCommand {
  let name = "search"
  let shared: SharedOptions = [.tweetPages, .api, .window]
  static let archive = Option.flag("archive", help: "Full-archive search (/2/tweets/search/all; X API Pro or Enterprise only).")
  var spec: CommandSpec {
    makeSpec(
      summary: "Search recent tweets (the last 7 days), or the full archive with --archive.", options: [Self.archive],
      positionals: [PositionalSpec("query", help: "The query (X's search syntax).", variadic: true)])
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    let query = arguments.positionals.joined(separator: " ")
    guard !query.trimmingCharacters(in: .whitespaces).isEmpty else { throw UsageError("the query is empty") }
    let options = session.options
    let archive = arguments[Self.archive]
    if archive && options.api == .v1 { throw UsageError("--archive is v2's full-archive search; leave out --api 1.1") }
    // Full-archive search is app-only at X.
    let client = archive ? try session.appClient(for: "search --archive") : try session.client().client
    let pages =
      archive
      ? client.v2.searchAll(query: query, options: options.timelineOptions, limit: options.limit)
      : options.api == .v2
        ? client.v2.searchRecent(query: query, options: options.timelineOptions, limit: options.limit)
        : client.v1.search(query: query, options: options.v1Window, limit: options.limit)
    try await Self.print(pages, archive: archive, session)
    return .success
  }

  /// Writes the pages; a full-archive search refused for the app's access tier says so plainly.
  static func print(_ pages: TweetPages, archive: Bool, _ session: Session) async throws {
    do {
      try await TweetStream.print(pages, session)
    } catch let error as XError where archive {
      switch error {
      case .clientNotEnrolled, .accessLevel:
        throw TweetsFailure(
          "full-archive search (/2/tweets/search/all) needs X API Pro or Enterprise access, which this app does not have (\(error.description)). "
            + "Without --archive, search covers the last 7 days.",
          exitCode: .authentication)
      default:
        throw error
      }
    }
  }
}

/// `tweets show ID...`.
struct ShowCommand: TweetsCommand {
  let name = "show"
  let shared: SharedOptions = [.signedIn, .api, .format, .tweetFields]
  var spec: CommandSpec {
    makeSpec(summary: "Show tweets by id.", positionals: [PositionalSpec("id", help: "Tweet ids.", variadic: true)])
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    let ids = arguments.positionals
    if let bad = ids.first(where: { !IDLookup.isTweetID($0) }) {
      throw UsageError("\"\(bad)\" is not a tweet id")
    }
    return try await IDLookup.write(ids, session)
  }
}

/// Looks tweets up by id and writes them in the order the ids were given: `show` and `hydrate`.
enum IDLookup {
  static func isTweetID(_ text: String) -> Bool {
    !text.isEmpty && text.count <= 19 && text.allSatisfy(\.isASCIIDigit)
  }

  /// Writes the tweets of `ids` in their order (v2: batches of 100; v1.1: one by one), reports
  /// each id X did not return (deleted, withheld, protected, never existed) on stderr, and
  /// returns ``ExitCode/notFound`` when there was any.
  static func write(_ ids: [String], _ session: Session) async throws -> ExitCode {
    if session.options.format == .raw && session.options.api == .v1 {
      throw UsageError("--format raw shows tweets with --api v2 (X's lookup answer); v1.1 looks tweets up one by one")
    }
    let (client, _) = try session.client()
    let terminal = session.terminal
    let writer = TweetWriter(format: session.options.format, terminal: terminal)
    var missing: [String] = []
    defer { terminal.status("") }
    switch session.options.api {
    case .v2:
      for start in stride(from: 0, to: ids.count, by: 100) {
        let batch = Array(ids[start..<min(start + 100, ids.count)])
        // Each id once, in the input's order (X answers in the order asked).
        var seen = Set<String>()
        let lookup = try await client.v2.tweets(ids: batch.filter { seen.insert($0).inserted }, options: session.options.timelineOptions)
        let found = Dictionary(lookup.tweets.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        writer.writeRaw(lookup.body)
        for id in batch {
          if let tweet = found[id] { writer.write(tweet) } else { missing.append(id) }
        }
        for problem in lookup.errors { terminal.err("tweets: \(problem.description)") }
        terminal.status("… \(min(start + 100, ids.count)) of \(ids.count) ids looked up")
      }
    case .v1:
      for id in ids {
        let result: Result<Tweet, XError>
        do { result = .success(try await client.v1.show(id: id)) } catch { result = .failure(error) }
        switch result {
        case .success(let tweet):
          writer.write(tweet)
        case .failure(.notFound(let message)):
          missing.append(id)
          terminal.err("tweets: \(id): \(message)")
        case .failure(let error):
          writer.finish()
          throw error
        }
      }
    }
    writer.finish()
    if !missing.isEmpty {
      terminal.status("")
      terminal.err("tweets: \(missing.count) of \(ids.count) ids not returned (deleted, withheld, protected or unknown).")
    }
    return missing.isEmpty ? .success : .notFound
  }
}

/// `tweets hydrate [FILE|-]`: the tweets of a list of ids, as archives and datasets ship them.
struct HydrateCommand: TweetsCommand {
  let name = "hydrate"
  let shared: SharedOptions = [.signedIn, .api, .format, .tweetFields]
  var spec: CommandSpec {
    makeSpec(
      summary: "Look up the tweets of a list of ids (one per line, or JSON lines with an \"id\"), in their order.",
      positionals: [PositionalSpec("file", help: "The ids' file; standard input when absent or \"-\".", optional: true)],
      discussion: """
        Ids go to X in batches of 100; the tweets come out in the order of the input. Each id X does
        not return (deleted, withheld, protected, unknown) is reported on stderr, and the exit status
        is then 4.
        """)
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    let lines: [String]
    if let path = arguments.positionals.first, path != "-" {
      guard let data = FileManager.default.contents(atPath: path) else { throw TweetsFailure("cannot read \(path)", exitCode: .failure) }
      lines = String(decoding: data, as: UTF8.self).split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
    } else {
      var read: [String] = []
      while let line = session.terminal.readLine() { read.append(line) }
      lines = read
    }
    var ids: [String] = []
    for (number, line) in lines.enumerated() {
      let text = line.trimmingCharacters(in: .whitespaces)
      if text.isEmpty { continue }
      guard let id = Self.id(in: text), IDLookup.isTweetID(id) else {
        throw UsageError("line \(number + 1) is neither a tweet id nor a JSON object with an \"id\": \(CommandSpec.shown(text))")
      }
      ids.append(id)
    }
    guard !ids.isEmpty else { throw UsageError("no tweet ids in the input") }
    return try await IDLookup.write(ids, session)
  }

  /// The id a line gives: the line itself, or the `id` (or `id_str`) of a JSON object.
  static func id(in line: String) -> String? {
    guard line.hasPrefix("{") else { return line }
    guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
    if let id = object["id_str"] as? String ?? object["id"] as? String { return id }
    return (object["id"] as? NSNumber)?.stringValue
  }
}

/// Streams pages to the output as they arrive. When standard error is a terminal, whatever
/// standard output is (`tweets timeline x --all > out.jsonl`), one status line there says how far
/// it got (tweets, pages, rate, elapsed time), rewritten in place after each page and cleared
/// before anything else is written; nothing is shown when standard error is not a terminal.
enum TweetStream {
  static func print<Item: OutputRecord>(_ pages: Pages<Item>, _ session: Session) async throws {
    if let file = session.options.output { return try await write(pages, to: file, session) }
    let terminal = session.terminal
    let writer = RecordWriter<Item>(format: session.options.format, terminal: terminal)
    let start = Date()
    var pageCount = 0
    func progress() -> String {
      Self.progress(Item.self, written: writer.written, fetched: writer.written, pages: pageCount, since: start, file: nil)
    }
    do {
      for try await page in pages {
        pageCount += 1
        terminal.status("")
        page.items.forEach(writer.write)
        writer.writeRaw(page.body)
        for problem in page.partialErrors { terminal.err("tweets: \(problem.description)") }
        terminal.status("… " + progress())
      }
    } catch {
      terminal.status("")
      writer.finish()
      throw error
    }
    writer.finish()
    // The last status stays, as a line of its own.
    terminal.status(terminal.errorIsInteractive ? "done: " + progress() + "\n" : "")
  }
}

extension TweetStream {
  /// The status line: records written (to `file`, when there is one), pages, the rate of this
  /// run's records, and the time elapsed.
  static func progress<Item: OutputRecord>(
    _: Item.Type, written: Int, fetched: Int, pages: Int, since start: Date, file: URL?
  ) -> String {
    let elapsed = Date().timeIntervalSince(start)
    let rate = Int((elapsed > 0 ? Double(fetched) / elapsed : 0).rounded())
    return "\(written) \(Item.plural)" + (file.map { " in \($0.lastPathComponent)" } ?? "") + ", \(pages) page\(pages == 1 ? "" : "s")"
      + (file == nil ? "" : " this run") + ", \(rate) \(Item.plural)/s, " + String(format: "%.1f s", elapsed)
  }

  /// `--output FILE`: each page appended and committed with its checkpoint (``ResumableOutput``);
  /// with `--resume`, from the checkpoint's cursor. Any failure leaves the checkpoint of the last
  /// whole page and says how to resume.
  static func write<Item: OutputRecord>(_ pages: Pages<Item>, to file: URL, _ session: Session) async throws {
    let terminal = session.terminal
    let output = try ResumableOutput(file: file, command: session.options.commandLine, resume: session.options.resume)
    let committed = output.checkpoint
    if committed.complete {
      terminal.err("tweets: \(file.path) is complete (\(committed.records) \(Item.plural)): nothing to resume")
      return
    }
    if output.resumed {
      terminal.err("tweets: resuming after \(committed.records) \(Item.plural) (\(committed.pages) pages) in \(file.path)")
    } else if session.options.resume {
      terminal.err("tweets: no checkpoint for \(file.path) yet: fetching from the beginning")
    }
    var pageText = ""
    let writer = RecordWriter<Item>(format: session.options.format, alreadyWritten: committed.records) { pageText += $0 }
    let remaining = session.options.limit.map { max($0 - committed.records, 0) }
    let start = Date()
    var pageCount = 0
    func progress() -> String {
      Self.progress(
        Item.self, written: writer.written, fetched: writer.written - committed.records, pages: pageCount, since: start, file: file)
    }
    do {
      var iterator = pages.resuming(from: committed.pageCursor, limit: remaining).makeAsyncIterator()
      var done = false
      while let page = try await iterator.next() {
        pageCount += 1
        page.items.forEach(writer.write)
        writer.writeRaw(page.body)
        // The last page and the end of the fetch are one commit: no moment where the file is
        // whole but the checkpoint does not say so (a resume would then start over).
        done = iterator.isFinished
        if done { writer.finish() }
        try output.commit(pageText, records: writer.written, next: done ? nil : page.next, complete: done)
        pageText = ""
        terminal.status("")
        for problem in page.partialErrors { terminal.err("tweets: \(problem.description)") }
        terminal.status("… " + progress())
      }
      if !done {
        // No page at all (a limit already reached): the end, with what the format closes.
        writer.finish()
        try output.commit(pageText, records: writer.written, next: nil, complete: true)
      }
    } catch {
      terminal.status("")
      terminal.err("tweets: stopped after \(output.checkpoint.records) \(Item.plural) in \(file.path); the checkpoint is saved. Resume with:")
      terminal.err("  " + output.resumeCommand)
      throw error
    }
    terminal.status(terminal.errorIsInteractive ? "done: " + progress() + "\n" : "")
  }
}

extension V1TimelineOptions {
  /// v1.1's `max_id` is inclusive; `--until-id` is not.
  static func inclusive(before id: String) -> String? {
    UInt64(id).flatMap { $0 > 0 ? String($0 - 1) : nil }
  }
}
