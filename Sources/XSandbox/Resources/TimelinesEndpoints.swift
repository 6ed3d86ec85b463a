import Foundation

/// Timelines and other pages of posts: a user's posts, mentions, the home timeline, liked
/// posts and a post's quotes (`x-api/posts/timelines`, `likes`, `quote-tweets`), and v1.1's
/// `statuses/user_timeline` and `statuses/home_timeline`.
extension SandboxRoute {
  static let timelines: [SandboxRoute] = [
    SandboxRoute(
      method: "GET", pattern: ["2", "users", "*", "tweets"], name: "v2_user_tweets", limit: 1500, allowed: timelineParameters,
      scopes: ["tweet.read", "users.read"], billing: .resources(.post, ownable: true)
    ) {
      $0.v2UserTweets($1)
    },
    SandboxRoute(
      method: "GET", pattern: ["2", "users", "*", "mentions"], name: "v2_mentions", limit: 300, allowed: mentionParameters,
      scopes: ["tweet.read", "users.read"], billing: .resources(.post, ownable: true)
    ) {
      $0.v2Mentions($1)
    },
    // User context only: X's specification lists no `BearerToken` for liked posts.
    SandboxRoute(
      method: "GET", pattern: ["2", "users", "*", "liked_tweets"], name: "v2_liked_tweets", limit: 75, bearerOK: false,
      allowed: pageParameters + tweetExtra, scopes: ["like.read", "tweet.read", "users.read"], billing: .resources(.post, ownable: true)
    ) { $0.v2LikedTweets($1) },
    SandboxRoute(
      method: "GET", pattern: ["2", "users", "*", "timelines", "reverse_chronological"], name: "v2_home", limit: 180, bearerOK: false,
      allowed: timelineParameters, scopes: ["tweet.read", "users.read"], billing: .resources(.post)
    ) { $0.v2Home($1) },
    SandboxRoute(
      method: "GET", pattern: ["2", "tweets", "*", "quote_tweets"], name: "v2_quote_tweets", limit: 75,
      allowed: pageParameters + ["exclude"] + tweetExtra, scopes: ["tweet.read", "users.read"], billing: .resources(.post)
    ) { $0.v2QuoteTweets($1) },
    SandboxRoute(method: "GET", pattern: ["1.1", "statuses", "user_timeline.json"], name: "v1_user_timeline", limit: 900, billing: .resources(.post))
    { $0.v1UserTimeline($1) },
    SandboxRoute(
      method: "GET", pattern: ["1.1", "statuses", "home_timeline.json"], name: "v1_home", limit: 900, bearerOK: false, billing: .resources(.post)
    ) { $0.v1Home($1) },
  ]
}

// MARK: - Handlers (lock held)

extension SandboxState {
  static let paginationPrefix = "7140dib"
  static let searchPrefix = "b26v89c"

  func v2UserTweets(_ ctx: RouteContext) -> SandboxResponse {
    do throws(SandboxRefusal) {
      let user = try pathUser(ctx)
      let timeline = try excluding(ctx.query, tweets(of: user.id))
      return v2Timeline(ctx, timeline, range: 5...100, defaultCount: 10, tokenNames: ["pagination_token"])
    } catch {
      return error.response
    }
  }

  func v2Home(_ ctx: RouteContext) -> SandboxResponse {
    guard ctx.captures.first == ctx.caller.userID else { return .v2(403, XBodies.forbidden) }
    do throws(SandboxRefusal) {
      let timeline = try excluding(ctx.query, tweets)
      return v2Timeline(ctx, timeline, range: 1...100, defaultCount: 100, tokenNames: ["pagination_token"])
    } catch {
      return error.response
    }
  }

  /// A page of `tweets` (newest first) with X's parameter checks and paging tokens.
  func v2Timeline(_ ctx: RouteContext, _ tweets: [SandboxTweet], range: ClosedRange<Int>, defaultCount: Int, tokenNames: [String]) -> SandboxResponse
  {
    do throws(SandboxRefusal) {
      let query = ctx.query
      let count = try pageSize(query, range: range, defaultCount: defaultCount)
      let window = try TweetWindow(query)
      let prefix = tokenNames.first == "pagination_token" ? Self.paginationPrefix : Self.searchPrefix
      var after: UInt64?
      for name in tokenNames {
        guard let token = query[name] else { continue }
        guard token.hasPrefix(prefix), let value = UInt64(token.dropFirst(prefix.count).lowercased(), radix: 36) else {
          throw badToken(name, token)
        }
        after = value
      }
      let selected = tweets.filter { tweet in window.contains(tweet) && (after.map { tweet.id < $0 } ?? true) }
      let page = Array(selected.prefix(count))
      guard let newest = page.first, let oldest = page.last else { return .v2(200, Self.emptyPage) }
      var meta: [(String, JSON)] = [
        ("result_count", .int(page.count)), ("newest_id", .string(String(newest.id))), ("oldest_id", .string(String(oldest.id))),
      ]
      if selected.count > count { meta.append(("next_token", .string(prefix + String(oldest.id, radix: 36)))) }
      return .v2(200, envelope(page, fields: Fields(query), meta: .object(meta)))
    } catch {
      return error.response
    }
  }

