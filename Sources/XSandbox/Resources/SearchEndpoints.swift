import DateFormats
import Foundation
import OAuth1

/// An operator of X's search syntax that the sandbox knows: `from:`, `to:`,
/// `conversation_id:`, `lang:`, `is:` and `has:`.
struct SearchOperator {
  static let names: Set<String> = ["from", "to", "conversation_id", "lang", "is", "has"]

  /// The operator's name, lowercased.
  let name: String
  let value: String

  /// The operator a search term spells (`from:oauth_fan`), or `nil` for a word.
  init?(_ term: String) {
    guard let colon = term.firstIndex(of: ":") else { return nil }
    let name = term[..<colon].lowercased()
    let value = String(term[term.index(after: colon)...])
    guard Self.names.contains(name), !value.isEmpty else { return nil }
    self.name = name
    self.value = value
  }

  /// What a tweet must be to match; `nil` when `from:` or `to:` names nobody.
  func test() -> (@Sendable (SandboxTweet) -> Bool)? {
    switch name {
    case "from", "to":
      guard let user = SandboxData.user(named: value.hasPrefix("@") ? String(value.dropFirst()) : value) else { return nil }
      let id = user.id
      if name == "from" { return { $0.authorID == id } }
      return { $0.inReplyToUserID == id }
    case "conversation_id":
      // The conversation's replies: the tweet that started it is not one of them.
      guard let root = UInt64(value) else { return { _ in false } }
      return { $0.conversationID == root && $0.id != root }
    case "lang":
      let lang = value.lowercased()
      return { $0.lang == lang }
    case "is":
      let kinds: [String: SandboxReference.Kind] = ["retweet": .retweeted, "reply": .repliedTo, "quote": .quoted]
      guard let kind = kinds[value.lowercased()] else { return { _ in false } }
      return { $0.reference(kind) != nil }
    default:
      return Self.has(value.lowercased())
    }
  }

  /// `has:media`, `has:links`, `has:mentions`, `has:hashtags`.
  private static func has(_ what: String) -> @Sendable (SandboxTweet) -> Bool {
    switch what {
    case "media": return { !$0.media.isEmpty }
    case "links": return { SandboxText.entities(of: $0).contains(where: \.isLink) }
    case "mentions": return { SandboxText.entities(of: $0).contains { $0.mentionedUserID != nil } }
    case "hashtags": return { SandboxText.entities(of: $0).contains(where: \.isHashtag) }
    default: return { _ in false }
    }
  }
}

extension SandboxState {
  /// The tweets a search query selects, newest first: each word (case-insensitive, anywhere in
  /// the text) and each ``SearchOperator``, a leading `-` negating either. `nil` when `from:` or
  /// `to:` names nobody (no tweet can match).
  func search(_ text: String) -> [SandboxTweet]? {
    guard let matches = Self.matcher(text) else { return nil }
    return tweets.filter(matches)
  }

  /// The test a query (a search, or a filtered stream's rule) makes of a tweet: every word and
  /// operator, as ``search(_:)`` applies it; `nil` when `from:` or `to:` names nobody.
  static func matcher(_ text: String) -> (@Sendable (SandboxTweet) -> Bool)? {
    var tests: [@Sendable (SandboxTweet) -> Bool] = []
    for term in text.split(whereSeparator: \.isWhitespace) {
      let negated = term.count > 1 && term.hasPrefix("-")
      let body = String(negated ? term.dropFirst() : term)
      let test: @Sendable (SandboxTweet) -> Bool
      if let condition = SearchOperator(body) {
        guard let made = condition.test() else {
          if negated { continue }  // "-from:nobody" leaves every tweet in
          return nil
        }
        test = made
      } else {
        let word = body.lowercased()
        test = { $0.text.lowercased().contains(word) }
      }
      if negated {
        tests.append { @Sendable tweet in !test(tweet) }
      } else {
        tests.append(test)
      }
    }
    let all = tests
    return { tweet in all.allSatisfy { $0(tweet) } }
  }
}

/// Search: recent search, full-archive search (refused, as to an app without the access level)
/// and counts (`x-api/posts/search`, `counts`), and v1.1's `search/tweets`.
extension SandboxRoute {
  static let search: [SandboxRoute] = [
    SandboxRoute(
      method: "GET", pattern: ["2", "tweets", "search", "recent"], name: "v2_search", limit: 450, allowed: searchParameters,
      scopes: ["tweet.read", "users.read"], billing: .resources(.post)
    ) {
      $0.v2Search($1)
    },
    // Refused before any parameter check or rate-limit count, as X refuses an app without the access level.
    SandboxRoute(
      method: "GET", pattern: ["2", "tweets", "search", "all"], name: "v2_search_all", limit: nil, appOnly: true, billing: .resources(.post)
    ) { $0.v2SearchAll($1) },
    // App-only, or OAuth 2.0 user context (X's specification 2.167 added `OAuth2UserToken` to
    // its `security`); an OAuth 1.0a signature is refused.
    SandboxRoute(
      method: "GET", pattern: ["2", "tweets", "counts", "recent"], name: "v2_counts", limit: 300, allowed: countParameters, oauth1OK: false,
      billing: .request(.countsRecent)
    ) {
      $0.v2Counts($1)
    },
    // Full-archive counts: refused like full-archive search, for the same access level.
    SandboxRoute(
      method: "GET", pattern: ["2", "tweets", "counts", "all"], name: "v2_counts_all", limit: nil, appOnly: true, billing: .request(.countsAll)
    ) { $0.v2SearchAll($1) },
    SandboxRoute(method: "GET", pattern: ["1.1", "search", "tweets.json"], name: "v1_search", limit: 900, billing: .resources(.post)) {
      $0.v1Search($1)
    },
  ]
}

