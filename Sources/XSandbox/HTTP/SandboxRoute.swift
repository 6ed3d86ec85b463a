import DateFormats
import Foundation
import OAuth1
import XAPI

/// Which API a path belongs to: it decides the error bodies.
enum SandboxFamily: Sendable { case v2, v1, oauth }

/// Who is calling, once authenticated.
struct SandboxCaller: Sendable {
  /// OAuth 1.0a user context, an app-only bearer token, or an OAuth 2.0 user access token.
  enum Kind: Sendable { case oauth1, bearer, oauth2 }
  let kind: Kind
  /// The user of an OAuth 1.0a or OAuth 2.0 access token; `nil` for app-only (bearer) calls.
  let userID: String?
  /// `oauth_callback`, on `/oauth/request_token`.
  var callback: String? = nil

  /// Whose rate-limit window a request counts against.
  var identity: String { kind == .bearer ? "app" : "user:\(userID ?? "")" }
}

/// One request, parsed, for a route's handler.
struct RouteContext: Sendable {
  let method: String
  let params: [(String, String)]
  /// First value of each query parameter.
  let query: [String: String]
  let body: Data?
  let contentType: String?
  let caller: SandboxCaller
  let family: SandboxFamily
  let now: Int64
  /// The segments matched by `*` in the route's pattern.
  let captures: [String]
}

/// An endpoint: method, path pattern, rate limit (`nil` for writes and for refusals made before
/// any counting, which carry no `x-rate-limit-*` headers), whether app-only auth may call it,
/// the v2 query parameters it accepts, and its handler (called with the store's lock held).
struct SandboxRoute: Sendable {
  let method: String
  /// Segments; `*` matches one, `*.json` one ending in `.json` (captured without it).
  let pattern: [String]
  let name: String
  let limit: Int?
  var bearerOK = true
  /// X serves some endpoints app-only (full-archive search, counts): a user-context signature is refused.
  var appOnly = false
  var allowed: [String]? = nil
  let handler: @Sendable (inout SandboxState, RouteContext) -> SandboxResponse

  func match(method: String, segments: [String]) -> [String]? {
    guard method == self.method || (method == "HEAD" && self.method == "GET"), segments.count == pattern.count else { return nil }
    var captures: [String] = []
    for (piece, segment) in zip(pattern, segments) {
      if piece == "*" {
        captures.append(segment)
      } else if piece == "*.json" {
        guard segment.hasSuffix(".json"), segment.count > 5 else { return nil }
        captures.append(String(segment.dropLast(5)))
      } else if piece != segment {
        return nil
      }
    }
    return captures
  }

  static let tweetExtra = ["expansions", "tweet.fields", "user.fields", "media.fields", "place.fields", "poll.fields"]
  static let timelineParameters = ["id", "since_id", "until_id", "max_results", "pagination_token", "exclude", "start_time", "end_time"] + tweetExtra
  static let mentionParameters = ["since_id", "until_id", "max_results", "pagination_token", "start_time", "end_time"] + tweetExtra
  static let pageParameters = ["max_results", "pagination_token"]
  static let searchParameters =
    ["query", "start_time", "end_time", "since_id", "until_id", "max_results", "next_token", "pagination_token", "sort_order"] + tweetExtra
  static let countParameters =
    ["query", "start_time", "end_time", "since_id", "until_id", "next_token", "pagination_token", "granularity", "search_count.fields"]
  static let userParameters = ["expansions", "tweet.fields", "user.fields"]