  /// A page of `tweets` by position, as X pages liked, quote and list tweets: `meta` holds
  /// `result_count` and `next_token` only.
  func tweetsByPosition(_ ctx: RouteContext, _ tweets: [SandboxTweet], range: ClosedRange<Int>, defaultCount: Int) -> SandboxResponse {
    do throws(SandboxRefusal) {
      let (offset, count) = try positionPage(ctx.query, range: range, defaultCount: defaultCount, token: .tweets)
      let page = Array(tweets.dropFirst(offset).prefix(count))
      guard !page.isEmpty else { return .v2(200, Self.emptyPage) }
      var meta: [(String, JSON)] = [("result_count", .int(page.count))]
      if offset + count < tweets.count { meta.append(("next_token", .string(PositionToken.tweets.encode(offset + count)))) }
      return .v2(200, envelope(page, fields: Fields(ctx.query), meta: .object(meta)))
    } catch {
      return error.response
    }
  }

  /// `GET /2/users/:id/mentions`: other accounts' tweets that mention the user.
  func v2Mentions(_ ctx: RouteContext) -> SandboxResponse {
    do throws(SandboxRefusal) {
      let user = try pathUser(ctx)
      return v2Timeline(ctx, mentions(of: user.id), range: 5...100, defaultCount: 10, tokenNames: ["pagination_token"])
    } catch {
      return error.response
    }
  }

  /// `GET /2/users/:id/liked_tweets`: `max_results` 5–100, as X's specification (2.166 and
  /// 2.167) declares it, and as the client's row pages it.
  func v2LikedTweets(_ ctx: RouteContext) -> SandboxResponse {
    do throws(SandboxRefusal) {
      let user = try pathUser(ctx)
      return tweetsByPosition(ctx, likedTweets(of: user.id), range: 5...100, defaultCount: 100)
    } catch {
      return error.response
    }
  }

  /// `GET /2/tweets/:id/quote_tweets`; an unknown tweet has none.
  func v2QuoteTweets(_ ctx: RouteContext) -> SandboxResponse {
    let id = ctx.captures.first ?? ""
    if let bad = badID(id) { return bad }
    do throws(SandboxRefusal) {
      let quoted = SandboxReference(kind: .quoted, id: UInt64(id) ?? 0)
      let quotes = try excluding(ctx.query, tweets.filter { $0.references.contains(quoted) })
      return tweetsByPosition(ctx, quotes, range: 10...100, defaultCount: 10)
    } catch {
      return error.response
    }
  }

  /// `count`, `since_id` and `max_id` (inclusive) applied to `tweets`; then, as X does,
  /// `exclude_replies` and `include_rts=false` drop tweets from the page already taken.
  func v1Select(_ tweets: [SandboxTweet], _ query: [String: String], defaultCount: Int, maximum: Int) -> (
    page: [SandboxTweet], more: Bool, count: Int
  ) {
    let count = query["count"].flatMap { Int($0) }.map { max(1, min(maximum, $0)) } ?? defaultCount
    let since = query["since_id"].flatMap { UInt64($0) }
    let maxID = query["max_id"].flatMap { UInt64($0) }
    let selected = tweets.filter { tweet in (since.map { tweet.id > $0 } ?? true) && (maxID.map { tweet.id <= $0 } ?? true) }
    var page = Array(selected.prefix(count))
    if isTruthy(query["exclude_replies"]) { page.removeAll { $0.reference(.repliedTo) != nil } }
    if isFalsy(query["include_rts"]) { page.removeAll { $0.reference(.retweeted) != nil } }
    return (page, selected.count > count, count)
  }

  func v1UserTimeline(_ ctx: RouteContext) -> SandboxResponse {
    let query = ctx.query
    let user: SandboxUser?
    if let id = query["user_id"], !id.isEmpty {
      user = SandboxData.usersByID[id]
    } else if let name = query["screen_name"], !name.isEmpty {
      user = SandboxData.user(named: name.hasPrefix("@") ? String(name.dropFirst()) : name)
    } else if let id = ctx.caller.userID {
      user = SandboxData.usersByID[id]
    } else {
      return .v1(400, XBodies.badAuthentication)
    }
    guard let user else { return .v1(404, XBodies.pageDoesNotExist) }
    let page = v1Select(tweets(of: user.id), query, defaultCount: 20, maximum: 200).page
    return .v1(200, .array(page.map { v1Tweet($0, params: query) }))
  }

  func v1Home(_ ctx: RouteContext) -> SandboxResponse {
    let page = v1Select(tweets, ctx.query, defaultCount: 20, maximum: 200).page
    return .v1(200, .array(page.map { v1Tweet($0, params: ctx.query) }))
  }
}
