import DateFormats
import Foundation

/// Lists (`x-api/lists/*`): a list, its posts, members and followers; a user's owned, followed,
/// member-of and pinned lists; creating, updating and deleting a list, adding and removing
/// members, following and pinning. The family keeps its own state (``SandboxListsState``): its
/// handlers change only that. A private list is its owner's only; the writes take user context
/// (OAuth 2.0 with `list.write`), on lists the caller owns or for the caller's own id. Reads are
/// billed per list or user returned (the user's own lists as owned reads), follows and pins per
/// request; X's price list names no price for creating and managing a list (``SandboxBillable/unpriced``).
extension SandboxRoute {
  static let listFields = ["list.fields"]
  static let ownerScopes = ["list.write", "tweet.read", "users.read"]

  static let lists: [SandboxRoute] = [
    SandboxRoute(
      method: "POST", pattern: ["2", "lists"], name: "v2_list_create", limit: nil, bearerOK: false,
      scopes: ["list.read", "list.write", "tweet.read", "users.read"], billing: .unpriced,
      handler: on(\.lists) { lists, state, ctx in lists.create(ctx) }),
    SandboxRoute(
      method: "GET", pattern: ["2", "lists", "*"], name: "v2_list", limit: 75, allowed: listFields,
      scopes: ["list.read", "tweet.read", "users.read"], billing: .resources(.list),
      handler: on(\.lists) { lists, state, ctx in lists.show(ctx) }),
    SandboxRoute(
      method: "PUT", pattern: ["2", "lists", "*"], name: "v2_list_update", limit: nil, bearerOK: false, scopes: ownerScopes, billing: .unpriced,
      handler: on(\.lists) { lists, state, ctx in lists.update(ctx) }),
    SandboxRoute(
      method: "DELETE", pattern: ["2", "lists", "*"], name: "v2_list_delete", limit: nil, bearerOK: false, scopes: ownerScopes,
      billing: .unpriced, handler: on(\.lists) { lists, state, ctx in lists.delete(ctx) }),
    SandboxRoute(
      method: "GET", pattern: ["2", "lists", "*", "tweets"], name: "v2_list_tweets", limit: 900, allowed: pageParameters + tweetExtra,
      scopes: ["list.read", "tweet.read", "users.read"], billing: .resources(.post),
      handler: on(\.lists) { lists, state, ctx in lists.posts(ctx, state) }),
    SandboxRoute(
      method: "GET", pattern: ["2", "lists", "*", "members"], name: "v2_list_members", limit: 900, allowed: pageParameters + userParameters,
      scopes: ["list.read", "tweet.read", "users.read"], billing: .resources(.user),
      handler: on(\.lists) { lists, state, ctx in lists.accounts(\.members, ctx, state) }),
    SandboxRoute(
      method: "POST", pattern: ["2", "lists", "*", "members"], name: "v2_list_member_add", limit: nil, bearerOK: false, scopes: ownerScopes,
      billing: .unpriced, handler: on(\.lists) { lists, state, ctx in lists.addMember(ctx) }),
    SandboxRoute(
      method: "DELETE", pattern: ["2", "lists", "*", "members", "*"], name: "v2_list_member_remove", limit: nil, bearerOK: false,
      scopes: ownerScopes, billing: .unpriced, handler: on(\.lists) { lists, state, ctx in lists.removeMember(ctx) }),
    SandboxRoute(
      method: "GET", pattern: ["2", "lists", "*", "followers"], name: "v2_list_followers", limit: 180, allowed: pageParameters + userParameters,
      scopes: ["list.read", "tweet.read", "users.read"], billing: .resources(.user),
      handler: on(\.lists) { lists, state, ctx in lists.accounts(\.followers, ctx, state) }),
    SandboxRoute(
      method: "GET", pattern: ["2", "users", "*", "owned_lists"], name: "v2_owned_lists", limit: 15, allowed: pageParameters + listFields,
      scopes: ["list.read", "tweet.read", "users.read"], billing: .resources(.list, ownable: true),
      handler: on(\.lists) { lists, state, ctx in lists.userLists(ctx) { list, user in list.ownerID == user } }),
    SandboxRoute(
      method: "GET", pattern: ["2", "users", "*", "followed_lists"], name: "v2_followed_lists", limit: 15, allowed: pageParameters + listFields,
      scopes: ["list.read", "tweet.read", "users.read"], billing: .resources(.list, ownable: true),
      handler: on(\.lists) { lists, state, ctx in lists.userLists(ctx) { list, user in list.followers.contains(user) } }),
    SandboxRoute(
      method: "GET", pattern: ["2", "users", "*", "list_memberships"], name: "v2_list_memberships", limit: 75,
      allowed: pageParameters + listFields, scopes: ["list.read", "tweet.read", "users.read"], billing: .resources(.list, ownable: true),
      handler: on(\.lists) { lists, state, ctx in lists.userLists(ctx) { list, user in list.members.contains(user) } }),
    SandboxRoute(
      method: "GET", pattern: ["2", "users", "*", "pinned_lists"], name: "v2_pinned_lists", limit: 15, bearerOK: false, allowed: listFields,
      scopes: ["list.read", "tweet.read", "users.read"], billing: .resources(.list, ownable: true),
      handler: on(\.lists) { lists, state, ctx in lists.pinnedLists(ctx) }),
    SandboxRoute(
      method: "POST", pattern: ["2", "users", "*", "followed_lists"], name: "v2_list_follow", limit: nil, bearerOK: false, scopes: ownerScopes,
      billing: .request(.interaction), handler: on(\.lists) { lists, state, ctx in lists.follow(ctx, true) }),
    SandboxRoute(
      method: "DELETE", pattern: ["2", "users", "*", "followed_lists", "*"], name: "v2_list_unfollow", limit: nil, bearerOK: false,
      scopes: ownerScopes, billing: .request(.interactionDelete), handler: on(\.lists) { lists, state, ctx in lists.follow(ctx, false) }),
    SandboxRoute(
      method: "POST", pattern: ["2", "users", "*", "pinned_lists"], name: "v2_list_pin", limit: nil, bearerOK: false, scopes: ownerScopes,
      billing: .request(.interaction), handler: on(\.lists) { lists, state, ctx in lists.pin(ctx, true) }),
    SandboxRoute(
      method: "DELETE", pattern: ["2", "users", "*", "pinned_lists", "*"], name: "v2_list_unpin", limit: nil, bearerOK: false,
      scopes: ownerScopes, billing: .request(.interactionDelete), handler: on(\.lists) { lists, state, ctx in lists.pin(ctx, false) }),
  ]
}

