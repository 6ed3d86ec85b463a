/// A family's own state: the route handlers of a resource family that keeps state (lists, direct
/// messages, blocks and mutes) change only their part of ``SandboxState`` and read the rest, as
/// a Vapor or Hummingbird route collection owns its dependencies. The one lock stays (a request
/// is still served whole under it); what a handler may change is what its type says.
///
/// ```swift
/// SandboxRoute(method: "GET", pattern: ["2", "users", "*", "muting"], name: "v2_muting", limit: 15,
///              handler: SandboxRoute.on(\.moderation) { moderation, state, ctx in moderation.muting(ctx, state) })
/// ```
extension SandboxRoute {
  /// A handler that is given `part` to change and the whole state to read (as it was before
  /// the request: the part's changes are written back after the handler returns).
  static func on<Part: Sendable>(
    _ part: WritableKeyPath<SandboxState, Part> & Sendable,
    _ handler: @escaping @Sendable (inout Part, SandboxState, RouteContext) -> SandboxResponse
  ) -> @Sendable (inout SandboxState, RouteContext) -> SandboxResponse {
    { state, ctx in
      var own = state[keyPath: part]
      let answer = handler(&own, state, ctx)
      state[keyPath: part] = own
      return answer
    }
  }
}