  /// The routes, tried in order: the more specific `2/users/...` patterns before `2/users/*`.
  static let all: [SandboxRoute] = [
    SandboxRoute(method: "GET", pattern: ["2", "users", "me"], name: "v2_me", limit: 75, bearerOK: false, allowed: userParameters) { $0.v2Me($1) },
    SandboxRoute(method: "GET", pattern: ["2", "users", "by", "username", "*"], name: "v2_user_by_username", limit: 300, allowed: userParameters) {
      $0.v2UserByUsername($1)
    },
    SandboxRoute(method: "GET", pattern: ["2", "users", "by"], name: "v2_users_by", limit: 900, allowed: ["usernames"] + userParameters) {
      $0.v2UsersByUsernames($1)
    },
    SandboxRoute(method: "GET", pattern: ["2", "users"], name: "v2_users", limit: 900, allowed: ["ids"] + userParameters) { $0.v2Users($1) },
    SandboxRoute(method: "GET", pattern: ["2", "users", "*", "tweets"], name: "v2_user_tweets", limit: 1500, allowed: timelineParameters) {
      $0.v2UserTweets($1)
    },
    SandboxRoute(method: "GET", pattern: ["2", "users", "*", "mentions"], name: "v2_mentions", limit: 300, allowed: mentionParameters) {
      $0.v2Mentions($1)
    },
    SandboxRoute(
      method: "GET", pattern: ["2", "users", "*", "liked_tweets"], name: "v2_liked_tweets", limit: 75, allowed: pageParameters + tweetExtra
    ) { $0.v2LikedTweets($1) },
    SandboxRoute(
      method: "GET", pattern: ["2", "users", "*", "followers"], name: "v2_followers", limit: 15, allowed: pageParameters + userParameters
    ) { $0.v2Followers($1) },
    SandboxRoute(
      method: "GET", pattern: ["2", "users", "*", "following"], name: "v2_following", limit: 15, allowed: pageParameters + userParameters
    ) { $0.v2Following($1) },
    SandboxRoute(
      method: "GET", pattern: ["2", "users", "*", "timelines", "reverse_chronological"], name: "v2_home", limit: 180, bearerOK: false,
      allowed: timelineParameters
    ) { $0.v2Home($1) },
    SandboxRoute(method: "GET", pattern: ["2", "users", "*"], name: "v2_user", limit: 300, allowed: userParameters) { $0.v2User($1) },
    SandboxRoute(method: "GET", pattern: ["2", "tweets", "search", "recent"], name: "v2_search", limit: 450, allowed: searchParameters) {
      $0.v2Search($1)
    },
    // Refused before any parameter check or rate-limit count, as X refuses an app without the access level.
    SandboxRoute(method: "GET", pattern: ["2", "tweets", "search", "all"], name: "v2_search_all", limit: nil, appOnly: true) { $0.v2SearchAll($1) },
    SandboxRoute(
      method: "GET", pattern: ["2", "tweets", "search", "stream", "rules"], name: "v2_stream_rules", limit: 450, appOnly: true,
      allowed: ["ids", "max_results", "pagination_token"]
    ) { state, ctx in state.v2StreamRules(ctx) },
    SandboxRoute(
      method: "POST", pattern: ["2", "tweets", "search", "stream", "rules"], name: "v2_stream_rules_update", limit: 450, appOnly: true,
      allowed: ["dry_run", "delete_all"]
    ) { $0.v2UpdateStreamRules($1) },
    SandboxRoute(
      method: "GET", pattern: ["2", "tweets", "search", "stream"], name: "v2_stream", limit: 50, appOnly: true,
      allowed: ["backfill_minutes", "start_time", "end_time"] + tweetExtra
    ) { state, ctx in state.v2StreamOpen(ctx) },
    SandboxRoute(method: "GET", pattern: ["2", "tweets", "counts", "recent"], name: "v2_counts", limit: 300, appOnly: true, allowed: countParameters)
    {
      $0.v2Counts($1)
    },
    SandboxRoute(method: "GET", pattern: ["2", "tweets"], name: "v2_tweets", limit: 300, allowed: ["ids"] + tweetExtra) { $0.v2Tweets($1) },
    SandboxRoute(
      method: "GET", pattern: ["2", "tweets", "*", "quote_tweets"], name: "v2_quote_tweets", limit: 75,
      allowed: pageParameters + ["exclude"] + tweetExtra
    ) { $0.v2QuoteTweets($1) },
    SandboxRoute(method: "GET", pattern: ["2", "tweets", "*"], name: "v2_tweet", limit: 300, allowed: tweetExtra) { $0.v2Tweet($1) },
    SandboxRoute(
      method: "POST", pattern: ["2", "media", "upload", "initialize"], name: "v2_media_initialize", limit: nil, bearerOK: false, allowed: []
    ) { $0.v2MediaInitialize($1) },
    SandboxRoute(method: "POST", pattern: ["2", "media", "upload", "*", "append"], name: "v2_media_append", limit: nil, bearerOK: false, allowed: [])
    {
      $0.v2MediaAppend($1)
    },
    SandboxRoute(
      method: "POST", pattern: ["2", "media", "upload", "*", "finalize"], name: "v2_media_finalize", limit: nil, bearerOK: false, allowed: []
    ) { $0.v2MediaFinalize($1) },
    SandboxRoute(
      method: "GET", pattern: ["2", "media", "upload"], name: "v2_media_status", limit: nil, bearerOK: false, allowed: ["command", "media_id"]
    ) {
      $0.v2MediaStatus($1)
    },
    SandboxRoute(method: "POST", pattern: ["2", "media", "metadata"], name: "v2_media_metadata", limit: nil, bearerOK: false, allowed: []) {
      $0.v2MediaMetadata($1)
    },
    SandboxRoute(method: "POST", pattern: ["2", "tweets"], name: "v2_create", limit: nil, bearerOK: false, allowed: []) { $0.v2Create($1) },
    SandboxRoute(method: "DELETE", pattern: ["2", "tweets", "*"], name: "v2_delete", limit: nil, bearerOK: false, allowed: []) { $0.v2Delete($1) },
    SandboxRoute(method: "GET", pattern: ["2", "lists", "*", "tweets"], name: "v2_list_tweets", limit: 900, allowed: pageParameters + tweetExtra) {
      $0.v2ListTweets($1)
    },
    SandboxRoute(method: "GET", pattern: ["1.1", "account", "verify_credentials.json"], name: "v1_verify", limit: 900, bearerOK: false) {
      $0.v1Verify($1)
    },
    SandboxRoute(method: "GET", pattern: ["1.1", "statuses", "user_timeline.json"], name: "v1_user_timeline", limit: 900) { $0.v1UserTimeline($1) },
    SandboxRoute(method: "GET", pattern: ["1.1", "statuses", "home_timeline.json"], name: "v1_home", limit: 900, bearerOK: false) { $0.v1Home($1) },
    SandboxRoute(method: "GET", pattern: ["1.1", "statuses", "show.json"], name: "v1_show", limit: 900) { $0.v1Show($1) },
    SandboxRoute(method: "GET", pattern: ["1.1", "statuses", "show", "*.json"], name: "v1_show", limit: 900) { $0.v1Show($1) },
    SandboxRoute(method: "GET", pattern: ["1.1", "search", "tweets.json"], name: "v1_search", limit: 900) { $0.v1Search($1) },
    SandboxRoute(method: "POST", pattern: ["1.1", "statuses", "update.json"], name: "v1_update", limit: nil, bearerOK: false) { $0.v1Update($1) },
  ]

