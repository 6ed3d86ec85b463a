import NetworkClient

/// The accounts the authenticated user blocks or mutes: owned reads ($0.001 an account when the
/// user owns the app) that X serves to the user themself, with OAuth 2.0 user context and the
/// scope `block.read` or `mute.read` (or an OAuth 1.0a signature). Blocking itself is a write X
/// sells to Enterprise only since 2026-04-20 (``XEndpoint/access``), so it has no method here;
/// `XClient.call` reaches it.
///
/// ```swift
/// let me = try await client.v2.me()
/// for try await page in client.v2.blocking(userID: me.id) { page.users.forEach { print($0.username) } }
/// ```
extension XClient.V2 {
  /// `GET /2/users/:id/blocking`: the accounts the user blocks, most recent first, paged with
  /// `pagination_token` (1 to 1000 a page). `userID` must be the authenticated user's.
  public func blocking(userID: String, userFields: [String] = XClient.V2.defaultUserFields, limit: Int? = nil) -> UserPages {
    userPages(.getUsersBlocking, [userID], userFields: userFields, limit: limit)
  }

  /// `GET /2/users/:id/muting`: the accounts the user mutes, most recent first, paged like
  /// ``blocking(userID:userFields:limit:)``.
  public func muting(userID: String, userFields: [String] = XClient.V2.defaultUserFields, limit: Int? = nil) -> UserPages {
    userPages(.getUsersMuting, [userID], userFields: userFields, limit: limit)
  }
}
