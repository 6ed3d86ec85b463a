import CommandLineSupport
import DateFormats
import Foundation
import XAPI
import XArchive

// The other sources of tweets and users, all v2 (none takes --api): each a page stream written
// in any format, with --output and --resume, as timeline and search are. The window options are
// taken only where X's endpoint has one, the tweet fields only where it returns tweets.

/// What the v2-only commands share: finding a user's id.
extension TweetsCommand {
  /// The id of `username` (with or without `@`), or the logged-in user's without one: the
  /// profile's, when the token in use is the profile's (no access token in the environment).
  func userID(_ username: String?, _ client: XClient, _ session: Session, profile: Profile?) async throws -> String {
    if let username { return try await client.v2.user(username: Self.bareUsername(username)).id }
    let tokenFromEnvironment = session.environment["X_ACCESS_TOKEN"] ?? session.environment["TWITTER_ACCESS_TOKEN"]
    if let stored = profile?.userID, tokenFromEnvironment == nil { return stored }
    return try await client.v2.me().id
  }

  /// A username without its `@`.
  static func bareUsername(_ text: String) -> String { text.hasPrefix("@") ? String(text.dropFirst()) : text }
}

/// `tweets mentions [USERNAME]` and `tweets liked [USERNAME]`: a user's stream of tweets (the
/// logged-in user's without a name).
struct UserTweetsCommand: TweetsCommand {
  let name: String
  let summary: String
  /// The window options only where X's endpoint takes an id or time window (mentions).
  let shared: SharedOptions
  let source: @Sendable (XClient.V2, _ userID: String, TimelineOptions, _ limit: Int?) -> TweetPages

  static let mentions = UserTweetsCommand(
    name: "mentions", summary: "Tweets that mention a user (you, without a name).", shared: [.tweetPages, .window]
  ) { $0.mentions(userID: $1, options: $2, limit: $3) }
  static let liked = UserTweetsCommand(
    name: "liked", summary: "Tweets a user liked (you, without a name).", shared: .tweetPages
  ) { $0.likedTweets(userID: $1, options: $2, limit: $3) }

  var spec: CommandSpec {
    makeSpec(summary: summary, positionals: [PositionalSpec("username", help: "Whose (with or without @).", optional: true)])
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    let (client, profile) = try session.client()
    let id = try await userID(arguments.positionals.first, client, session, profile: profile)
    try await TweetStream.print(source(client.v2, id, session.options.timelineOptions, session.options.limit), session)
    return .success
  }
}

/// `tweets quotes ID` and `tweets list ID`: the tweets of one thing named by its id.
struct IDTweetsCommand: TweetsCommand {
  let name: String
  let summary: String
  let idHelp: String
  /// What the id names, for a usage error.
  let what: String
  /// Neither endpoint takes a window.
  let shared = SharedOptions.tweetPages
  let source: @Sendable (XClient.V2, _ id: String, TimelineOptions, _ limit: Int?) -> TweetPages

  static let quotes = IDTweetsCommand(
    name: "quotes", summary: "Tweets that quote a tweet.", idHelp: "The quoted tweet's id.", what: "tweet id"
  ) { $0.quoteTweets(tweetID: $1, options: $2, limit: $3) }
  static let list = IDTweetsCommand(
    name: "list", summary: "A list's tweets.", idHelp: "The list's id (from its URL, x.com/i/lists/ID).", what: "list id"
  ) { $0.listTweets(listID: $1, options: $2, limit: $3) }

  var spec: CommandSpec {
    makeSpec(summary: summary, positionals: [PositionalSpec("id", help: idHelp)])
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    let id = try tweetID(arguments, what: what)
    let (client, _) = try session.client()
    try await TweetStream.print(source(client.v2, id, session.options.timelineOptions, session.options.limit), session)
    return .success
  }
}