// MARK: - Handlers (lock held)

extension SandboxListsState {
  /// A list with the `list.fields` asked for (`id` and `name` always).
  func render(_ list: SandboxList, _ ctx: RouteContext) -> JSON {
    let asked = Set(splitList(ctx.query["list.fields"]))
    var out: [(String, JSON)] = [("id", .string(list.id)), ("name", .string(list.name))]
    if asked.contains("created_at") { out.append(("created_at", .string(RFC3339.millisecondString(from: Date(epochSeconds: list.createdAt))))) }
    if asked.contains("description") { out.append(("description", .string(list.description))) }
    if asked.contains("follower_count") { out.append(("follower_count", .int(list.followers.count))) }
    if asked.contains("member_count") { out.append(("member_count", .int(list.members.count))) }
    if asked.contains("owner_id") { out.append(("owner_id", .string(list.ownerID))) }
    if asked.contains("private") { out.append(("private", .bool(list.isPrivate))) }
    return .object(out)
  }

  /// X's 200 with a not-found error, for a list that is not there or not the caller's to see.
  static func notFound(_ id: String) -> SandboxResponse {
    .v2(
      200,
      .object([("errors", .array([XBodies.notFound(id, resourceType: "list", parameter: "id", detail: "Could not find list with id: [\(id)].")]))]))
  }

  /// `GET /2/lists/:id`.
  func show(_ ctx: RouteContext) -> SandboxResponse {
    let id = ctx.captures.first ?? ""
    if let bad = badID(id) { return bad }
    guard let list = visible(id, to: ctx.caller.userID) else { return Self.notFound(id) }
    return .v2(200, .object([("data", render(list, ctx))]))
  }

  /// `GET /2/lists/:id/tweets`: the posts of the list's members, newest first.
  func posts(_ ctx: RouteContext, _ state: SandboxState) -> SandboxResponse {
    let id = ctx.captures.first ?? ""
    if let bad = badID(id) { return bad }
    guard let list = visible(id, to: ctx.caller.userID) else { return .v2(404, XBodies.missingResource(id, resourceType: "list")) }
    let members = Set(list.members)
    return state.tweetsByPosition(ctx, state.tweets.filter { members.contains($0.authorID) }, range: 1...100, defaultCount: 100)
  }

  /// `GET /2/lists/:id/members` and `followers`: a page of the accounts, the most recent first.
  func accounts(_ which: KeyPath<SandboxList, [String]>, _ ctx: RouteContext, _ state: SandboxState) -> SandboxResponse {
    let id = ctx.captures.first ?? ""
    if let bad = badID(id) { return bad }
    guard let list = visible(id, to: ctx.caller.userID) else { return Self.notFound(id) }
    do throws(SandboxRefusal) {
      return try state.usersByPosition(
        ctx, list[keyPath: which].compactMap { SandboxData.usersByID[$0] }, range: 1...100, defaultCount: 100)
    } catch {
      return error.response
    }
  }

