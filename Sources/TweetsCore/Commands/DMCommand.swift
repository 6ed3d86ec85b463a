import CommandLineSupport
import Foundation
import XAPI

/// `tweets dm list|send|group`: your direct messages, read and sent. `list` pages the events
/// (all, `--with USER`, `--conversation ID`) in every format and to a file; `send` writes to a
/// user or, with `--conversation`, into a conversation; `group` starts a group conversation.
struct DMCommand: TweetsCommand {
  let name = "dm"
  let shared: SharedOptions = [.signedIn, .format, .paging, .output]
  static let with = Option<String?>.value("with", placeholder: "USER", help: "list: the conversation with this user (a username or an id).")
  static let conversation = Option<String?>.value(
    "conversation", placeholder: "ID", help: "list, send: this conversation (LOW-HIGH user ids for two people, a number for a group).")
  static let text = Option<String?>.value("text", placeholder: "TEXT", help: "group: the first message.")
  static let media = Option<String?>.value(
    "media", placeholder: "FILE", help: "send, group: attach an image, GIF or video, uploaded in X's direct-message categories.")

  var spec: CommandSpec {
    makeSpec(
      summary: "Your direct messages: list them, send one, start a group (OAuth 2.0 with dm.read, dm.write).",
      options: [Self.with, Self.conversation, Self.text, Self.media],
      positionals: [
        PositionalSpec("action", help: "list, send or group."),
        PositionalSpec("argument", help: "send: USER TEXT, or TEXT with --conversation; group: USER...", optional: true, variadic: true),
      ],
      discussion: """
        tweets dm list [--with USER | --conversation ID]
        tweets dm send USER TEXT [--media FILE]
        tweets dm send --conversation ID TEXT [--media FILE]
        tweets dm group USER... --text TEXT [--media FILE]

        X serves direct messages to user context only: OAuth 1.0a, or OAuth 2.0 with the scopes
        dm.read (to read) or dm.write (to send), tweet.read and users.read (tweets login
        --oauth2). Each event read is billed as a DM event ($0.010), each message sent as an
        interaction ($0.015). A message is neither a post nor a user: --db does not store it;
        --output does, resumably.
        """)
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    var words = arguments.positionals
    guard let action = words.first, ["list", "send", "group"].contains(action) else { throw UsageError("tweets dm list|send|group …") }
    words.removeFirst()
    let with = arguments[Self.with], conversation = arguments[Self.conversation], text = arguments[Self.text]
    if let conversation, !Self.isConversationID(conversation) {
      throw UsageError("\(CommandSpec.shown(conversation)) is not a conversation id (LOW-HIGH user ids, or a number of 15 to 19 digits)")
    }
    let file = arguments[Self.media].map { URL(fileURLWithPath: $0) }
    if file != nil, action == "list" { throw UsageError("--media is for tweets dm send and tweets dm group") }
    if let file {
      do { _ = try MediaKind(file: file) } catch { throw UsageError(error.description) }
      guard FileManager.default.isReadableFile(atPath: file.path) else { throw UsageError("cannot read \(file.path)") }
    }
    let (client, _) = try session.client(api: .v2)
    let out = { (line: String) in session.terminal.out(TerminalText.visible(line)) }
    /// The attachment, uploaded once the request is known to be well formed.
    func mediaIDs() async throws -> [String] {
      guard let file else { return [] }
      let uploaded = try await client.v2.uploadDirectMessageMedia(file)
      session.terminal.err(TerminalText.visible("Uploaded \(file.lastPathComponent) (media \(uploaded.id))."))
      return [uploaded.id]
    }
    switch action {
    case "list":
      guard words.isEmpty, text == nil else { throw UsageError("tweets dm list [--with USER | --conversation ID]") }
      if with != nil && conversation != nil { throw UsageError("give --with USER or --conversation ID, not both") }
      let limit = session.options.limit
      let pages: DMEventPages
      if let with {
        pages = client.v2.dmEvents(with: try await Self.userID(with, client), limit: limit)
      } else if let conversation {
        pages = client.v2.dmEvents(conversationID: conversation, limit: limit)
      } else {
        pages = client.v2.dmEvents(limit: limit)
      }
      try await Self.explained { try await TweetStream.print(pages, session) }
    case "send":
      guard with == nil, text == nil else { throw UsageError("tweets dm send USER TEXT, or tweets dm send --conversation ID TEXT") }
      let sent: DMSent
      if let conversation {
        guard words.count == 1 else { throw UsageError("tweets dm send --conversation ID TEXT") }
        let ids = try await mediaIDs()
        sent = try await Self.explained { try await client.v2.sendDM(conversationID: conversation, text: words[0], mediaIDs: ids) }
      } else {
        guard words.count == 2 else { throw UsageError("tweets dm send USER TEXT") }
        let user = try await Self.userID(words[0], client)
        let ids = try await mediaIDs()
        sent = try await Self.explained { try await client.v2.sendDM(to: user, text: words[1], mediaIDs: ids) }
      }
      out("Sent \(sent.eventID) in conversation \(sent.conversationID).")
    default:
      guard words.count >= 2, let text, with == nil, conversation == nil else {
        throw UsageError("tweets dm group USER... --text TEXT (two users at least)")
      }
      var ids: [String] = []
      for user in words { ids.append(try await Self.userID(user, client)) }
      let media = try await mediaIDs()
      let sent = try await Self.explained { try await client.v2.createDMGroup(participantIDs: ids, text: text, mediaIDs: media) }
      out("Started group conversation \(sent.conversationID) with \(words.joined(separator: ", ")): sent \(sent.eventID).")
    }
    return .success
  }

  /// X's pattern of a conversation id: `LOW-HIGH` user ids, or a number of 15 to 19 digits.
  static func isConversationID(_ text: String) -> Bool {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
    if parts.count == 2 { return parts.allSatisfy(IDLookup.isTweetID) }
    return parts.count == 1 && IDLookup.isTweetID(text) && text.count >= 15
  }

  /// A user's id: an all-digit argument is one; a username (with or without @) is looked up.
  static func userID(_ user: String, _ client: XClient) async throws -> String {
    IDLookup.isTweetID(user) ? user : try await client.v2.user(username: bareUsername(user)).id
  }

  /// `work`, with X's 403 explained: direct messages need dm.read or dm.write.
  static func explained<T>(_ work: () async throws -> T) async throws -> T {
    try await ScopeExplanation.explained(
      "Direct messages need OAuth 2.0 user context with the scopes dm.read (to read) or dm.write (to send), tweet.read and users.read", work)
  }
}
