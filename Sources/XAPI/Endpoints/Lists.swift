import NetworkClient

/// The pages of a user's lists (owned, followed, memberships).
public typealias ListPages = Pages<XList>

extension Page where Item == XList {
  /// The page's lists (its ``Page/items``).
  public var lists: [XList] { items }
}

/// Lists (`x-api/lists`): looking one up, a user's owned, followed, member-of and pinned lists,
/// a list's members and followers, and managing lists: create, update, delete, add and remove
/// members, follow, unfollow, pin, unpin. Each list read is billed as a list ($0.005; owned,
/// $0.001, for the app owner's own), each member or follower as a user; X's price list names no
/// price for creating and managing a list, so a budget refuses those under a limit rather
/// than guess. The writes take user context (OAuth 2.0 with `list.write`).
///
/// ```swift
/// let me = try await client.v2.me()
/// let created = try await client.v2.createList(name: "Swift people", description: "Who writes Swift", isPrivate: true)
/// _ = try await client.v2.addListMember(listID: created.id, userID: "1002")
/// for try await page in client.v2.ownedLists(userID: me.id) { page.lists.forEach { print($0.name) } }
/// ```
extension XClient.V2 {
  /// The `list.fields` that fill every property of ``XList``.
  public static let defaultListFields = ["created_at", "description", "follower_count", "member_count", "owner_id", "private"]

  /// `GET /2/lists/:id`: one list.
  public func list(id: String, listFields: [String] = XClient.V2.defaultListFields) async throws(XError) -> XList {
    let response = try await client.send(
      Request<V2Envelope<XList>>(path: XEndpoint.getListsById.filled(id), query: Self.fields(listFields)))
    guard let list = response.value.data else { throw .notFound(message: response.value.errors?.first?.description ?? "no such list") }
    return list
  }

  /// `GET /2/users/:id/owned_lists`: the lists the user owns, paged (1 to 100).
  public func ownedLists(userID: String, listFields: [String] = XClient.V2.defaultListFields, limit: Int? = nil) -> ListPages {
    listPages(.getUsersOwnedLists, userID, listFields: listFields, limit: limit)
  }

  /// `GET /2/users/:id/followed_lists`: the lists the user follows, paged (1 to 100).
  public func followedLists(userID: String, listFields: [String] = XClient.V2.defaultListFields, limit: Int? = nil) -> ListPages {
    listPages(.getUsersFollowedLists, userID, listFields: listFields, limit: limit)
  }

  /// `GET /2/users/:id/list_memberships`: the lists the user is a member of, paged (1 to 100).
  public func listMemberships(userID: String, listFields: [String] = XClient.V2.defaultListFields, limit: Int? = nil) -> ListPages {
    listPages(.getUsersListMemberships, userID, listFields: listFields, limit: limit)
  }

  /// `GET /2/users/:id/pinned_lists`: the lists the authenticated user pinned (X pages them not).
  public func pinnedLists(userID: String, listFields: [String] = XClient.V2.defaultListFields) async throws(XError) -> [XList] {
    let response = try await client.send(
      Request<V2Envelope<[XList]>>(path: XEndpoint.getUsersPinnedLists.filled(userID), query: Self.fields(listFields)))
    return response.value.data ?? []
  }

  /// `GET /2/lists/:id/members`: the accounts in a list, paged (1 to 100).
  public func listMembers(listID: String, userFields: [String] = XClient.V2.defaultUserFields, limit: Int? = nil) -> UserPages {
    userPages(.getListsMembers, [listID], userFields: userFields, limit: limit)
  }

  /// `GET /2/lists/:id/followers`: the accounts that follow a list, paged (1 to 100).
  public func listFollowers(listID: String, userFields: [String] = XClient.V2.defaultUserFields, limit: Int? = nil) -> UserPages {
    userPages(.getListsFollowers, [listID], userFields: userFields, limit: limit)
  }

  /// `POST /2/lists`: creates a list owned by the authenticated user; its id and name.
  public func createList(name: String, description: String? = nil, isPrivate: Bool = false) async throws(XError) -> XList {
    struct Body: Encodable, Sendable {
      let name: String
      let description: String?
      let isPrivate: Bool
      enum CodingKeys: String, CodingKey {
        case name, description
        case isPrivate = "private"
      }
    }
    let response = try await client.send(
      Request<V2Envelope<XList>>(
        method: XEndpoint.createLists.method, path: XEndpoint.createLists.filled(),
        body: .json(Body(name: name, description: description, isPrivate: isPrivate))))
    guard let list = response.value.data else { throw .notFound(message: response.value.errors?.first?.description ?? "X created no list") }
    return list
  }

