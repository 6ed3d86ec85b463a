import DateFormats
import Foundation

/// Users: the caller, lookups by id and username, one account, followers and following
/// (`x-api/users/*.mdx`), and v1.1's `account/verify_credentials`.
extension SandboxRoute {
  static let users: [SandboxRoute] = [
    SandboxRoute(
      method: "GET", pattern: ["2", "users", "me"], name: "v2_me", limit: 75, bearerOK: false, allowed: userParameters,
      scopes: ["tweet.read", "users.read"], billing: .resources(.user)
    ) { $0.v2Me($1) },
    SandboxRoute(
      method: "GET", pattern: ["2", "users", "by", "username", "*"], name: "v2_user_by_username", limit: 300, allowed: userParameters,
      scopes: ["tweet.read", "users.read"], billing: .resources(.user)
    ) {
      $0.v2UserByUsername($1)
    },
    SandboxRoute(
      method: "GET", pattern: ["2", "users", "by"], name: "v2_users_by", limit: 900, allowed: ["usernames"] + userParameters,
      scopes: ["tweet.read", "users.read"], billing: .resources(.user)
    ) {
      $0.v2UsersByUsernames($1)
    },
    SandboxRoute(
      method: "GET", pattern: ["2", "users"], name: "v2_users", limit: 900, allowed: ["ids"] + userParameters, scopes: ["tweet.read", "users.read"],
      billing: .resources(.user)
    ) { $0.v2Users($1) },
    SandboxRoute(
      method: "GET", pattern: ["2", "users", "*", "followers"], name: "v2_followers", limit: 15, allowed: pageParameters + userParameters,
      scopes: ["follows.read", "tweet.read", "users.read"], billing: .resources(.follow, ownable: true)
    ) { $0.v2Followers($1) },
    SandboxRoute(
      method: "GET", pattern: ["2", "users", "*", "following"], name: "v2_following", limit: 15, allowed: pageParameters + userParameters,
      scopes: ["follows.read", "tweet.read", "users.read"], billing: .resources(.follow, ownable: true)
    ) { $0.v2Following($1) },
    SandboxRoute(
      method: "GET", pattern: ["2", "users", "search"], name: "v2_users_search", limit: 300, bearerOK: false,
      allowed: ["query", "max_results", "next_token"] + userParameters, scopes: ["tweet.read", "users.read"], billing: .resources(.user)
    ) { state, ctx in SandboxUserSearch.answer(ctx, state) },
    repostsOfMe,
    SandboxRoute(
      method: "GET", pattern: ["2", "users", "*"], name: "v2_user", limit: 300, allowed: userParameters, scopes: ["tweet.read", "users.read"],
      billing: .resources(.user)
    ) {
      $0.v2User($1)
    },
    SandboxRoute(
      method: "GET", pattern: ["1.1", "account", "verify_credentials.json"], name: "v1_verify", limit: 900, bearerOK: false,
      billing: .resources(.user)
    ) {
      $0.v1Verify($1)
    },
  ]
}

// MARK: - Handlers (lock held)

extension SandboxState {
  func userNotFound(_ value: String, parameter: String) -> SandboxResponse {
    .v2(
      200,
      .object([
        (
          "errors",
          .array([XBodies.notFound(value, resourceType: "user", parameter: parameter, detail: "Could not find user with \(parameter): [\(value)].")])
        )
      ]))
  }

  /// The calling account: the token's owner, or @sandbox_user.
  func caller(_ ctx: RouteContext) -> SandboxUser? {
    SandboxData.usersByID[ctx.caller.userID ?? SandboxData.mainUserID]
  }

  func v2Me(_ ctx: RouteContext) -> SandboxResponse {
    guard let user = caller(ctx) else { return .v2(401, XBodies.unauthorized) }
    return .v2(200, .object([("data", v2User(user, fields: Fields(ctx.query).user))]))
  }

  func v2UserByUsername(_ ctx: RouteContext) -> SandboxResponse {
    let name = ctx.captures.first ?? ""
    guard isUsername(name) else {
      return .v2(
        400, XBodies.invalidRequest("username", [name], "The `username` query parameter value [\(name)] does not match ^[A-Za-z0-9_]{1,15}$"))
    }
    guard let user = SandboxData.user(named: name) else { return userNotFound(name, parameter: "username") }
    return .v2(200, .object([("data", v2User(user, fields: Fields(ctx.query).user))]))
  }

  func v2User(_ ctx: RouteContext) -> SandboxResponse {
    do throws(SandboxRefusal) {
      let user = try pathUser(ctx)
      return .v2(200, .object([("data", v2User(user, fields: Fields(ctx.query).user))]))
    } catch {
      return error.response
    }
  }