  /// `GET /2/users/:id/owned_lists`, `followed_lists`, `list_memberships`: a page of the lists
  /// `belongs` picks for the path's user that the caller may see, the newest first.
  func userLists(_ ctx: RouteContext, _ belongs: (SandboxList, String) -> Bool) -> SandboxResponse {
    let user = ctx.captures.first ?? ""
    if let bad = badID(user) { return bad }
    let found = lists.filter { belongs($0, user) && (!$0.isPrivate || $0.ownerID == ctx.caller.userID) }
    do throws(SandboxRefusal) {
      let (offset, count) = try positionPage(ctx.query, range: 1...100, defaultCount: 100, token: .users)
      let page = Array(found.dropFirst(offset).prefix(count))
      guard !page.isEmpty else { return .v2(200, SandboxState.emptyPage) }
      var meta: [(String, JSON)] = [("result_count", .int(page.count))]
      if offset + count < found.count { meta.append(("next_token", .string(PositionToken.users.encode(offset + count)))) }
      if offset > 0 { meta.append(("previous_token", .string(PositionToken.users.encode(max(0, offset - count))))) }
      return .v2(200, .object([("data", .array(page.map { render($0, ctx) })), ("meta", .object(meta))]))
    } catch {
      return error.response
    }
  }

  /// `GET /2/users/:id/pinned_lists`: the caller's pinned lists (another user's are a 403).
  func pinnedLists(_ ctx: RouteContext) -> SandboxResponse {
    guard let user = ownPathUser(ctx) else { return .v2(403, XBodies.forbidden) }
    let found = (pinned[user] ?? []).compactMap { visible($0, to: user) }
    guard !found.isEmpty else { return .v2(200, SandboxState.emptyPage) }
    return .v2(200, .object([("data", .array(found.map { render($0, ctx) })), ("meta", .object([("result_count", .int(found.count))]))]))
  }

  /// `POST /2/lists` with `{"name", "description"?, "private"?}`: `{"data": {"id", "name"}}`.
  mutating func create(_ ctx: RouteContext) -> SandboxResponse {
    guard let owner = ctx.caller.userID else { return .v2(403, XBodies.forbidden) }
    let body: [String: Any]
    do throws(SandboxRefusal) { body = try Self.jsonObject(ctx) } catch { return error.response }
    guard let name = body["name"] as? String, (1...25).contains(name.count) else {
      return .v2(400, XBodies.invalidBody("$.name: is missing but it is required, or is not 1 to 25 characters"))
    }
    let description = body["description"] as? String ?? ""
    guard description.count <= 100 else { return .v2(400, XBodies.invalidBody("$.description: is longer than 100 characters")) }
    lastID += 1
    let list = SandboxList(
      id: String(lastID), name: name, description: description, ownerID: owner, isPrivate: body["private"] as? Bool ?? false,
      createdAt: ctx.now, members: [], followers: [])
    lists.insert(list, at: 0)
    return .v2(200, .object([("data", .object([("id", .string(list.id)), ("name", .string(list.name))]))]))
  }

  /// `PUT /2/lists/:id`: `{"data": {"updated": true}}` for the owner's list.
  mutating func update(_ ctx: RouteContext) -> SandboxResponse {
    let id = ctx.captures.first ?? ""
    if let bad = badID(id) { return bad }
    guard let index = owned(id, by: ctx.caller.userID) else { return .v2(403, XBodies.forbidden) }
    let body: [String: Any]
    do throws(SandboxRefusal) { body = try Self.jsonObject(ctx) } catch { return error.response }
    if let name = body["name"] as? String {
      guard (1...25).contains(name.count) else { return .v2(400, XBodies.invalidBody("$.name: is not 1 to 25 characters")) }
      lists[index].name = name
    }
    if let description = body["description"] as? String {
      guard description.count <= 100 else { return .v2(400, XBodies.invalidBody("$.description: is longer than 100 characters")) }
      lists[index].description = description
    }
    if let isPrivate = body["private"] as? Bool { lists[index].isPrivate = isPrivate }
    return Self.flag("updated", true)
  }

  /// `DELETE /2/lists/:id`: `{"data": {"deleted": true}}` for the owner's list; it leaves every pin.
  mutating func delete(_ ctx: RouteContext) -> SandboxResponse {
    let id = ctx.captures.first ?? ""
    if let bad = badID(id) { return bad }
    guard let index = owned(id, by: ctx.caller.userID) else { return .v2(403, XBodies.forbidden) }
    lists.remove(at: index)
    for user in pinned.keys { pinned[user]?.removeAll { $0 == id } }
    return Self.flag("deleted", true)
  }

