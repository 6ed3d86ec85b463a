import Foundation
import OAuth1

/// Which API a path belongs to: it decides the error bodies.
enum SandboxFamily: Sendable { case v2, v1, oauth }

/// Who is calling, once authenticated.
struct SandboxCaller: Sendable {
  enum Kind: Sendable { case oauth1, bearer }
  let kind: Kind
  /// The user of an OAuth 1.0a access token; `nil` for app-only (bearer) calls.
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

/// An endpoint: method, path pattern, rate limit (`nil` for writes, which carry no
/// `x-rate-limit-*` headers), whether app-only auth may call it, the v2 query parameters it
/// accepts, and its handler (called with the store's lock held).
struct SandboxRoute: Sendable {
  let method: String
  /// Segments; `*` matches one, `*.json` one ending in `.json` (captured without it).
  let pattern: [String]
  let name: String
  let limit: Int?
  var bearerOK = true
  var allowed: [String]? = nil
  let handler: @Sendable (SandboxStore, RouteContext) -> SandboxResponse

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
  static let searchParameters =
    ["query", "start_time", "end_time", "since_id", "until_id", "max_results", "next_token", "pagination_token", "sort_order"] + tweetExtra
  static let userParameters = ["expansions", "tweet.fields", "user.fields"]

  static let all: [SandboxRoute] = [
    SandboxRoute(method: "GET", pattern: ["2", "users", "me"], name: "v2_me", limit: 75, bearerOK: false, allowed: userParameters) { $0.v2Me($1) },
    SandboxRoute(method: "GET", pattern: ["2", "users", "by", "username", "*"], name: "v2_user_by_username", limit: 300, allowed: userParameters) {
      $0.v2UserByUsername($1)
    },
    SandboxRoute(method: "GET", pattern: ["2", "users", "*", "tweets"], name: "v2_user_tweets", limit: 1500, allowed: timelineParameters) {
      $0.v2UserTweets($1)
    },
    SandboxRoute(
      method: "GET", pattern: ["2", "users", "*", "timelines", "reverse_chronological"], name: "v2_home", limit: 180, bearerOK: false,
      allowed: timelineParameters
    ) { $0.v2Home($1) },
    SandboxRoute(method: "GET", pattern: ["2", "users", "*"], name: "v2_user", limit: 300, allowed: userParameters) { $0.v2User($1) },
    SandboxRoute(method: "GET", pattern: ["2", "tweets", "search", "recent"], name: "v2_search", limit: 450, allowed: searchParameters) {
      $0.v2Search($1)
    },
    SandboxRoute(method: "GET", pattern: ["2", "tweets"], name: "v2_tweets", limit: 300, allowed: ["ids"] + tweetExtra) { $0.v2Tweets($1) },
    SandboxRoute(method: "GET", pattern: ["2", "tweets", "*"], name: "v2_tweet", limit: 300, allowed: tweetExtra) { $0.v2Tweet($1) },
    SandboxRoute(method: "POST", pattern: ["2", "tweets"], name: "v2_create", limit: nil, bearerOK: false, allowed: []) { $0.v2Create($1) },
    SandboxRoute(method: "DELETE", pattern: ["2", "tweets", "*"], name: "v2_delete", limit: nil, bearerOK: false, allowed: []) { $0.v2Delete($1) },
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

/// `tweet.fields`, `user.fields` and `expansions`.
struct Fields {
  let tweet: Set<String>
  let user: Set<String>
  let expansions: Set<String>

  init(_ query: [String: String]) {
    tweet = Set(splitList(query["tweet.fields"]))
    user = Set(splitList(query["user.fields"]))
    expansions = Set(splitList(query["expansions"]))
  }
}

func splitList(_ value: String?) -> [String] {
  (value ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
}

// MARK: - Rendering (lock held)

extension SandboxStore {
  func v2User(_ user: SandboxUser, fields: Set<String>) -> JSON {
    var out: [(String, JSON)] = [("id", .string(user.id)), ("name", .string(user.name)), ("username", .string(user.username))]
    if fields.contains("created_at") { out.append(("created_at", .string(SandboxDates.iso(user.createdAt)))) }
    if fields.contains("description") { out.append(("description", .string(user.description))) }
    if fields.contains("protected") { out.append(("protected", .bool(false))) }
    if fields.contains("verified") { out.append(("verified", .bool(false))) }
    if fields.contains("public_metrics") {
      out.append(
        (
          "public_metrics",
          .object([
            ("followers_count", .int(user.followers)), ("following_count", .int(user.following)),
            ("tweet_count", .int(tweets(of: user.id).count)), ("listed_count", .int(1)),
          ])
        ))
    }
    return .object(out)
  }

  /// X's limit for the `text` of a post; a longer post (a "long post") is cut to it.
  static let textLimit = 280

  /// A post's `text` as X sends it: a long post cut short with an ellipsis.
  static func cut(_ text: String) -> String {
    text.count <= textLimit ? text : String(text.prefix(textLimit - 1)) + "\u{2026}"
  }

  func v2Tweet(_ tweet: SandboxTweet, fields: Fields) -> JSON {
    var out: [(String, JSON)] = [
      ("id", .string(String(tweet.id))), ("text", .string(Self.cut(tweet.text))), ("edit_history_tweet_ids", .array([.string(String(tweet.id))])),
    ]
    // A long post: the whole text only in `note_tweet`, and only when asked for.
    if fields.tweet.contains("note_tweet") && tweet.text.count > Self.textLimit {
      out.append(("note_tweet", .object([("text", .string(tweet.text))])))
    }
    if fields.tweet.contains("author_id") || fields.expansions.contains("author_id") { out.append(("author_id", .string(tweet.authorID))) }
    if fields.tweet.contains("created_at") { out.append(("created_at", .string(SandboxDates.iso(tweet.createdAt)))) }
    if fields.tweet.contains("public_metrics") {
      out.append(
        (
          "public_metrics",
          .object([
            ("retweet_count", .int(tweet.retweets)), ("reply_count", .int(tweet.replies)),
            ("like_count", .int(tweet.likes)), ("quote_count", .int(tweet.quotes)),
          ])
        ))
    }
    if fields.tweet.contains("conversation_id") { out.append(("conversation_id", .string(String(tweet.id)))) }
    if fields.tweet.contains("lang") { out.append(("lang", .string("en"))) }
    return .object(out)
  }

  /// `data`, `includes.users` (with `expansions=author_id`), `meta`, `errors`.
  func envelope(_ tweets: [SandboxTweet], fields: Fields, meta: JSON? = nil, errors: [JSON] = [], single: Bool = false) -> JSON {
    var out: [(String, JSON)] = []
    if let first = tweets.first {
      out.append(("data", single ? v2Tweet(first, fields: fields) : .array(tweets.map { v2Tweet($0, fields: fields) })))
      if fields.expansions.contains("author_id") {
        var seen: [String] = []
        for tweet in tweets where !seen.contains(tweet.authorID) { seen.append(tweet.authorID) }
        let users = seen.compactMap { SandboxData.usersByID[$0] }.map { v2User($0, fields: fields.user) }
        out.append(("includes", .object([("users", .array(users))])))
      }
    }
    if let meta { out.append(("meta", meta)) }
    if !errors.isEmpty { out.append(("errors", .array(errors))) }
    return .object(out)
  }

  func v1UserObject(_ user: SandboxUser) -> [(String, JSON)] {
    [("id", .number(user.id)), ("id_str", .string(user.id)), ("name", .string(user.name)), ("screen_name", .string(user.username))]
  }

  func v1Tweet(_ tweet: SandboxTweet, params: [String: String]) -> JSON {
    var out: [(String, JSON)] = [
      ("created_at", .string(SandboxDates.v1(tweet.createdAt))), ("id", .int(tweet.id)), ("id_str", .string(String(tweet.id))),
    ]
    let scalars = tweet.text.unicodeScalars
    if params["tweet_mode"]?.lowercased() == "extended" {
      // v1.1 knows no long posts: even its full_text is the cut `text`.
      let full = Self.cut(tweet.text)
      out += [
        ("full_text", .string(full)), ("truncated", .bool(false)), ("display_text_range", .array([.int(0), .int(full.unicodeScalars.count)])),
      ]
    } else if scalars.count > 140 {
      var short = String.UnicodeScalarView()
      short.append(contentsOf: scalars.prefix(139))
      out += [("text", .string(String(short) + "\u{2026}")), ("truncated", .bool(true))]
    } else {
      out += [("text", .string(tweet.text)), ("truncated", .bool(false))]
    }
    out += [
      ("source", .string("<a href=\"https://github.com/xsandbox\" rel=\"nofollow\">XSandbox</a>")),
      ("in_reply_to_status_id", .null), ("in_reply_to_status_id_str", .null), ("in_reply_to_user_id", .null),
      ("in_reply_to_user_id_str", .null), ("in_reply_to_screen_name", .null),
    ]
    let user = SandboxData.usersByID[tweet.authorID]!
    let trim = ["1", "true", "t", "yes"].contains((params["trim_user"] ?? "").lowercased())
    out.append(("user", .object(trim ? [("id", .number(user.id)), ("id_str", .string(user.id))] : v1UserObject(user))))
    out += [
      ("geo", .null), ("coordinates", .null), ("place", .null), ("is_quote_status", .bool(false)),
      ("retweet_count", .int(tweet.retweets)), ("favorite_count", .int(tweet.likes)),
      ("favorited", .bool(false)), ("retweeted", .bool(false)), ("lang", .string("en")),
    ]
    return .object(out)
  }
}

// MARK: - v2 handlers (lock held)

extension SandboxStore {
  static let paginationPrefix = "7140dib"
  static let searchPrefix = "b26v89c"

  func badID(_ value: String, parameter: String = "id") -> SandboxResponse? {
    guard !isID(value) else { return nil }
    return .v2(400, XBodies.invalidRequest(parameter, [value], "The `\(parameter)` query parameter value [\(value)] does not match ^[0-9]{1,19}$"))
  }

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

  func v2Me(_ ctx: RouteContext) -> SandboxResponse {
    let user = SandboxData.usersByID[ctx.caller.userID ?? SandboxData.mainUserID]!
    return .v2(200, .object([("data", v2User(user, fields: Fields(ctx.query).user))]))
  }

  func v2UserByUsername(_ ctx: RouteContext) -> SandboxResponse {
    let name = ctx.captures[0]
    let valid =
      (1...15).contains(name.utf8.count)
      && name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }
    guard valid else {
      return .v2(
        400, XBodies.invalidRequest("username", [name], "The `username` query parameter value [\(name)] does not match ^[A-Za-z0-9_]{1,15}$"))
    }
    guard let user = SandboxData.user(named: name) else { return userNotFound(name, parameter: "username") }
    return .v2(200, .object([("data", v2User(user, fields: Fields(ctx.query).user))]))
  }

  func v2User(_ ctx: RouteContext) -> SandboxResponse {
    let id = ctx.captures[0]
    if let bad = badID(id) { return bad }
    guard let user = SandboxData.usersByID[id] else { return userNotFound(id, parameter: "id") }
    return .v2(200, .object([("data", v2User(user, fields: Fields(ctx.query).user))]))
  }

  func v2UserTweets(_ ctx: RouteContext) -> SandboxResponse {
    let id = ctx.captures[0]
    if let bad = badID(id) { return bad }
    guard SandboxData.usersByID[id] != nil else { return userNotFound(id, parameter: "id") }
    return v2Timeline(ctx, tweets(of: id), range: 5...100, defaultCount: 10, tokenNames: ["pagination_token"])
  }

  func v2Home(_ ctx: RouteContext) -> SandboxResponse {
    guard ctx.captures[0] == ctx.caller.userID else { return .v2(403, XBodies.forbidden) }
    return v2Timeline(ctx, tweets, range: 1...100, defaultCount: 100, tokenNames: ["pagination_token"])
  }

  func v2Tweet(_ ctx: RouteContext) -> SandboxResponse {
    let id = ctx.captures[0]
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
    let raw = ctx.query["ids"]
    let ids = splitList(raw)
    if ids.isEmpty {
      return .v2(400, XBodies.invalidRequest("ids", [raw ?? ""], "The `ids` query parameter can not be empty"))
    }
    if ids.count > 100 {
      return .v2(
        400,
        XBodies.invalidRequest("ids", [raw ?? ""], "The number of values in the `ids` query parameter list [\(ids.count)] is not between 1 and 100"))
    }
    if let bad = ids.first(where: { !isID($0) }) {
      return .v2(400, XBodies.invalidRequest("ids", [raw ?? ""], "The `ids` query parameter value [\(bad)] does not match ^[0-9]{1,19}$"))
    }
    var found: [SandboxTweet] = [], errors: [JSON] = [], seen: Set<String> = []
    for id in ids where seen.insert(id).inserted {
      if let tweet = tweet(id: id) {
        found.append(tweet)
      } else {
        errors.append(XBodies.notFound(id, resourceType: "tweet", parameter: "ids", detail: "Could not find tweet with ids: [\(id)]."))
      }
    }
    return .v2(200, envelope(found, fields: Fields(ctx.query), errors: errors))
  }

  /// The tweets a search query selects: every term (case-insensitive) and `from:user`.
  /// `nil` when `from:` names nobody.
  func search(_ text: String) -> [SandboxTweet]? {
    var terms: [String] = []
    var author: SandboxUser?
    for term in text.split(whereSeparator: \.isWhitespace) {
      if term.lowercased().hasPrefix("from:") {
        var name = term.dropFirst(5)
        if name.hasPrefix("@") { name = name.dropFirst() }
        guard let user = SandboxData.user(named: String(name)) else { return nil }
        author = user
      } else {
        terms.append(term.lowercased())
      }
    }
    return tweets.filter { tweet in
      let text = tweet.text.lowercased()
      return (author == nil || tweet.authorID == author!.id) && terms.allSatisfy { text.contains($0) }
    }
  }

  func v2Search(_ ctx: RouteContext) -> SandboxResponse {
    let text = ctx.query["query"]
    guard let text, !text.trimmingCharacters(in: .whitespaces).isEmpty else {
      return .v2(400, XBodies.invalidRequest("query", [text ?? ""], "The `query` query parameter can not be empty"))
    }
    return v2Timeline(ctx, search(text) ?? [], range: 10...100, defaultCount: 10, tokenNames: ["next_token", "pagination_token"])
  }

  /// A page of `tweets` (newest first) with X's parameter checks and paging tokens.
  func v2Timeline(_ ctx: RouteContext, _ tweets: [SandboxTweet], range: ClosedRange<Int>, defaultCount: Int, tokenNames: [String]) -> SandboxResponse
  {
    let query = ctx.query
    var count = defaultCount
    if let raw = query["max_results"] {
      guard let value = Int(raw), range.contains(value) else {
        return .v2(
          400,
          XBodies.invalidRequest(
            "max_results", [raw], "The `max_results` query parameter value [\(raw)] is not between \(range.lowerBound) and \(range.upperBound)"))
      }
      count = value
    }
    for name in ["since_id", "until_id"] {
      if let value = query[name], let bad = badID(value, parameter: name) { return bad }
    }
    for name in ["start_time", "end_time"] {
      if let value = query[name], SandboxDates.parseISO(value) == nil {
        return .v2(400, XBodies.invalidRequest(name, [value], "Invalid '\(name)':'\(value)'. '\(name)' must be a valid RFC 3339 date-time"))
      }
    }
    let prefix = tokenNames[0] == "pagination_token" ? Self.paginationPrefix : Self.searchPrefix
    var after: UInt64?
    for name in tokenNames {
      guard let token = query[name] else { continue }
      guard token.hasPrefix(prefix), let value = UInt64(token.dropFirst(prefix.count).lowercased(), radix: 36) else {
        return .v2(400, XBodies.invalidRequest(name, [token], "The `\(name)` query parameter value [\(token)] is not valid"))
      }
      after = value
    }
    let since = query["since_id"].flatMap { UInt64($0) }
    let until = query["until_id"].flatMap { UInt64($0) }
    let start = query["start_time"].flatMap(SandboxDates.parseISO)
    let end = query["end_time"].flatMap(SandboxDates.parseISO)
    let selected = tweets.filter { tweet in
      if let since, tweet.id <= since { return false }
      if let until, tweet.id >= until { return false }
      if let after, tweet.id >= after { return false }
      if let start, tweet.createdAt < start { return false }
      if let end, tweet.createdAt >= end { return false }
      return true
    }
    let page = Array(selected.prefix(count))
    guard let newest = page.first, let oldest = page.last else {
      return .v2(200, .object([("meta", .object([("result_count", .int(0))]))]))
    }
    var meta: [(String, JSON)] = [
      ("result_count", .int(page.count)), ("newest_id", .string(String(newest.id))), ("oldest_id", .string(String(oldest.id))),
    ]
    if selected.count > count { meta.append(("next_token", .string(prefix + String(oldest.id, radix: 36)))) }
    return .v2(200, envelope(page, fields: Fields(query), meta: .object(meta)))
  }

  func v2Create(_ ctx: RouteContext) -> SandboxResponse {
    guard mediaType(ctx.contentType) == "application/json" else { return .v2(400, XBodies.jsonRequired) }
    guard let body = ctx.body, let object = try? JSONSerialization.jsonObject(with: body) else {
      return .v2(400, XBodies.invalidBody("Request body is not valid JSON."))
    }
    guard let text = (object as? [String: Any])?["text"] as? String, !text.isEmpty else {
      return .v2(400, XBodies.invalidBody("$.text: is missing but it is required"))
    }
    if text.unicodeScalars.count > 280 { return .v2(403, XBodies.tooLong) }
    guard let tweet = post(text, by: ctx.caller.userID ?? SandboxData.mainUserID, now: ctx.now) else {
      return .v2(403, XBodies.duplicate)
    }
    return .v2(
      201,
      .object([
        (
          "data",
          .object([
            ("id", .string(String(tweet.id))), ("text", .string(tweet.text)), ("edit_history_tweet_ids", .array([.string(String(tweet.id))])),
          ])
        )
      ]))
  }

  func v2Delete(_ ctx: RouteContext) -> SandboxResponse {
    guard let tweet = tweet(id: ctx.captures[0]), tweet.authorID == ctx.caller.userID else { return .v2(403, XBodies.forbidden) }
    tweets.removeAll { $0.id == tweet.id }
    return .v2(200, .object([("data", .object([("deleted", .bool(true))]))]))
  }
}

// MARK: - v1.1 handlers (lock held)

extension SandboxStore {
  /// `count`, `since_id` and `max_id` (inclusive) applied to `tweets`.
  func v1Select(_ tweets: [SandboxTweet], _ query: [String: String], defaultCount: Int, maximum: Int) -> (
    page: [SandboxTweet], more: Bool, count: Int
  ) {
    let count = query["count"].flatMap { Int($0) }.map { max(1, min(maximum, $0)) } ?? defaultCount
    let since = query["since_id"].flatMap { UInt64($0) }
    let maxID = query["max_id"].flatMap { UInt64($0) }
    let selected = tweets.filter { (since == nil || $0.id > since!) && (maxID == nil || $0.id <= maxID!) }
    return (Array(selected.prefix(count)), selected.count > count, count)
  }

  func v1Verify(_ ctx: RouteContext) -> SandboxResponse {
    let user = SandboxData.usersByID[ctx.caller.userID ?? SandboxData.mainUserID]!
    return .v1(
      200,
      .object(
        v1UserObject(user) + [
          ("followers_count", .int(user.followers)), ("friends_count", .int(user.following)),
          ("statuses_count", .int(tweets(of: user.id).count)), ("created_at", .string(SandboxDates.v1(user.createdAt))),
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
      return .object(fields + [("metadata", .object([("iso_language_code", .string("en")), ("result_type", .string("recent"))]))])
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

  func v1Update(_ ctx: RouteContext) -> SandboxResponse {
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
