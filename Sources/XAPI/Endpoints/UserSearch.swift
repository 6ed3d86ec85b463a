import NetworkClient

extension XClient.V2 {
  /// `GET /2/users/search`: accounts whose name, username or bio match `query`, in X's order of
  /// relevance, paged with `next_token` (1 to 1000 a page).
  ///
  /// The way to find an account whose exact username you do not know; X bills each user
  /// returned as a user read ($0.010), so give a `limit`.
  ///
  /// ```swift
  /// for try await page in client.v2.searchUsers(query: "swift", limit: 20) {
  ///   page.users.forEach { print($0.username) }
  /// }
  /// ```
  public func searchUsers(query: String, userFields: [String] = XClient.V2.defaultUserFields, limit: Int? = nil) -> UserPages {
    userPages(.searchUsers, [], userFields: userFields, cursorName: "next_token", extra: [("query", query)], limit: limit)
  }
}