  /// `POST /2/lists/:id/members` with `{"user_id"}`: `{"data": {"is_member": true}}`.
  mutating func addMember(_ ctx: RouteContext) -> SandboxResponse {
    let id = ctx.captures.first ?? ""
    if let bad = badID(id) { return bad }
    guard let index = owned(id, by: ctx.caller.userID) else { return .v2(403, XBodies.forbidden) }
    let body: [String: Any]
    do throws(SandboxRefusal) { body = try Self.jsonObject(ctx) } catch { return error.response }
    guard let user = body["user_id"] as? String, isID(user) else {
      return .v2(400, XBodies.invalidBody("$.user_id: is missing but it is required, or does not match ^[0-9]{1,19}$"))
    }
    guard SandboxData.usersByID[user] != nil else { return .v2(404, XBodies.missingResource(user, resourceType: "user", parameter: "user_id")) }
    lists[index].members.removeAll { $0 == user }
    lists[index].members.insert(user, at: 0)
    return Self.flag("is_member", true)
  }

  /// `DELETE /2/lists/:id/members/:user_id`: `{"data": {"is_member": false}}`.
  mutating func removeMember(_ ctx: RouteContext) -> SandboxResponse {
    let id = ctx.captures.first ?? ""
    let user = ctx.captures.count > 1 ? ctx.captures[1] : ""
    if let bad = badID(id) ?? badID(user, parameter: "user_id") { return bad }
    guard let index = owned(id, by: ctx.caller.userID) else { return .v2(403, XBodies.forbidden) }
    lists[index].members.removeAll { $0 == user }
    return Self.flag("is_member", false)
  }

  /// `POST /2/users/:id/followed_lists` (`{"list_id"}`) and `DELETE …/:list_id`: `following`.
  mutating func follow(_ ctx: RouteContext, _ on: Bool) -> SandboxResponse {
    guard let user = ownPathUser(ctx) else { return .v2(403, XBodies.forbidden) }
    let id: String
    do throws(SandboxRefusal) { id = try listID(ctx, adding: on) } catch { return error.response }
    guard let index = lists.firstIndex(where: { $0.id == id && (!$0.isPrivate || $0.ownerID == user) }) else {
      return on ? .v2(404, XBodies.missingResource(id, resourceType: "list", parameter: "list_id")) : Self.flag("following", false)
    }
    lists[index].followers.removeAll { $0 == user }
    if on { lists[index].followers.insert(user, at: 0) }
    return Self.flag("following", on)
  }

  /// `POST /2/users/:id/pinned_lists` (`{"list_id"}`) and `DELETE …/:list_id`: `pinned`.
  mutating func pin(_ ctx: RouteContext, _ on: Bool) -> SandboxResponse {
    guard let user = ownPathUser(ctx) else { return .v2(403, XBodies.forbidden) }
    let id: String
    do throws(SandboxRefusal) { id = try listID(ctx, adding: on) } catch { return error.response }
    if on, visible(id, to: user) == nil { return .v2(404, XBodies.missingResource(id, resourceType: "list", parameter: "list_id")) }
    pinned[user, default: []].removeAll { $0 == id }
    if on { pinned[user, default: []].insert(id, at: 0) }
    return Self.flag("pinned", on)
  }

  // MARK: - Helpers

  /// The path's user when it is the caller.
  private func ownPathUser(_ ctx: RouteContext) -> String? {
    guard let user = ctx.captures.first, user == ctx.caller.userID else { return nil }
    return user
  }

  /// The list of a follow or pin: the body's `list_id` (adding), else the path's second id.
  private func listID(_ ctx: RouteContext, adding: Bool) throws(SandboxRefusal) -> String {
    if adding {
      let body = try Self.jsonObject(ctx)
      guard let id = body["list_id"] as? String, isID(id) else {
        throw SandboxRefusal(.v2(400, XBodies.invalidBody("$.list_id: is missing but it is required, or does not match ^[0-9]{1,19}$")))
      }
      return id
    }
    let id = ctx.captures.count > 1 ? ctx.captures[1] : ""
    if let bad = badID(id, parameter: "list_id") { throw SandboxRefusal(bad) }
    return id
  }

  /// The request's JSON object body, or X's 400.
  static func jsonObject(_ ctx: RouteContext) throws(SandboxRefusal) -> [String: Any] {
    guard mediaType(ctx.contentType) == "application/json" else { throw SandboxRefusal(.v2(400, XBodies.jsonRequired)) }
    guard let body = ctx.body, let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else {
      throw SandboxRefusal(.v2(400, XBodies.invalidBody("Request body is not valid JSON.")))
    }
    return object
  }

  /// `{"data": {key: value}}`.
  static func flag(_ key: String, _ value: Bool) -> SandboxResponse {
    .v2(200, .object([("data", .object([(key, .bool(value))]))]))
  }
}
