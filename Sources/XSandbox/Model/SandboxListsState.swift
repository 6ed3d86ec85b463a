/// A list of the sandbox: its owner, privacy, and its members and followers, the most recent
/// first.
struct SandboxList: Sendable {
  let id: String
  var name: String
  var description: String
  let ownerID: String
  var isPrivate: Bool
  let createdAt: Int64
  var members: [String]
  var followers: [String]
}

/// The lists family's own state: every list, and the lists each user pinned. The demo user owns
/// a public list of the other two cast members (`1500`, whose posts `GET /2/lists/1500/tweets`
/// serves) and a private one, follows and is a member of @swift_lang's list of Swift people on
/// Linux, and has pinned their own.
struct SandboxListsState: Sendable {
  /// The newest first.
  var lists: [SandboxList] = [
    SandboxList(
      id: "1502", name: "Drafts", description: "", ownerID: SandboxData.mainUserID, isPrivate: true, createdAt: 1_735_689_600, members: [],
      followers: []),
    SandboxList(
      id: "1501", name: "Swift on Linux", description: "Fans who write Swift on Linux", ownerID: "1002", isPrivate: false,
      createdAt: 1_704_067_200, members: ["1001", "2000014", "2000007"], followers: ["1001", "1003"]),
    SandboxList(
      id: SandboxData.listID, name: "Swift and OAuth", description: "The sandbox's cast", ownerID: SandboxData.mainUserID, isPrivate: false,
      createdAt: 1_577_836_800, members: ["1003", "1002"], followers: ["2000002", "2000001"]),
  ]
  /// The ids of the lists each user pinned, the most recent first.
  var pinned: [String: [String]] = [SandboxData.mainUserID: [SandboxData.listID]]
  /// The highest list id issued: a new list takes the next.
  var lastID: UInt64 = 1502

  /// The list `id`, when `userID` may see it (a private list is its owner's only).
  func visible(_ id: String, to userID: String?) -> SandboxList? {
    lists.first { $0.id == id && (!$0.isPrivate || $0.ownerID == userID) }
  }

  /// The index of list `id`, when `userID` owns it.
  func owned(_ id: String, by userID: String?) -> Int? {
    lists.firstIndex { $0.id == id && $0.ownerID == userID }
  }
}