  static func find(method: String, segments: [String]) -> (SandboxRoute, [String])? {
    for route in all {
      if let captures = route.match(method: method, segments: segments) { return (route, captures) }
    }
    return nil
  }
}

// MARK: - v2 handlers (lock held)

extension SandboxState {
  static let paginationPrefix = "7140dib"
  static let searchPrefix = "b26v89c"

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

  func v2Tweet(_ ctx: RouteContext) -> SandboxResponse {
    let id = ctx.captures.first ?? ""
    if let bad = badID(id) { return bad }
    guard let tweet = tweet(id: id) else {
      return .v2(
        200,
        .object([("errors", .array([XBodies.notFound(id, resourceType: "tweet", parameter: "id", detail: "Could not find tweet with id: [\(id)].")]))]
        ))
    }
    return .v2(200, envelope([tweet], fields: Fields(ctx.query), single: true))
  }

  func v2Tweets(_ ctx: RouteContext) -> SandboxResponse {
    do throws(SandboxRefusal) {
      let ids = try lookupValues(ctx.query, parameter: "ids", pattern: "^[0-9]{1,19}$", isValid: isID)
      let (found, errors) = lookup(ids, resourceType: "tweet", parameter: "ids") { tweet(id: $0) }
      return .v2(200, envelope(found, fields: Fields(ctx.query), errors: errors))
    } catch {
      return error.response
    }
  }

