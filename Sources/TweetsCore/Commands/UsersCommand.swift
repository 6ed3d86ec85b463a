import CommandLineSupport
import Foundation
import XAPI
import XArchive

/// `tweets users NAME|ID...`: accounts by username or id, in the input's order; `tweets users
/// --search QUERY`: accounts that match a query, in pages.
struct UsersCommand: TweetsCommand {
  let name = "users"
  let shared: SharedOptions = [.signedIn, .format, .paging, .output, .database]
  static let search = Option<String?>.value(
    "search", placeholder: "QUERY",
    help: "Search accounts by name, username and bio instead (GET /2/users/search), in pages: --limit, --all, --output and --resume apply.")

  var spec: CommandSpec {
    makeSpec(
      summary: "Look accounts up by username or id (an all-digit argument is an id; write @123 for such a username), or search them.",
      options: [Self.search], positionals: [PositionalSpec("user", help: "Usernames (with or without @) or ids.", optional: true, variadic: true)],
      discussion: """
        A search is billed as a user read for each account returned ($0.010): --limit (20 by
        default) bounds what it costs. --limit, --all, --output and --resume page a search;
        a lookup by name or id takes none of them.
        """)
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    let wanted = arguments.positionals
    if let query = arguments[Self.search] {
      guard wanted.isEmpty else { throw UsageError("give --search QUERY or usernames and ids, not both") }
      guard !query.trimmingCharacters(in: .whitespaces).isEmpty else { throw UsageError("--search needs a query") }
      let (client, _) = try session.client(api: .v2)
      try await TweetStream.print(client.v2.searchUsers(query: query, limit: session.options.limit), session)
      return .success
    }
    guard !wanted.isEmpty else { throw UsageError("give at least one username or id, or --search QUERY") }
    if session.options.output != nil { throw UsageError("--output pages a search: give --search QUERY (a lookup writes with --format or --db)") }
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
    for problem in problems { session.terminal.err(TerminalText.visible("tweets: \(problem.description)")) }
    if !missing.isEmpty {
      session.terminal.err(
        "tweets: \(missing.count) of \(wanted.count) accounts not returned (suspended, deleted or unknown): \(missing.joined(separator: ", "))")
    }
    return missing.isEmpty ? .success : .notFound
  }
}