// MARK: - Handlers (lock held)

extension SandboxState {
  func v2Search(_ ctx: RouteContext) -> SandboxResponse {
    do throws(SandboxRefusal) {
      let text = try searchText(ctx.query)
      return v2Timeline(ctx, search(text) ?? [], range: 10...100, defaultCount: 10, tokenNames: ["next_token", "pagination_token"])
    } catch {
      return error.response
    }
  }

  /// `GET /2/tweets/search/all` and `GET /2/tweets/counts/all`: refused, as X refuses them to an
  /// app without the access level.
  func v2SearchAll(_ ctx: RouteContext) -> SandboxResponse {
    .v2(403, XBodies.clientForbidden)
  }

  /// The seconds of each `granularity` of the counts.
  static let granularities: [String: Int64] = ["minute": 60, "hour": 3600, "day": 86_400]

  /// How far back recent search and counts reach.
  static let recentWindow: Int64 = 7 * 86_400

  /// `GET /2/tweets/counts/recent`: how many tweets match the query per minute, hour (the
  /// default) or day, from `start_time` (default: 7 days ago) to `end_time` (default: 30 s ago,
  /// as X's), on the sandbox's clock.
  func v2Counts(_ ctx: RouteContext) -> SandboxResponse {
    do throws(SandboxRefusal) {
      let query = ctx.query
      let text = try searchText(query)
      let granularity = query["granularity"] ?? "hour"
      guard let step = Self.granularities[granularity] else {
        throw SandboxRefusal.invalid(
          "granularity", granularity, "The `granularity` query parameter value [\(granularity)] is not one of [minute,hour,day]")
      }
      let window = try TweetWindow(query)
      let (start, end) = try countsInterval(window, query: query, now: ctx.now)
      let times = (search(text) ?? []).filter(window.containsID).map(\.createdAt).sorted()
      return .v2(200, countBuckets(times, from: start, to: end, step: step))
    } catch {
      return error.response
    }
  }

  /// The counts' interval: within the last 7 days, ending at least 10 s ago, as X requires.
  private func countsInterval(_ window: TweetWindow, query: [String: String], now: Int64) throws(SandboxRefusal) -> (start: Int64, end: Int64) {
    let earliest = now - Self.recentWindow
    if let start = window.start, start < earliest, let raw = query["start_time"] {
      throw SandboxRefusal.invalid(
        "start_time", raw,
        "Invalid 'start_time':'\(raw)'. 'start_time' must be on or after \(RFC3339.millisecondString(from: Date(epochSeconds: earliest)))")
    }
    if let end = window.end, end > now - 10, let raw = query["end_time"] {
      throw SandboxRefusal.invalid(
        "end_time", raw, "Invalid 'end_time':'\(raw)'. 'end_time' must be a minimum of 10 seconds prior to the request time.")
    }
    let end = window.end ?? now - 30
    let start = window.start ?? max(earliest, end - Self.recentWindow)
    guard start < end else {
      let raw = query["start_time"] ?? RFC3339.millisecondString(from: Date(epochSeconds: start))
      throw SandboxRefusal.invalid("start_time", raw, "Invalid 'start_time':'\(raw)'. 'start_time' must be before 'end_time'")
    }
    return (start, end)
  }

  /// `data` (`end`, `start`, `tweet_count` per bucket) and `meta.total_tweet_count` for
  /// `times` (ascending): the first bucket starts at `start`, the others on the granularity's
  /// UTC boundaries, the last ends at `end`, as X's do.
  func countBuckets(_ times: [Int64], from start: Int64, to end: Int64, step: Int64) -> JSON {
    var data: [JSON] = []
    var total = 0
    var position = times.firstIndex(where: { $0 >= start }) ?? times.count
    var left = start
    while left < end {
      let boundary = left - ((left % step) + step) % step + step
      let right = min(boundary, end)
      var count = 0
      while position < times.count, times[position] < right {
        count += 1
        position += 1
      }
      data.append(
        .object([
          ("end", .string(RFC3339.millisecondString(from: Date(epochSeconds: right)))),
          ("start", .string(RFC3339.millisecondString(from: Date(epochSeconds: left)))), ("tweet_count", .int(count)),
        ]))
      total += count
      left = right
    }
    return .object([("data", .array(data)), ("meta", .object([("total_tweet_count", .int(total))]))])
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
}