  /// `PUT /2/lists/:id`: changes what is given of a list's name, description and privacy;
  /// `true` when X says it is updated.
  public func updateList(id: String, name: String? = nil, description: String? = nil, isPrivate: Bool? = nil) async throws(XError) -> Bool {
    struct Body: Encodable, Sendable {
      let name: String?
      let description: String?
      let isPrivate: Bool?
      enum CodingKeys: String, CodingKey {
        case name, description
        case isPrivate = "private"
      }
    }
    return try await flag(.updateLists, [id], body: .json(Body(name: name, description: description, isPrivate: isPrivate)), key: "updated") ?? false
  }

  /// `DELETE /2/lists/:id`: deletes a list the authenticated user owns; `true` when deleted.
  public func deleteList(id: String) async throws(XError) -> Bool {
    try await flag(.deleteLists, [id], key: "deleted") ?? false
  }

  /// `POST /2/lists/:id/members` (`{"user_id": …}`): adds an account; `true` when it is a member.
  public func addListMember(listID: String, userID: String) async throws(XError) -> Bool {
    try await flag(.addListsMember, [listID], body: .json(["user_id": userID]), key: "is_member") ?? false
  }

  /// `DELETE /2/lists/:id/members/:user_id`: removes an account; `true` when it is no longer one.
  public func removeListMember(listID: String, userID: String) async throws(XError) -> Bool {
    try await flag(.removeListsMemberByUserId, [listID, userID], key: "is_member").map(!) ?? false
  }

  /// `POST /2/users/:id/followed_lists` (`{"list_id": …}`): follows a list; `true` when followed.
  public func followList(userID: String, listID: String) async throws(XError) -> Bool {
    try await flag(.followList, [userID], body: .json(["list_id": listID]), key: "following") ?? false
  }

  /// `DELETE /2/users/:id/followed_lists/:list_id`: unfollows a list; `true` when no longer followed.
  public func unfollowList(userID: String, listID: String) async throws(XError) -> Bool {
    try await flag(.unfollowList, [userID, listID], key: "following").map(!) ?? false
  }

  /// `POST /2/users/:id/pinned_lists` (`{"list_id": …}`): pins a list; `true` when pinned.
  public func pinList(userID: String, listID: String) async throws(XError) -> Bool {
    try await flag(.pinList, [userID], body: .json(["list_id": listID]), key: "pinned") ?? false
  }

  /// `DELETE /2/users/:id/pinned_lists/:list_id`: unpins a list; `true` when no longer pinned.
  public func unpinList(userID: String, listID: String) async throws(XError) -> Bool {
    try await flag(.unpinList, [userID, listID], key: "pinned").map(!) ?? false
  }

  // MARK: - Helpers

  private static func fields(_ listFields: [String]) -> [QueryItem] {
    listFields.isEmpty ? [] : [("list.fields", listFields.joined(separator: ","))]
  }

  /// The pages of lists of `endpoint` for `userID`, each no larger than still wanted.
  private func listPages(_ endpoint: XEndpoint, _ userID: String, listFields: [String], limit: Int?) -> ListPages {
    let client = self.client
    let path = endpoint.filled(userID)
    let largest = endpoint.pageSizes?.upperBound ?? 100
    let fields = Self.fields(listFields)
    return ListPages(
      limit: limit,
      sizedFetch: { cursor, wanted throws(XError) in
        var query = [("max_results", String(min(max(wanted ?? largest, 1), largest)))] + fields
        if case .token(let token) = cursor { query.append(("pagination_token", token)) }
        let response = try await client.send(Request<V2Envelope<[XList]>>(path: path, query: query))
        let envelope = response.value
        return Page(
          items: envelope.data ?? [], next: envelope.meta?.nextToken.map(PageCursor.token), partialErrors: envelope.errors ?? [],
          rateLimit: response.response.rateLimit, body: response.response.body)
      })
  }

  /// A write whose answer is `{"data": {key: Bool}}`: that value, `nil` when X sent none.
  private func flag(_ endpoint: XEndpoint, _ values: [String], body: RequestBody = .none, key: String) async throws(XError) -> Bool? {
    let response = try await client.send(
      Request<V2Envelope<[String: Bool]>>(method: endpoint.method, path: endpoint.filled(values), body: body))
    return response.value.data?[key]
  }
}
