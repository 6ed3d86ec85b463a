import CommandLineSupport
import XAPI

/// `tweets lists ACTION …`: X Lists, read and managed. The reads print lists (`show`, `owned`,
/// `followed`, `memberships`, `pinned`) or users (`members`, `followers`, which `--db` stores)
/// in every format; the writes (`create`, `update`, `delete`, `add`, `remove`, `follow`,
/// `unfollow`, `pin`, `unpin`) say what X did. `tweets list ID` stays the posts of a list.
struct ListsCommand: TweetsCommand {
  let name = "lists"
  let shared: SharedOptions = [.signedIn, .format, .paging, .output, .database]
  static let description = Option<String?>.value(
    "description", placeholder: "TEXT", help: "create, update: the list's description (100 characters at most).")
  static let listName = Option<String?>.value("name", placeholder: "NAME", help: "update: the list's new name (1 to 25 characters).")
  static let privateFlag = Option.flag("private", help: "create, update: only you see the list.")
  static let publicFlag = Option.flag("public", help: "update: everyone may see the list.")

  /// The actions, with what each takes after it.
  static let actions: [(name: String, usage: String)] = [
    ("show", "ID..."), ("owned", "[USERNAME]"), ("followed", "[USERNAME]"), ("memberships", "[USERNAME]"), ("pinned", ""),
    ("members", "ID"), ("followers", "ID"), ("create", "NAME [--description TEXT] [--private]"),
    ("update", "ID [--name NAME] [--description TEXT] [--private|--public]"), ("delete", "ID"), ("add", "ID USER..."),
    ("remove", "ID USER..."), ("follow", "ID"), ("unfollow", "ID"), ("pin", "ID"), ("unpin", "ID"),
  ]

  var spec: CommandSpec {
    makeSpec(
      summary: "X Lists: look them up, your own and others', their members and followers; create and manage them.",
      options: [Self.description, Self.listName, Self.privateFlag, Self.publicFlag],
      positionals: [
        PositionalSpec("action", help: Self.actions.map(\.name).joined(separator: ", ") + "."),
        PositionalSpec("argument", help: "What the action takes (tweets help lists).", optional: true, variadic: true),
      ],
      discussion: """
        \(Self.actions.map { "tweets lists \($0.name) \($0.usage)" }.joined(separator: "\n"))

        USER is a username (with or without @) or an id. Reading a list is billed per list
        ($0.005; your own owned, followed, member-of and pinned lists $0.001 when you own the
        app), members and followers per user; following and pinning per request. X's price list
        names no price for creating and managing a list: --max-cost and a budget refuse them
        rather than guess. Writes need OAuth 2.0 with list.write (tweets login --oauth2), or an
        OAuth 1.0a login. --db stores members and followers (users); a list is neither a post
        nor a user, so the list reads take --format and --output instead.
        """)
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    var words = arguments.positionals
    guard !words.isEmpty, let action = Self.actions.first(where: { $0.name == words[0] }) else {
      throw UsageError("tweets lists " + Self.actions.map(\.name).joined(separator: "|") + " …")
    }
    words.removeFirst()
    let usage = UsageError("tweets lists \(action.name) \(action.usage)")
    let writes = ["create", "update", "delete", "add", "remove", "follow", "unfollow", "pin", "unpin"]
    if !writes.contains(action.name),
      arguments[Self.description] != nil || arguments[Self.listName] != nil
        || arguments[Self.privateFlag] || arguments[Self.publicFlag]
    {
      throw UsageError("--name, --description, --private and --public are for tweets lists create and update")
    }
    let printsLists = ["show", "owned", "followed", "memberships", "pinned"].contains(action.name)
    if printsLists || writes.contains(action.name), session.options.database != nil {
      throw UsageError("--db stores posts and users: tweets lists members|followers ID --db FILE")
    }
    let (client, profile) = try session.client(api: .v2)
    switch action.name {
    case "show":
      guard !words.isEmpty else { throw usage }
      let ids = try words.map { try Self.listID($0) }
      let writer = RecordWriter<XList>(format: session.options.format, terminal: session.terminal)
      for id in ids { writer.write(try await client.v2.list(id: id)) }
      writer.finish()
    case "owned", "followed", "memberships":
      guard words.count <= 1 else { throw usage }
      let user = try await userID(words.first, client, session, profile: profile)
      let limit = session.options.limit
      let pages =
        action.name == "owned"
        ? client.v2.ownedLists(userID: user, limit: limit)
        : action.name == "followed" ? client.v2.followedLists(userID: user, limit: limit) : client.v2.listMemberships(userID: user, limit: limit)
      try await TweetStream.print(pages, session)
    case "pinned":
      guard words.isEmpty else { throw usage }
      let me = try await userID(nil, client, session, profile: profile)
      let writer = RecordWriter<XList>(format: session.options.format, terminal: session.terminal)
      try await Self.explained { try await client.v2.pinnedLists(userID: me) }.forEach(writer.write)
      writer.finish()
    case "members", "followers":
      guard words.count == 1 else { throw usage }
      let id = try Self.listID(words[0])
      let limit = session.options.limit
      try await TweetStream.print(
        action.name == "members" ? client.v2.listMembers(listID: id, limit: limit) : client.v2.listFollowers(listID: id, limit: limit), session)
    default:
      try await manage(action.name, words, arguments, client, session, profile: profile, usage: usage)
    }
    return .success
  }

  /// A list id: digits, as X's `^[0-9]{1,19}$`.
  static func listID(_ text: String) throws -> String {
    guard IDLookup.isTweetID(text) else { throw UsageError("\(CommandSpec.shown(text)) is not a list id") }
    return text
  }

  /// `work`, with X's 403 explained: the list writes need `list.write`.
  static func explained<T>(_ work: () async throws -> T) async throws -> T {
    try await ScopeExplanation.explained(
      "Lists need OAuth 2.0 user context with the scopes list.read (to read) or list.write (to manage), tweet.read and users.read", work)
  }
}
