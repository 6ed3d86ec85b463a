import Foundation
import NetworkClient

/// A bookmark folder of the authenticated user (`GET /2/users/:id/bookmarks/folders`).
///
/// ```swift
/// for folder in try await client.v2.bookmarkFolders(userID: me.id) { print(folder.id, folder.name) }
/// ```
public struct BookmarkFolder: Sendable, Hashable, Codable {
  /// X's id of the folder.
  public let id: String
  /// The folder's name, as the user gave it.
  public let name: String

  /// A folder from its parts, for tests and emulators.
  public init(id: String, name: String) {
    self.id = id
    self.name = name
  }
}

/// Bookmarks (`x-api/posts/bookmarks`): the authenticated user's bookmarked posts, adding and
/// removing one, and bookmark folders. X serves them to their owner only (`userID` is the
/// authenticated user's), with OAuth 2.0 user context and the scopes `bookmark.read` (reads) or
/// `bookmark.write` (writes) besides `tweet.read` and `users.read`; its specification also lets
/// an OAuth 1.0a token read them. Reading bookmarks is an owned read ($0.001 a post); adding or
/// removing one is billed per request.
///
/// ```swift
/// let me = try await client.v2.me()
/// for try await page in client.v2.bookmarks(userID: me.id) { page.tweets.forEach { print($0.id) } }
/// _ = try await client.v2.addBookmark(userID: me.id, tweetID: "1460323737035677698")
/// ```
extension XClient.V2 {
  /// `GET /2/users/:id/bookmarks`: the posts the user bookmarked, most recently bookmarked
  /// first, paged with `pagination_token` (1 to 100 a page).
  public func bookmarks(userID: String, options: TimelineOptions = .init(), limit: Int? = nil) -> TweetPages {
    pages(
      .getUsersBookmarks, [userID], options: options.withoutWindow, cursorName: "pagination_token", extra: [],
      limit: limit)
  }

  /// `POST /2/users/:id/bookmarks` (`{"tweet_id": …}`): bookmarks a post; `true` when X says it
  /// is bookmarked.
  public func addBookmark(userID: String, tweetID: String) async throws(XError) -> Bool {
    struct Body: Encodable, Sendable {
      let tweetID: String
      enum CodingKeys: String, CodingKey { case tweetID = "tweet_id" }
    }
    let response = try await client.send(
      Request<V2Envelope<Bookmarked>>(
        method: XEndpoint.createUsersBookmark.method, path: XEndpoint.createUsersBookmark.filled(userID), body: .json(Body(tweetID: tweetID))))
    return response.value.data?.bookmarked ?? false
  }

  /// `DELETE /2/users/:id/bookmarks/:tweet_id`: removes a bookmark; `true` when X says the
  /// post is no longer bookmarked.
  public func removeBookmark(userID: String, tweetID: String) async throws(XError) -> Bool {
    let response = try await client.send(
      Request<V2Envelope<Bookmarked>>(method: XEndpoint.deleteUsersBookmark.method, path: XEndpoint.deleteUsersBookmark.filled(userID, tweetID)))
    return response.value.data.map { !$0.bookmarked } ?? false
  }

  /// `GET /2/users/:id/bookmarks/folders`: the user's bookmark folders.
  public func bookmarkFolders(userID: String) async throws(XError) -> [BookmarkFolder] {
    var folders: [BookmarkFolder] = []
    var token: String?
    repeat {
      var query: [QueryItem] = [("max_results", "100")]
      if let token { query.append(("pagination_token", token)) }
      let response = try await client.send(
        Request<V2Envelope<[BookmarkFolder]>>(path: XEndpoint.getUsersBookmarkFolders.filled(userID), query: query))
      folders += response.value.data ?? []
      token = response.value.meta?.nextToken
    } while token != nil
    return folders
  }

  /// `GET /2/users/:id/bookmarks/folders/:folder_id`: the ids of the posts in a folder (X gives
  /// ids only: look them up with ``tweets(ids:options:)`` for their text).
  public func bookmarkFolderPostIDs(userID: String, folderID: String) async throws(XError) -> [String] {
    struct Item: Decodable, Sendable { let id: String }
    let response = try await client.send(
      Request<V2Envelope<[Item]>>(path: XEndpoint.getUsersBookmarksByFolderId.filled(userID, folderID), query: [("max_results", "100")]))
    return (response.value.data ?? []).map(\.id)
  }

  /// The posts of a bookmark folder, whole: the folder's ids
  /// (``bookmarkFolderPostIDs(userID:folderID:)``), then `GET /2/tweets?ids=` a hundred at a
  /// time (a lookup, billed as such), in the folder's order; one page per lookup.
  public func bookmarkFolderPosts(userID: String, folderID: String, options: TimelineOptions = .init(), limit: Int? = nil) -> TweetPages {
    let v2 = self
    let ids = FolderIDs()
    return TweetPages(
      limit: limit,
      sizedFetch: { cursor, wanted throws(XError) in
        let all: [String]
        if let known = await ids.ids {
          all = known
        } else {
          all = try await v2.bookmarkFolderPostIDs(userID: userID, folderID: folderID)
          await ids.set(all)
        }
        var start = 0
        if case .token(let token) = cursor { start = Int(token) ?? 0 }
        let count = min(100, max(1, wanted ?? 100))
        let slice = Array(all.dropFirst(start).prefix(count))
        guard !slice.isEmpty else { return TweetPage(items: [], next: nil) }
        let lookup = try await v2.tweets(ids: slice, options: options)
        let next = start + slice.count < all.count ? PageCursor.token(String(start + slice.count)) : nil
        return TweetPage(items: lookup.tweets, next: next, partialErrors: lookup.errors, rateLimit: lookup.rateLimit, body: lookup.body)
      })
  }
}

/// A folder's post ids, read once for all its pages.
private actor FolderIDs {
  var ids: [String]?
  func set(_ ids: [String]) { self.ids = ids }
}

/// X's answer to a bookmark write: `{"data": {"bookmarked": …}}`.
struct Bookmarked: Decodable, Sendable {
  let bookmarked: Bool
}