/// `tweets conversation ID`.
struct ConversationCommand: TweetsCommand {
  let name = "conversation"
  let shared: SharedOptions = [.tweetPages, .window]
  var spec: CommandSpec {
    makeSpec(
      summary: "The tweets of a conversation (recent search for conversation_id; --archive for older ones).",
      options: [SearchCommand.archive],
      positionals: [PositionalSpec("id", help: "The conversation's id: the id of the tweet that started it.")])
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    let id = try tweetID(arguments)
    let archive = arguments[SearchCommand.archive]
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

/// `tweets users NAME|ID...`: accounts by username or id, in the input's order.
struct UsersCommand: TweetsCommand {
  let name = "users"
  let shared: SharedOptions = [.signedIn, .format, .database]
  var spec: CommandSpec {
    makeSpec(
      summary: "Look accounts up by username or id (an all-digit argument is an id; write @123 for such a username).",
      positionals: [PositionalSpec("user", help: "Usernames (with or without @) or ids.", variadic: true)])
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    let wanted = arguments.positionals
    guard !wanted.isEmpty else { throw UsageError("give at least one username or id") }
    let (client, _) = try session.client()
    let writer = UserWriter(format: session.options.format, terminal: session.terminal)
    var found: [String: XUser] = [:]
    var problems: [XProblem] = []
    let ids = wanted.filter { IDLookup.isTweetID($0) }
    let names = wanted.filter { !IDLookup.isTweetID($0) }.map(Self.bareUsername)
    // X's rule for usernames: 1 to 15 letters, digits or underscores.
    if let bad = names.first(where: { $0.isEmpty || $0.count > 15 || !$0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") } }) {
      throw UsageError("\(CommandSpec.shown(bad)) is not a username (1 to 15 letters, digits or underscores) nor an id")
    }
    for start in stride(from: 0, to: ids.count, by: 100) {
      let lookup = try await client.v2.users(ids: Array(ids[start..<min(start + 100, ids.count)]))
      writer.writeRaw(lookup.body)
      for user in lookup.users { found[user.id] = user }
      problems += lookup.errors
    }
    for start in stride(from: 0, to: names.count, by: 100) {
      let lookup = try await client.v2.users(usernames: Array(names[start..<min(start + 100, names.count)]))
      writer.writeRaw(lookup.body)
      for user in lookup.users { found[user.username.lowercased()] = user }
      problems += lookup.errors
    }
    var missing: [String] = []
    var users: [XUser] = []
    for argument in wanted {
      let key = IDLookup.isTweetID(argument) ? argument : Self.bareUsername(argument).lowercased()
      if let user = found[key] { users.append(user) } else { missing.append(argument) }
    }
    if let file = session.options.database {
      let archive = try TweetArchive(path: file.path)
      defer { archive.close() }
      var fetch = try archive.beginFetch(command: session.options.commandLine, resume: false)
      try archive.store(users: users, in: &fetch, complete: true)
      session.terminal.err("tweets: stored \(users.count) users in \(file.path) (fetch \(fetch.id))")
    } else {
      users.forEach(writer.write)
      writer.finish()
    }
    for problem in problems { session.terminal.err("tweets: \(problem.description)") }
    if !missing.isEmpty {
      session.terminal.err(
        "tweets: \(missing.count) of \(wanted.count) accounts not returned (suspended, deleted or unknown): \(missing.joined(separator: ", "))")
    }
    return missing.isEmpty ? .success : .notFound
  }
}

/// `tweets counts QUERY`.
struct CountsCommand: TweetsCommand {
  let name = "counts"
  /// App-only (a bearer token): no consumer.
  let shared: SharedOptions = [.session, .format, .window]
  static let granularity = Option<String>.value(
    "granularity", placeholder: "minute|hour|day", default: .value("hour"), help: "The buckets' size (default \(.default)).",
    ArgumentConversion(expecting: "minute, hour or day") { ["minute", "hour", "day"].contains($0) ? $0 : nil })
  var spec: CommandSpec {
    makeSpec(
      summary:
        "How many recent tweets (the last 7 days) match a query, per hour (or minute, or day); app-only: X_BEARER_TOKEN, or one obtained from the app's consumer key and secret.",
      options: [Self.granularity], positionals: [PositionalSpec("query", help: "The query (X's search syntax).", variadic: true)])
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    let query = arguments.positionals.joined(separator: " ")
    guard !query.trimmingCharacters(in: .whitespaces).isEmpty else { throw UsageError("the query is empty") }
    let granularity = try arguments.value(Self.granularity)
    let client = try await session.appClient(for: "counts")
    let options = session.options
    let counts = try await client.v2.tweetCounts(
      query: query, granularity: granularity, sinceID: options.sinceID, untilID: options.untilID, startTime: options.startTime,
      endTime: options.endTime)
    let terminal = session.terminal
    switch session.options.format {
    case .raw:
      terminal.writeOut(String(decoding: counts.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) + "\n")
    case .json, .jsonl:
      let rows = counts.buckets.map {
        "{\"end\":\"\($0.end.map(RFC3339.string(from:)) ?? "")\",\"start\":\"\($0.start.map(RFC3339.string(from:)) ?? "")\",\"tweet_count\":\($0.count)}"
      }
      terminal.writeOut(session.options.format == .json ? "[" + rows.joined(separator: ",") + "]\n" : rows.map { $0 + "\n" }.joined())
    case .csv:
      terminal.writeOut(
        "start,end,tweet_count\r\n"
          + counts.buckets.map { "\($0.start.map(RFC3339.string(from:)) ?? ""),\($0.end.map(RFC3339.string(from:)) ?? ""),\($0.count)\r\n" }.joined())
    case .text:
      for bucket in counts.buckets { terminal.out("\(bucket.start.map(RFC3339.string(from:)) ?? "?")  \(bucket.count)") }
      terminal.out("total: \(counts.total)")
    }
    return .success
  }
}

extension TweetsCommand {
  /// The one positional argument, a numeric id.
  func tweetID(_ arguments: ParsedArguments, what: String = "tweet id") throws -> String {
    guard let id = arguments.positionals.first, IDLookup.isTweetID(id) else {
      throw UsageError("\(CommandSpec.shown(arguments.positionals.first ?? "")) is not a \(what)")
    }
    return id
  }
}