  /// The account a path's `:id` names: X's 400 for no id, a 200 with a not-found error for an
  /// unknown one.
  func pathUser(_ ctx: RouteContext) throws(SandboxRefusal) -> SandboxUser {
    let id = ctx.captures.first ?? ""
    if let bad = badID(id) { throw SandboxRefusal(bad) }
    guard let user = SandboxData.usersByID[id] else { throw SandboxRefusal(userNotFound(id, parameter: "id")) }
    return user
  }

  /// `GET /2/users/:id/followers`, the most recent follower first.
  func v2Followers(_ ctx: RouteContext) -> SandboxResponse {
    follows(ctx) { SandboxData.followerIDs(of: $0) }
  }

  /// `GET /2/users/:id/following`, the most recent follow first.
  func v2Following(_ ctx: RouteContext) -> SandboxResponse {
    follows(ctx) { SandboxData.followingIDs(of: $0) }
  }

  /// A page of the accounts `list` gives for the path's user, by position, with X's
  /// `next_token` and `previous_token`.
  private func follows(_ ctx: RouteContext, _ list: (String) -> [String]) -> SandboxResponse {
    do throws(SandboxRefusal) {
      let user = try pathUser(ctx)
      return try usersByPosition(ctx, list(user.id).compactMap { SandboxData.usersByID[$0] }, range: 1...1000, defaultCount: 100)
    } catch {
      return error.response
    }
  }

  /// A page of `accounts` by position (`max_results` within `range`, the token in
  /// `tokenName`), with X's `next_token` and `previous_token`, and `result_count` unless
  /// `counted` is false (X's user search has none).
  func usersByPosition(
    _ ctx: RouteContext, _ accounts: [SandboxUser], range: ClosedRange<Int>, defaultCount: Int, tokenName: String = "pagination_token",
    counted: Bool = true
  ) throws(SandboxRefusal) -> SandboxResponse {
    let count = try pageSize(ctx.query, range: range, defaultCount: defaultCount)
    var offset = 0
    if let token = ctx.query[tokenName] {
      guard let start = PositionToken.users.decode(token) else { throw badToken(tokenName, token) }
      offset = start
    }
    let page = Array(accounts.dropFirst(offset).prefix(count))
    guard !page.isEmpty else { return .v2(200, counted ? Self.emptyPage : .object([("meta", .object([]))])) }
    var meta: [(String, JSON)] = counted ? [("result_count", .int(page.count))] : []
    if offset + count < accounts.count { meta.append(("next_token", .string(PositionToken.users.encode(offset + count)))) }
    if offset > 0 { meta.append(("previous_token", .string(PositionToken.users.encode(max(0, offset - count))))) }
    return .v2(200, usersEnvelope(page, fields: Fields(ctx.query), meta: .object(meta)))
  }

  /// `GET /2/users?ids=`: the accounts found, in the request's order, and a not-found error
  /// for each id that is none.
  func v2Users(_ ctx: RouteContext) -> SandboxResponse {
    do throws(SandboxRefusal) {
      let ids = try lookupValues(ctx.query, parameter: "ids", pattern: "^[0-9]{1,19}$", isValid: isID)
      let (found, errors) = lookup(ids, resourceType: "user", parameter: "ids") { SandboxData.usersByID[$0] }
      return .v2(200, usersEnvelope(found, fields: Fields(ctx.query), errors: errors))
    } catch {
      return error.response
    }
  }

  /// `GET /2/users/by?usernames=`, like ``v2Users(_:)``.
  func v2UsersByUsernames(_ ctx: RouteContext) -> SandboxResponse {
    do throws(SandboxRefusal) {
      let names = try lookupValues(ctx.query, parameter: "usernames", pattern: "^[A-Za-z0-9_]{1,15}$", isValid: isUsername)
      let (found, errors) = lookup(names, resourceType: "user", parameter: "usernames") { SandboxData.user(named: $0) }
      return .v2(200, usersEnvelope(found, fields: Fields(ctx.query), errors: errors))
    } catch {
      return error.response
    }
  }

  func v1Verify(_ ctx: RouteContext) -> SandboxResponse {
    guard let user = caller(ctx) else { return .v1(401, XBodies.invalidToken) }
    return .v1(
      200,
      .object(
        v1UserObject(user) + [
          ("followers_count", .int(user.followers)), ("friends_count", .int(user.following)),
          ("statuses_count", .int(tweets(of: user.id).count)),
          ("created_at", .string(TwitterV1Date.string(from: Date(epochSeconds: user.createdAt)))),
        ]))
  }
}
