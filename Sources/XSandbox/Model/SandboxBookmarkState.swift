import Foundation

/// A bookmark folder (X's `bookmarks/folders`): its id, name and the posts in it, most recently
/// added first.
struct SandboxBookmarkFolder: Sendable {
  let id: String
  let name: String
  var postIDs: [UInt64]
}

/// The bookmarks of each user: the posts bookmarked, most recently added first, and the folders.
/// The demo user starts with five posts of other accounts bookmarked, two of them in one folder,
/// so that a fresh sandbox has something to list.
struct SandboxBookmarkState: Sendable {
  var posts: [String: [UInt64]] = [:]
  var folders: [String: [SandboxBookmarkFolder]] = [:]

  /// The demo user's bookmarks over `tweets` (newest first).
  static func seeded(tweets: [SandboxTweet]) -> SandboxBookmarkState {
    let others = tweets.filter { $0.authorID != SandboxData.mainUserID }.prefix(5).map(\.id)
    var state = SandboxBookmarkState()
    state.posts[SandboxData.mainUserID] = Array(others)
    state.folders[SandboxData.mainUserID] = [SandboxBookmarkFolder(id: "1940000000000000001", name: "Read later", postIDs: Array(others.prefix(2)))]
    return state
  }

  /// Bookmarks `postID` for `userID` (again: it moves to the front); into `folder` as well when given.
  mutating func add(_ postID: UInt64, for userID: String, folder: String? = nil) {
    posts[userID, default: []].removeAll { $0 == postID }
    posts[userID, default: []].insert(postID, at: 0)
    guard let folder, let index = folders[userID]?.firstIndex(where: { $0.id == folder }) else { return }
    folders[userID]?[index].postIDs.removeAll { $0 == postID }
    folders[userID]?[index].postIDs.insert(postID, at: 0)
  }

  /// Removes `postID` from `userID`'s bookmarks and from each of their folders.
  mutating func remove(_ postID: UInt64, for userID: String) {
    posts[userID]?.removeAll { $0 == postID }
    for index in folders[userID]?.indices ?? 0..<0 { folders[userID]?[index].postIDs.removeAll { $0 == postID } }
  }
}
