/// Engagement (`x-api/posts/likes`, `x-api/posts/reposts`): the accounts that liked a post,
/// that reposted it, its reposts, and the reposts of the caller's posts. They read the posts and
/// the cast's likes and keep no state of their own (``SandboxEngagement``). Liking users and
/// the reposts of one's posts are user-context only (X's specification 2.167 names no bearer
/// token for them), with `like.read` and `timeline.read` under OAuth 2.0.
extension SandboxRoute {
  static let engagement: [SandboxRoute] = [
    SandboxRoute(
      method: "GET", pattern: ["2", "tweets", "*", "liking_users"], name: "v2_liking_users", limit: 75, bearerOK: false,
      allowed: pageParameters + userParameters, scopes: ["like.read", "tweet.read", "users.read"], billing: .resources(.user)
    ) { state, ctx in SandboxEngagement.likers(ctx, state) },
    SandboxRoute(
      method: "GET", pattern: ["2", "tweets", "*", "retweeted_by"], name: "v2_retweeted_by", limit: 75,
      allowed: pageParameters + userParameters, scopes: ["tweet.read", "users.read"], billing: .resources(.user)
    ) { state, ctx in SandboxEngagement.reposters(ctx, state) },
    SandboxRoute(
      method: "GET", pattern: ["2", "tweets", "*", "retweets"], name: "v2_retweets", limit: 75, allowed: pageParameters + tweetExtra,
      scopes: ["tweet.read", "users.read"], billing: .resources(.post)
    ) { state, ctx in SandboxEngagement.reposts(ctx, state) },
  ]

  /// `POST /2/users/:id/likes`: X sells likes writes to Enterprise only since 2026-04-20 (its
  /// changelog), so the sandbox's demo app, a self-serve one, gets X's 403 for an access level
  /// it lacks (`client-forbidden`, "Appropriate Level of API Access"), as X answers it.
  static let enterpriseOnly: [SandboxRoute] = [
    SandboxRoute(
      method: "POST", pattern: ["2", "users", "*", "likes"], name: "v2_like", limit: nil, bearerOK: false,
      scopes: ["like.write", "tweet.read", "users.read"], billing: .request(.interaction)
    ) { _, _ in .v2(403, XBodies.clientForbidden) }
  ]

  /// `GET /2/users/reposts_of_me`: declared with the users' routes, before `2/users/*`.
  static let repostsOfMe = SandboxRoute(
    method: "GET", pattern: ["2", "users", "reposts_of_me"], name: "v2_reposts_of_me", limit: 75, bearerOK: false,
    allowed: pageParameters + tweetExtra, scopes: ["timeline.read", "tweet.read"], billing: .resources(.post)
  ) { state, ctx in SandboxEngagement.repostsOfMe(ctx, state) }
}

// MARK: - Handlers (lock held)

/// The engagement routes' answers, read from the state's posts and the cast's likes.
enum SandboxEngagement {
  /// `GET /2/tweets/:id/liking_users`: the cast members who liked the post (the fans like
  /// nothing), the highest id first; X's not-found error for an unknown post.
  static func likers(_ ctx: RouteContext, _ state: SandboxState) -> SandboxResponse {
    accounts(ctx, state) { post in SandboxData.users.filter { SandboxData.liked(by: $0.id, post) }.reversed() }
  }

  /// `GET /2/tweets/:id/retweeted_by`: the authors of the post's reposts, the most recent first.
  static func reposters(_ ctx: RouteContext, _ state: SandboxState) -> SandboxResponse {
    accounts(ctx, state) { post in
      reposts(of: post.id, in: state).compactMap { SandboxData.usersByID[$0.authorID] }
    }
  }

  /// `GET /2/tweets/:id/retweets`: the post's reposts, as posts, the most recent first.
  static func reposts(_ ctx: RouteContext, _ state: SandboxState) -> SandboxResponse {
    let id = ctx.captures.first ?? ""
    if let bad = badID(id) { return bad }
    guard let post = state.tweet(id: id) else { return notFound(id) }
    return state.tweetsByPosition(ctx, reposts(of: post.id, in: state), range: 1...100, defaultCount: 100)
  }

  /// `GET /2/users/reposts_of_me`: the reposts other accounts made of the caller's posts.
  static func repostsOfMe(_ ctx: RouteContext, _ state: SandboxState) -> SandboxResponse {
    guard let me = ctx.caller.userID else { return .v2(403, XBodies.forbidden) }
    let mine = Set(state.tweets(of: me).map(\.id))
    let reposts = state.tweets.filter { post in
      post.authorID != me && post.references.contains { $0.kind == .retweeted && mine.contains($0.id) }
    }
    return state.tweetsByPosition(ctx, reposts, range: 1...100, defaultCount: 100)
  }

  /// The reposts of post `id`, newest first.
  private static func reposts(of id: UInt64, in state: SandboxState) -> [SandboxTweet] {
    state.tweets.filter { $0.references.contains(SandboxReference(kind: .retweeted, id: id)) }
  }

  /// A page of the accounts `list` gives for the path's post (`max_results` 1–100).
  private static func accounts(_ ctx: RouteContext, _ state: SandboxState, _ list: (SandboxTweet) -> [SandboxUser]) -> SandboxResponse {
    let id = ctx.captures.first ?? ""
    if let bad = badID(id) { return bad }
    guard let post = state.tweet(id: id) else { return notFound(id) }
    do throws(SandboxRefusal) {
      return try state.usersByPosition(ctx, list(post), range: 1...100, defaultCount: 100)
    } catch {
      return error.response
    }
  }

  /// X's 200 with a not-found error for an unknown post.
  private static func notFound(_ id: String) -> SandboxResponse {
    .v2(
      200,
      .object([
        ("errors", .array([XBodies.notFound(id, resourceType: "tweet", parameter: "id", detail: "Could not find tweet with id: [\(id)].")]))
      ]))
  }
}
