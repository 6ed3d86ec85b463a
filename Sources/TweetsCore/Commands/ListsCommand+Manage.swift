import CommandLineSupport
import XAPI

extension ListsCommand {
  /// The writes: each says what X did, or fails when X did not.
  func manage(
    _ action: String, _ words: [String], _ arguments: ParsedArguments, _ client: XClient, _ session: Session, profile: Profile?,
    usage: UsageError
  ) async throws {
    let out = { (line: String) in session.terminal.out(TerminalText.visible(line)) }
    switch action {
    case "create":
      guard words.count == 1 else { throw usage }
      if arguments[Self.publicFlag] { throw UsageError("a new list is public unless --private") }
      let created = try await Self.explained {
        try await client.v2.createList(name: words[0], description: arguments[Self.description], isPrivate: arguments[Self.privateFlag])
      }
      out("Created list \(created.id) (\(created.name)).")
    case "update":
      guard words.count == 1 else { throw usage }
      let id = try Self.listID(words[0])
      if arguments[Self.privateFlag] && arguments[Self.publicFlag] { throw UsageError("give --private or --public, not both") }
      let privacy: Bool? = arguments[Self.privateFlag] ? true : arguments[Self.publicFlag] ? false : nil
      let name = arguments[Self.listName], description = arguments[Self.description]
      guard name != nil || description != nil || privacy != nil else { throw UsageError("give --name, --description, --private or --public") }
      try await Self.require("X did not update list \(id)") {
        try await client.v2.updateList(id: id, name: name, description: description, isPrivate: privacy)
      }
      out("Updated list \(id).")
    case "delete":
      guard words.count == 1 else { throw usage }
      let id = try Self.listID(words[0])
      try await Self.require("X did not delete list \(id)") { try await client.v2.deleteList(id: id) }
      out("Deleted list \(id).")
    case "add", "remove":
      guard words.count >= 2 else { throw usage }
      let id = try Self.listID(words[0])
      for user in words.dropFirst() {
        let userID = IDLookup.isTweetID(user) ? user : try await client.v2.user(username: Self.bareUsername(user)).id
        if action == "add" {
          try await Self.require("X did not add \(user) to list \(id)") { try await client.v2.addListMember(listID: id, userID: userID) }
          out("Added \(user) to list \(id).")
        } else {
          try await Self.require("X did not remove \(user) from list \(id)") { try await client.v2.removeListMember(listID: id, userID: userID) }
          out("Removed \(user) from list \(id).")
        }
      }
    default:  // follow, unfollow, pin, unpin
      guard words.count == 1 else { throw usage }
      let id = try Self.listID(words[0])
      let me = try await userID(nil, client, session, profile: profile)
      let done: String
      switch action {
      case "follow":
        try await Self.require("X did not follow list \(id)") { try await client.v2.followList(userID: me, listID: id) }
        done = "Followed"
      case "unfollow":
        try await Self.require("X did not unfollow list \(id)") { try await client.v2.unfollowList(userID: me, listID: id) }
        done = "Unfollowed"
      case "pin":
        try await Self.require("X did not pin list \(id)") { try await client.v2.pinList(userID: me, listID: id) }
        done = "Pinned"
      default:
        try await Self.require("X did not unpin list \(id)") { try await client.v2.unpinList(userID: me, listID: id) }
        done = "Unpinned"
      }
      out("\(done) list \(id).")
    }
  }

  /// `work`, explained on a 403 (``explained(_:)``), and a failure saying `failure` when X
  /// answered that it did not do it.
  static func require(_ failure: String, _ work: () async throws -> Bool) async throws {
    guard try await explained(work) else { throw TweetsFailure(failure, exitCode: .failure) }
  }
}
