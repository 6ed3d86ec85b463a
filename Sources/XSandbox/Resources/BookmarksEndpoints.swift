import Foundation

/// Bookmarks (`x-api/posts/bookmarks`, `x-api/bookmarks/*.mdx`): the authenticated user's
/// bookmarked posts, adding and removing one, and bookmark folders with the posts in each. As
/// X's specification has it, the reads take OAuth 2.0 user context with `bookmark.read` (or an
/// OAuth 1.0a signature) and the writes OAuth 2.0 user context only, with `bookmark.write`;
/// app-only bearer tokens are refused, and so is another user's id in the path.
extension SandboxRoute {
  static let bookmarks: [SandboxRoute] = [
    SandboxRoute(
      method: "GET", pattern: ["2", "users", "*", "bookmarks"], name: "v2_bookmarks", limit: 180, bearerOK: false,
      allowed: pageParameters + tweetExtra, scopes: ["tweet.read", "users.read", "bookmark.read"], billing: .resources(.post, ownable: true)
    ) { $0.v2Bookmarks($1) },
    SandboxRoute(
      method: "POST", pattern: ["2", "users", "*", "bookmarks"], name: "v2_bookmark_add", limit: nil, bearerOK: false, oauth1OK: false,
      scopes: ["tweet.read", "users.read", "bookmark.write"], billing: .request(.bookmark)
    ) { $0.v2AddBookmark($1) },
    SandboxRoute(
      method: "GET", pattern: ["2", "users", "*", "bookmarks", "folders"], name: "v2_bookmark_folders", limit: 50, bearerOK: false,
      allowed: pageParameters, scopes: ["users.read", "bookmark.read"]
    ) { $0.v2BookmarkFolders($1) },
    SandboxRoute(
      method: "GET", pattern: ["2", "users", "*", "bookmarks", "folders", "*"], name: "v2_bookmark_folder", limit: 50, bearerOK: false,
      allowed: pageParameters, scopes: ["tweet.read", "users.read", "bookmark.read"], billing: .resources(.post, ownable: true)
    ) { $0.v2BookmarkFolder($1) },
    SandboxRoute(
      method: "DELETE", pattern: ["2", "users", "*", "bookmarks", "*"], name: "v2_bookmark_remove", limit: nil, bearerOK: false, oauth1OK: false,
      scopes: ["tweet.read", "users.read", "bookmark.write"], billing: .request(.bookmark)
    ) { $0.v2RemoveBookmark($1) },
  ]
}

// MARK: - Handlers (lock held)

extension SandboxState {
  /// `GET /2/users/:id/bookmarks`: the caller's bookmarked posts, most recently bookmarked
  /// first, paged by position (`max_results` 1–100, 100 without it); a deleted post drops out.
  func v2Bookmarks(_ ctx: RouteContext) -> SandboxResponse {
    guard let user = ownPathUser(ctx) else { return .v2(403, XBodies.forbidden) }
    let posts = (bookmarks.posts[user] ?? []).compactMap { id in tweets.first { $0.id == id } }
    return tweetsByPosition(ctx, posts, range: 1...100, defaultCount: 100)
  }

  /// `POST /2/users/:id/bookmarks` with `{"tweet_id": "…"}` (and `folder_id`, X's 2.167
  /// addition): `{"data": {"bookmarked": true}}`; a post that is not there is a 404.
  mutating func v2AddBookmark(_ ctx: RouteContext) -> SandboxResponse {
    guard let user = ownPathUser(ctx) else { return .v2(403, XBodies.forbidden) }
    guard mediaType(ctx.contentType) == "application/json" else { return .v2(400, XBodies.jsonRequired) }
    guard let body = ctx.body, let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else {
      return .v2(400, XBodies.invalidBody("Request body is not valid JSON."))
    }
    guard let id = object["tweet_id"] as? String, isID(id) else {
      return .v2(400, XBodies.invalidBody("$.tweet_id: is missing but it is required, or does not match ^[0-9]{1,19}$"))
    }
    guard let post = tweets.first(where: { String($0.id) == id }) else {
      return .v2(404, XBodies.missingResource(id, resourceType: "tweet", parameter: "tweet_id"))
    }
    let folder = object["folder_id"] as? String
    if let folder, bookmarks.folders[user]?.contains(where: { $0.id == folder }) != true {
      return .v2(404, XBodies.missingResource(folder, resourceType: "bookmark_folder", parameter: "folder_id"))
    }
    bookmarks.add(post.id, for: user, folder: folder)
    return .v2(200, .object([("data", .object([("bookmarked", .bool(true))]))]))
  }

  /// `DELETE /2/users/:id/bookmarks/:tweet_id`: `{"data": {"bookmarked": false}}`, whether or
  /// not it was bookmarked.
  mutating func v2RemoveBookmark(_ ctx: RouteContext) -> SandboxResponse {
    guard let user = ownPathUser(ctx) else { return .v2(403, XBodies.forbidden) }
    let id = ctx.captures.count > 1 ? ctx.captures[1] : ""
    if let bad = badID(id, parameter: "tweet_id") { return bad }
    bookmarks.remove(UInt64(id) ?? 0, for: user)
    return .v2(200, .object([("data", .object([("bookmarked", .bool(false))]))]))
  }

  /// `GET /2/users/:id/bookmarks/folders`: `data` with each folder's `id` and `name` (all of
  /// them: a user has few).
  func v2BookmarkFolders(_ ctx: RouteContext) -> SandboxResponse {
    guard let user = ownPathUser(ctx) else { return .v2(403, XBodies.forbidden) }
    // `max_results` 1-100, as X's specification declares it; a user's few folders fit one page.
    do throws(SandboxRefusal) { _ = try pageSize(ctx.query, range: 1...100, defaultCount: 100) } catch { return error.response }
    let folders = bookmarks.folders[user] ?? []
    return .v2(200, .object([("data", .array(folders.map { .object([("id", .string($0.id)), ("name", .string($0.name))]) }))]))
  }

  /// `GET /2/users/:id/bookmarks/folders/:folder_id`: the folder's posts by id only, as X's
  /// specification gives them (`data: [{"id": …}]`); an unknown folder is a 404.
  func v2BookmarkFolder(_ ctx: RouteContext) -> SandboxResponse {
    guard let user = ownPathUser(ctx) else { return .v2(403, XBodies.forbidden) }
    let id = ctx.captures.count > 1 ? ctx.captures[1] : ""
    // `max_results` 1-100, as X's specification (2.167) declares it.
    do throws(SandboxRefusal) { _ = try pageSize(ctx.query, range: 1...100, defaultCount: 100) } catch { return error.response }
    guard let folder = bookmarks.folders[user]?.first(where: { $0.id == id }) else {
      return .v2(404, XBodies.missingResource(id, resourceType: "bookmark_folder", parameter: "folder_id"))
    }
    let present = folder.postIDs.filter { id in tweets.contains { $0.id == id } }
    return .v2(200, .object([("data", .array(present.map { .object([("id", .string(String($0)))]) }))]))
  }

  /// The path's user when it is the caller (X serves bookmarks to their owner only).
  private func ownPathUser(_ ctx: RouteContext) -> String? {
    guard let user = ctx.captures.first, user == ctx.caller.userID else { return nil }
    return user
  }
}
