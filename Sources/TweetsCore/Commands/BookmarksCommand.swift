import CommandLineSupport
import XAPI

/// `tweets bookmarks [--folder ID | --folders]`: the logged-in user's bookmarked posts (or a
/// folder's, or the list of folders), in every format, to a file or an archive.
struct BookmarksCommand: TweetsCommand {
  let name = "bookmarks"
  let shared = SharedOptions.tweetPages
  static let folder = Option<String?>.value(
    "folder", placeholder: "ID", help: "The posts of this bookmark folder (see --folders), looked up by id: billed as a lookup.")
  static let folders = Option.flag("folders", help: "List the bookmark folders (id and name) instead of posts.")

  var spec: CommandSpec {
    makeSpec(
      summary: "Your bookmarked posts (OAuth 2.0 with bookmark.read: tweets login --oauth2).", options: [Self.folder, Self.folders],
      discussion: """
        X serves bookmarks to their owner only, with OAuth 2.0 user context and the scopes
        bookmark.read, tweet.read and users.read (tweets login --oauth2 asks for them); X's
        specification lets an OAuth 1.0a token read them too. Reading them is an owned read.
        """)
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    guard arguments.positionals.isEmpty else { throw UsageError("tweets bookmarks takes no argument (--folder ID for a folder)") }
    let folder = arguments[Self.folder]
    if arguments[Self.folders] && folder != nil { throw UsageError("give --folders or --folder ID, not both") }
    if let folder, !IDLookup.isTweetID(folder) { throw UsageError("\(CommandSpec.shown(folder)) is not a folder id") }
    let (client, profile) = try session.client(api: .v2)
    let me = try await userID(nil, client, session, profile: profile)
    if arguments[Self.folders] {
      let folders = try await BookmarkCommand.explained { try await client.v2.bookmarkFolders(userID: me) }
      if folders.isEmpty { session.terminal.err("No bookmark folders.") }
      for folder in folders { session.terminal.out(TerminalText.visible("\(folder.id)  \(folder.name)")) }
      return .success
    }
    let options = session.options.timelineOptions
    let limit = session.options.limit
    let pages =
      folder.map { client.v2.bookmarkFolderPosts(userID: me, folderID: $0, options: options, limit: limit) }
      ?? client.v2.bookmarks(userID: me, options: options, limit: limit)
    try await BookmarkCommand.explained { try await TweetStream.print(pages, session) }
    return .success
  }
}

/// `tweets bookmark add|remove ID`: bookmarks a post, or removes the bookmark (OAuth 2.0 with
/// `bookmark.write`).
struct BookmarkCommand: TweetsCommand {
  let name = "bookmark"
  let shared = SharedOptions.signedIn
  var spec: CommandSpec {
    makeSpec(
      summary: "Bookmark a post, or remove a bookmark (OAuth 2.0 with bookmark.write).",
      positionals: [PositionalSpec("action", help: "add or remove."), PositionalSpec("id", help: "The post's id.")])
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    let words = arguments.positionals
    guard words.count == 2, words[0] == "add" || words[0] == "remove" else { throw UsageError("tweets bookmark add|remove ID") }
    guard IDLookup.isTweetID(words[1]) else { throw UsageError("\(CommandSpec.shown(words[1])) is not a post id") }
    let (client, profile) = try session.client(api: .v2)
    let me = try await userID(nil, client, session, profile: profile)
    if words[0] == "add" {
      guard try await Self.explained({ try await client.v2.addBookmark(userID: me, tweetID: words[1]) }) else {
        throw TweetsFailure("X did not bookmark \(words[1])", exitCode: .failure)
      }
      session.terminal.out("Bookmarked \(words[1]).")
    } else {
      guard try await Self.explained({ try await client.v2.removeBookmark(userID: me, tweetID: words[1]) }) else {
        throw TweetsFailure("X did not remove the bookmark of \(words[1])", exitCode: .failure)
      }
      session.terminal.out("Removed the bookmark of \(words[1]).")
    }
    return .success
  }

  /// `work`, with X's 403 explained: bookmarks need OAuth 2.0 user context and their scopes.
  static func explained<T>(_ work: () async throws -> T) async throws -> T {
    try await ScopeExplanation.explained(
      "Bookmarks need OAuth 2.0 user context with the scopes bookmark.read (to read) or bookmark.write (to add and remove), tweet.read and users.read",
      work)
  }
}