  func v2Search(_ ctx: RouteContext) -> SandboxResponse {
    do throws(SandboxRefusal) {
      let text = try searchText(ctx.query)
      return v2Timeline(ctx, search(text) ?? [], range: 10...100, defaultCount: 10, tokenNames: ["next_token", "pagination_token"])
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

  /// `POST /2/tweets`: `text`, and `reply.in_reply_to_tweet_id` or `quote_tweet_id` (which must
  /// exist).
  mutating func v2Create(_ ctx: RouteContext) -> SandboxResponse {
    guard mediaType(ctx.contentType) == "application/json" else { return .v2(400, XBodies.jsonRequired) }
    guard let body = ctx.body, let object = try? JSONSerialization.jsonObject(with: body) else {
      return .v2(400, XBodies.invalidBody("Request body is not valid JSON."))
    }
    let fields = object as? [String: Any]
    guard let text = fields?["text"] as? String, !text.isEmpty else {
      return .v2(400, XBodies.invalidBody("$.text: is missing but it is required"))
    }
    // X counts as twitter-text does (URLs as 23, CJK and emoji as 2).
    if PostLength.weighted(text) > PostLength.limit { return .v2(403, XBodies.tooLong) }
    var parentID: UInt64?
    if let parent = (fields?["reply"] as? [String: Any])?["in_reply_to_tweet_id"] as? String {
      guard let found = tweet(id: parent), tweets.contains(where: { $0.id == found.id }) else { return .v2(403, XBodies.replyGone) }
      parentID = found.id
    }
    var quotedID: UInt64?
    if let quoted = fields?["quote_tweet_id"] as? String {
      guard let found = tweet(id: quoted), tweets.contains(where: { $0.id == found.id }) else { return .v2(403, XBodies.forbidden) }
      quotedID = found.id
    }
    let author = ctx.caller.userID ?? SandboxData.mainUserID
    var attached: [SandboxMedia] = []
    if let ids = (fields?["media"] as? [String: Any])?["media_ids"] as? [String] {
      let (media, refusal) = attachments(ids, tweetID: (tweets.map(\.id).max() ?? SandboxData.firstID) + 1000)
      if let refusal { return refusal }
      attached = media ?? []
    }
    guard var created = post(text, by: author, now: ctx.now, replyingTo: parentID, quoting: quotedID) else {
      return .v2(403, XBodies.duplicate)
    }
    if !attached.isEmpty, let index = tweets.firstIndex(where: { $0.id == created.id }) {
      tweets[index].media = attached
      created = tweets[index]
    }
    return .v2(
      201,
      .object([
        (
          "data",
          .object([
            ("id", .string(String(created.id))), ("text", .string(created.text)),
            ("edit_history_tweet_ids", .array([.string(String(created.id))])),
          ])
        )
      ]))
  }

  /// `DELETE /2/tweets/:id`: one of the caller's own (the latest version of an edited one).
  mutating func v2Delete(_ ctx: RouteContext) -> SandboxResponse {
    guard let tweet = tweet(id: ctx.captures.first ?? ""), tweets.contains(where: { $0.id == tweet.id }), tweet.authorID == ctx.caller.userID
    else { return .v2(403, XBodies.forbidden) }
    tweets.removeAll { $0.id == tweet.id }
    earlierVersions.removeAll { tweet.versions.contains($0.id) }
    return .v2(200, .object([("data", .object([("deleted", .bool(true))]))]))
  }
}

// MARK: - v1.1 JSON (lock held)

extension SandboxState {
  func v1UserObject(_ user: SandboxUser) -> [(String, JSON)] {
    [("id", .number(user.id)), ("id_str", .string(user.id)), ("name", .string(user.name)), ("screen_name", .string(user.username))]
  }

  /// A v1.1 status. `embedded`: one inside another's `retweeted_status` or `quoted_status`,
  /// which embeds nothing further.
  func v1Tweet(_ tweet: SandboxTweet, params: [String: String], embedded: Bool = false) -> JSON {
    var out: [(String, JSON)] = [
      ("created_at", .string(TwitterV1Date.string(from: Date(epochSeconds: tweet.createdAt)))), ("id", .int(tweet.id)),
      ("id_str", .string(String(tweet.id))),
    ]
    let emitted: String
    let scalars = tweet.text.unicodeScalars
    if params["tweet_mode"]?.lowercased() == "extended" {
      // v1.1 knows no long posts: even its full_text is the cut `text`.
      let full = Self.cut(tweet.text)
      var end = full.unicodeScalars.count
      if let link = tweet.mediaLink, full.hasSuffix(" " + link) { end -= link.unicodeScalars.count + 1 }
      out += [("full_text", .string(full)), ("truncated", .bool(false)), ("display_text_range", .array([.int(tweet.replyPrefix), .int(end)]))]
      emitted = full
    } else if scalars.count > 140 {
      var short = String.UnicodeScalarView()
      short.append(contentsOf: scalars.prefix(139))
      emitted = String(short) + "\u{2026}"
      out += [("text", .string(emitted)), ("truncated", .bool(true))]
    } else {
      emitted = tweet.text
      out += [("text", .string(tweet.text)), ("truncated", .bool(false))]
    }
    if !isFalsy(params["include_entities"]) {
      let visible = emitted.unicodeScalars.count - (emitted == tweet.text ? 0 : 1)
      let (entities, extended) = v1Entities(tweet, visible: visible, params: params)
      out.append(("entities", entities))
      if let extended { out.append(("extended_entities", extended)) }
    }
    out.append(("source", .string("<a href=\"https://github.com/xsandbox\" rel=\"nofollow\">XSandbox</a>")))
    out += v1ReplyFields(tweet)
    let author: [(String, JSON)] =
      SandboxData.usersByID[tweet.authorID].map { v1UserObject($0) } ?? [("id", .number(tweet.authorID)), ("id_str", .string(tweet.authorID))]
    out.append(("user", .object(isTruthy(params["trim_user"]) ? Array(author.prefix(2)) : author)))
    out += [("geo", .null), ("coordinates", .null), ("place", .null), ("contributors", .null)]
    if !embedded, let id = tweet.reference(.retweeted), let original = self.tweet(withID: id) {
      out.append(("retweeted_status", v1Tweet(original, params: params, embedded: true)))
    }
    out += v1QuoteFields(tweet, params: params, embedded: embedded)
    out += [
      ("retweet_count", .int(tweet.retweets)), ("favorite_count", .int(tweet.likes)), ("favorited", .bool(false)), ("retweeted", .bool(false)),
    ]
    // v1.1 sends possibly_sensitive only for tweets with links or media.
    if !tweet.media.isEmpty || SandboxText.entities(of: tweet).contains(where: \.isLink) {
      out.append(("possibly_sensitive", .bool(tweet.possiblySensitive)))
    }
    out.append(("lang", .string(tweet.lang)))
    return .object(out)
  }

  /// `in_reply_to_status_id`, `in_reply_to_user_id` (each with its `_str`) and
  /// `in_reply_to_screen_name`, `null` for a tweet that replies to nothing.
  func v1ReplyFields(_ tweet: SandboxTweet) -> [(String, JSON)] {
    let parent = tweet.reference(.repliedTo)
    let user = tweet.inReplyToUserID.flatMap { SandboxData.usersByID[$0] }
    return [
      ("in_reply_to_status_id", parent.map { JSON.int($0) } ?? .null), ("in_reply_to_status_id_str", parent.map { JSON.string(String($0)) } ?? .null),
      ("in_reply_to_user_id", user.map { JSON.number($0.id) } ?? .null), ("in_reply_to_user_id_str", user.map { JSON.string($0.id) } ?? .null),
      ("in_reply_to_screen_name", user.map { JSON.string($0.username) } ?? .null),
    ]
  }

  /// `is_quote_status`, and for a quote `quoted_status_id` (with `_str`), the permalink and,
  /// unless `embedded`, the `quoted_status`.
  func v1QuoteFields(_ tweet: SandboxTweet, params: [String: String], embedded: Bool) -> [(String, JSON)] {
    guard let id = tweet.reference(.quoted) else { return [("is_quote_status", .bool(false))] }
    var out: [(String, JSON)] = [("is_quote_status", .bool(true)), ("quoted_status_id", .int(id)), ("quoted_status_id_str", .string(String(id)))]
    guard let quoted = self.tweet(withID: id) else { return out }
    let address = "twitter.com/\(SandboxData.username(of: quoted.authorID))/status/\(id)"
    out.append(
      (
        "quoted_status_permalink",
        .object([
          ("url", .string("https://t.co/Q" + String(String(id, radix: 36).suffix(9)))), ("expanded", .string("https://" + address)),
          ("display", .string(String(address.prefix(25)) + "\u{2026}")),
        ])
      ))
    if !embedded { out.append(("quoted_status", v1Tweet(quoted, params: params, embedded: true))) }
    return out
  }

  /// v1.1's `entities` (hashtags, mentions, links but media links, the first media item) and,
  /// for a tweet with media, `extended_entities` (every item), for the first `visible` code
  /// points of the text.
  func v1Entities(_ tweet: SandboxTweet, visible: Int, params: [String: String]) -> (JSON, JSON?) {
    var hashtags: [JSON] = [], mentions: [JSON] = [], urls: [JSON] = []
    var mediaLink: SandboxEntity?
    for entity in SandboxText.entities(of: tweet) where entity.end <= visible {
      let indices = JSON.array([.int(entity.start), .int(entity.end)])
      switch entity.kind {
      case .hashtag(let tag):
        hashtags.append(.object([("text", .string(tag)), ("indices", indices)]))
      case .mention(let user):
        mentions.append(.object(v1UserObject(user) + [("indices", indices)]))
      case .url(let url, let expanded, let display, let mediaKey):
        if mediaKey != nil {
          if mediaLink == nil { mediaLink = entity }
        } else {
          urls.append(
            .object([("url", .string(url)), ("expanded_url", .string(expanded)), ("display_url", .string(display)), ("indices", indices)]))
        }
      }
    }
    var entities: [(String, JSON)] = [
      ("hashtags", .array(hashtags)), ("symbols", .array([])), ("user_mentions", .array(mentions)), ("urls", .array(urls)),
    ]
    guard let link = mediaLink, let first = tweet.media.first else { return (.object(entities), nil) }
    entities.append(("media", .array([v1Media(first, of: tweet, at: link, extended: false, params: params)])))
    let all = tweet.media.map { v1Media($0, of: tweet, at: link, extended: true, params: params) }
    return (.object(entities), .object([("media", .array(all))]))
  }

  /// A v1.1 media entity; in `entities` (not `extended`), even a video is a `photo`, as X's are.
  func v1Media(_ media: SandboxMedia, of tweet: SandboxTweet, at link: SandboxEntity, extended: Bool, params: [String: String]) -> JSON {
    let image = media.url ?? media.previewImageURL ?? ""
    let shortLink = tweet.mediaLink ?? ""
    var out: [(String, JSON)] = [
      ("id", .int(media.id)), ("id_str", .string(String(media.id))), ("indices", .array([.int(link.start), .int(link.end)])),
      ("media_url", .string("http://" + String(image.dropFirst("https://".count)))), ("media_url_https", .string(image)),
      ("url", .string(shortLink)), ("display_url", .string("pic.x.com/" + String(shortLink.dropFirst("https://t.co/".count)))),
      ("expanded_url", .string(media.expandedURL)), ("type", .string(extended ? media.kind.rawValue : "photo")), ("sizes", v1Sizes(media)),
    ]
    if isTruthy(params["include_ext_alt_text"]) { out.append(("ext_alt_text", .optional(media.altText))) }
    if extended && media.kind != .photo {
      let divisor = max(1, greatestCommonDivisor(media.width, media.height))
      var info: [(String, JSON)] = [("aspect_ratio", .array([.int(media.width / divisor), .int(media.height / divisor)]))]
      if let duration = media.durationMS { info.append(("duration_millis", .int(duration))) }
      info.append(("variants", media.variantsJSON(bitRateKey: "bitrate")))
      out.append(("video_info", .object(info)))
    }
    return .object(out)
  }

  /// The sizes X offers of an image: a 150 × 150 crop and fits within 680, 1200 and 2048.
  func v1Sizes(_ media: SandboxMedia) -> JSON {
    func fit(_ limit: Int) -> JSON {
      let scale = min(1.0, Double(limit) / Double(max(1, media.width, media.height)))
      return .object([
        ("w", .int(Int((Double(media.width) * scale).rounded()))), ("h", .int(Int((Double(media.height) * scale).rounded()))),
        ("resize", .string("fit")),
      ])
    }
    return .object([
      ("thumb", .object([("w", .int(150)), ("h", .int(150)), ("resize", .string("crop"))])), ("small", fit(680)), ("medium", fit(1200)),
      ("large", fit(2048)),
    ])
  }

  private func greatestCommonDivisor(_ a: Int, _ b: Int) -> Int {
    b == 0 ? abs(a) : greatestCommonDivisor(b, a % b)
  }
}

// MARK: - v1.1 handlers (lock held)

extension SandboxState {
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

  func v1Show(_ ctx: RouteContext) -> SandboxResponse {
    let id = ctx.captures.first ?? ctx.query["id"] ?? ""
    guard let tweet = tweet(id: id) else { return .v1(404, XBodies.v1Errors(144, "No status found with that ID.")) }
    return .v1(200, v1Tweet(tweet, params: ctx.query))
  }

  func v1Search(_ ctx: RouteContext) -> SandboxResponse {
    let query = ctx.query
    guard let q = query["q"], !q.trimmingCharacters(in: .whitespaces).isEmpty else {
      return .v1(400, XBodies.v1Errors(25, "Query parameters are missing."))
    }
    let (page, more, count) = v1Select(search(q) ?? [], query, defaultCount: 15, maximum: 100)
    let statuses: [JSON] = page.map { tweet in
      guard case .object(let fields) = v1Tweet(tweet, params: query) else { return .null }
      return .object(fields + [("metadata", .object([("iso_language_code", .string(tweet.lang)), ("result_type", .string("recent"))]))])
    }
    let top = page.first?.id ?? query["max_id"].flatMap { UInt64($0) } ?? 0
    let since = query["since_id"].flatMap { UInt64($0) } ?? 0
    let encoded = OAuthPercentEncoding.encode(q)
    var meta: [(String, JSON)] = [("completed_in", .double(0.01)), ("max_id", .int(top)), ("max_id_str", .string(String(top)))]
    if more, let last = page.last { meta.append(("next_results", .string("?max_id=\(last.id - 1)&q=\(encoded)&include_entities=1"))) }
    meta += [
      ("query", .string(q)), ("refresh_url", .string("?since_id=\(top)&q=\(encoded)&include_entities=1")),
      ("count", .int(count)), ("since_id", .int(since)), ("since_id_str", .string(String(since))),
    ]
    return .v1(200, .object([("statuses", .array(statuses)), ("search_metadata", .object(meta))]))
  }

  mutating func v1Update(_ ctx: RouteContext) -> SandboxResponse {
    var params = ctx.query
    if mediaType(ctx.contentType) == "application/x-www-form-urlencoded", let body = ctx.body {
      params.merge(SandboxURL.pairs(String(decoding: body, as: UTF8.self)).firstValues) { _, form in form }
    }
    guard let status = params["status"], !status.isEmpty else {
      return .v1(400, XBodies.v1Errors(170, "Missing required parameter: status."))
    }
    if status.unicodeScalars.count > 280 { return .v1(403, XBodies.v1Errors(186, "Tweet needs to be a bit shorter.")) }
    guard let tweet = post(status, by: ctx.caller.userID ?? SandboxData.mainUserID, now: ctx.now) else {
      return .v1(403, XBodies.v1Errors(187, "Status is a duplicate."))
    }
    return .v1(200, v1Tweet(tweet, params: params))
  }
}
