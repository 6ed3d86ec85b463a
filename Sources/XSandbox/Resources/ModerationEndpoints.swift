/// Blocks and mutes (`x-api/users/blocks`, `x-api/users/mutes`): the accounts the caller blocks
/// or mutes, most recent first, paged by position (`max_results` 1–1000). X serves them to the
/// user themself only (another id in the path is a 403), to OAuth 2.0 user context with
/// `block.read` or `mute.read` or an OAuth 1.0a signature, never app-only; each account
/// returned is a block or mute read, an owned read for the app's owner ($0.001). The family
/// keeps its own state (``SandboxModerationState``).
extension SandboxRoute {
  static let moderation: [SandboxRoute] = [
    SandboxRoute(
      method: "GET", pattern: ["2", "users", "*", "blocking"], name: "v2_blocking", limit: 15, bearerOK: false,
      allowed: pageParameters + userParameters, scopes: ["block.read", "tweet.read", "users.read"], billing: .resources(.block, ownable: true),
      handler: on(\.moderation) { moderation, state, ctx in moderation.page(\.blocked, ctx, state) }),
    SandboxRoute(
      method: "GET", pattern: ["2", "users", "*", "muting"], name: "v2_muting", limit: 15, bearerOK: false,
      allowed: pageParameters + userParameters, scopes: ["mute.read", "tweet.read", "users.read"], billing: .resources(.mute, ownable: true),
      handler: on(\.moderation) { moderation, state, ctx in moderation.page(\.muted, ctx, state) }),
  ]
}

// MARK: - Handlers (lock held)

extension SandboxModerationState {
  /// A page of the accounts `which` lists for the path's user, who must be the caller.
  func page(_ which: KeyPath<Self, [String: [String]]>, _ ctx: RouteContext, _ state: SandboxState) -> SandboxResponse {
    let id = ctx.captures.first ?? ""
    if let bad = badID(id) { return bad }
    guard id == ctx.caller.userID else { return .v2(403, XBodies.forbidden) }
    let accounts = (self[keyPath: which][id] ?? []).compactMap { SandboxData.usersByID[$0] }
    do throws(SandboxRefusal) {
      return try state.usersByPosition(ctx, accounts, range: 1...1000, defaultCount: 100)
    } catch {
      return error.response
    }
  }
}
