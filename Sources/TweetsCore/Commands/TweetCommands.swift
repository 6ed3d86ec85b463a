import CommandLineSupport
import Foundation
import NetworkClient
import XAPI

/// `tweets timeline [USERNAME]`: a user's tweets, or the home timeline.
struct TimelineCommand: TweetsCommand {
  let name = "timeline"
  var spec: CommandSpec {
    makeSpec(
      summary: "Show a user's tweets, or your home timeline without a name.",
      positionals: [PositionalSpec("username", help: "Whose tweets (with or without @).", optional: true)])
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    let (client, profile) = try session.client()
    let options = session.options
    let username = arguments.positionals.first.map { $0.hasPrefix("@") ? String($0.dropFirst()) : $0 }
    let pages: TweetPages
    switch options.api {
    case .v2:
      var fields = TimelineOptions(sinceID: options.sinceID, untilID: options.untilID)
      fields.userFields = ["username", "name"]
      if let username {
        let user = try await client.v2.user(username: username)
        pages = client.v2.userTweets(userID: user.id, options: fields, limit: options.limit)
      } else {
        let id: String
        if let stored = profile?.userID, session.environment["X_ACCESS_TOKEN"] == nil { id = stored } else { id = try await client.v2.me().id }
        pages = client.v2.homeTimeline(userID: id, options: fields, limit: options.limit)
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
  var spec: CommandSpec {
    makeSpec(summary: "Search recent tweets.", positionals: [PositionalSpec("query", help: "The query (X's search syntax).", variadic: true)])
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    let query = arguments.positionals.joined(separator: " ")
    guard !query.trimmingCharacters(in: .whitespaces).isEmpty else { throw UsageError("the query is empty") }
    let (client, _) = try session.client()
    let options = session.options
    let pages =
      options.api == .v2
      ? client.v2.searchRecent(query: query, options: TimelineOptions(sinceID: options.sinceID, untilID: options.untilID), limit: options.limit)
      : client.v1.search(query: query, options: options.v1Window, limit: options.limit)
    try await TweetStream.print(pages, session)
    return .success
  }
}

/// `tweets show ID...`.
struct ShowCommand: TweetsCommand {
  let name = "show"
  var spec: CommandSpec {
    makeSpec(summary: "Show tweets by id.", positionals: [PositionalSpec("id", help: "Tweet ids.", variadic: true)])
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    let ids = arguments.positionals
    if let bad = ids.first(where: { $0.isEmpty || $0.count > 19 || !$0.allSatisfy(\.isASCIIDigit) }) {
      throw UsageError("\"\(bad)\" is not a tweet id")
    }
    if session.options.format == .raw && session.options.api == .v1 {
      throw UsageError("--format raw shows tweets with --api v2 (X's lookup answer); v1.1 looks tweets up one by one")
    }
    let (client, _) = try session.client()
    let writer = TweetWriter(format: session.options.format, terminal: session.terminal)
    var missing: [String] = []
    switch session.options.api {
    case .v2:
      for start in stride(from: 0, to: ids.count, by: 100) {
        let lookup = try await client.v2.tweets(ids: Array(ids[start..<min(start + 100, ids.count)]))
        lookup.tweets.forEach(writer.write)
        writer.writeRaw(lookup.body)
        for problem in lookup.errors {
          missing.append(problem.resourceID ?? problem.value ?? "?")
          session.terminal.err("tweets: \(problem.description)")
        }
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
          session.terminal.err("tweets: \(id): \(message)")
        case .failure(let error):
          writer.finish()
          throw error
        }
      }
    }
    writer.finish()
    return missing.isEmpty ? .success : .notFound
  }
}

/// `tweets post TEXT`.
struct PostCommand: TweetsCommand {
  let name = "post"
  var spec: CommandSpec {
    makeSpec(summary: "Post a tweet.", positionals: [PositionalSpec("text", help: "The text (words are joined with spaces).", variadic: true)])
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    if session.options.format == .raw { throw UsageError("--format raw is for timeline, search and show") }
    let text = arguments.positionals.joined(separator: " ")
    guard !text.isEmpty else { throw UsageError("the text is empty") }
    let (client, profile) = try session.client()
    var tweet = session.options.api == .v2 ? try await client.v2.post(text: text) : try await client.v1.updateStatus(text)
    // v2 answers with the id and text only; the author is the profile's account when it is known.
    if tweet.author == nil, let id = profile?.userID {
      tweet.author = Author(id: id, username: profile?.username)
    }
    let writer = TweetWriter(format: session.options.format, terminal: session.terminal)
    writer.write(tweet)
    writer.finish()
    return .success
  }
}

/// Streams pages to the output as they arrive. When standard error is a terminal, whatever
/// standard output is (`tweets timeline x --all > out.jsonl`), one status line there says how far
/// it got (tweets, pages, rate, elapsed time), rewritten in place after each page and cleared
/// before anything else is written; nothing is shown when standard error is not a terminal.
enum TweetStream {
  static func print(_ pages: TweetPages, _ session: Session) async throws {
    let terminal = session.terminal
    let writer = TweetWriter(format: session.options.format, terminal: terminal)
    let start = Date()
    var pageCount = 0
    func progress() -> String {
      let elapsed = Date().timeIntervalSince(start)
      let rate = elapsed > 0 ? Double(writer.written) / elapsed : 0
      return "\(writer.written) tweets, \(pageCount) page\(pageCount == 1 ? "" : "s"), \(Int(rate.rounded())) tweets/s, "
        + String(format: "%.1f s", elapsed)
    }
    do {
      for try await page in pages {
        pageCount += 1
        terminal.status("")
        page.tweets.forEach(writer.write)
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

extension V1TimelineOptions {
  /// v1.1's `max_id` is inclusive; `--until-id` is not.
  static func inclusive(before id: String) -> String? {
    UInt64(id).flatMap { $0 > 0 ? String($0 - 1) : nil }
  }
}
