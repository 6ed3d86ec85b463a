import DateFormats
import Foundation

// The v2 parameters shared by several routes, checked as X checks them: each check throws X's
// 400 (or not-found answer) as a ``SandboxRefusal``.

/// `max_results` within `range`, `defaultCount` without it.
func pageSize(_ query: [String: String], range: ClosedRange<Int>, defaultCount: Int) throws(SandboxRefusal) -> Int {
  guard let raw = query["max_results"] else { return defaultCount }
  guard let value = Int(raw), range.contains(value) else {
    throw SandboxRefusal.invalid(
      "max_results", raw, "The `max_results` query parameter value [\(raw)] is not between \(range.lowerBound) and \(range.upperBound)")
  }
  return value
}

/// X's 400 for a paging token it did not issue.
func badToken(_ name: String, _ token: String) -> SandboxRefusal {
  .invalid(name, token, "The `\(name)` query parameter value [\(token)] is not valid")
}

/// The `query` of a search or a count, which may not be blank.
func searchText(_ query: [String: String]) throws(SandboxRefusal) -> String {
  guard let text = query["query"], !text.trimmingCharacters(in: .whitespaces).isEmpty else {
    throw SandboxRefusal.invalid("query", query["query"] ?? "", "The `query` query parameter can not be empty")
  }
  return text
}

/// The values of a lookup's list (`ids`, `usernames`): 1 to 100, each matching `pattern` (as
/// `isValid` checks it), repeats (in any case) dropped.
func lookupValues(_ query: [String: String], parameter: String, pattern: String, isValid: (String) -> Bool) throws(SandboxRefusal) -> [String] {
  let raw = query[parameter] ?? ""
  let values = splitList(raw)
  if values.isEmpty { throw SandboxRefusal.invalid(parameter, raw, "The `\(parameter)` query parameter can not be empty") }
  if values.count > 100 {
    throw SandboxRefusal.invalid(
      parameter, raw, "The number of values in the `\(parameter)` query parameter list [\(values.count)] is not between 1 and 100")
  }
  if let bad = values.first(where: { !isValid($0) }) {
    throw SandboxRefusal.invalid(parameter, raw, "The `\(parameter)` query parameter value [\(bad)] does not match \(pattern)")
  }
  var seen: Set<String> = []
  return values.filter { seen.insert($0.lowercased()).inserted }
}

/// `tweets` without the kinds `exclude` names (`replies`, `retweets`).
func excluding(_ query: [String: String], _ tweets: [SandboxTweet]) throws(SandboxRefusal) -> [SandboxTweet] {
  guard let raw = query["exclude"] else { return tweets }
  var dropped: Set<SandboxReference.Kind> = []
  for kind in splitList(raw) {
    switch kind {
    case "replies": dropped.insert(.repliedTo)
    case "retweets": dropped.insert(.retweeted)
    default: throw SandboxRefusal.invalid("exclude", raw, "The `exclude` query parameter value [\(kind)] is not one of [replies,retweets]")
    }
  }
  return tweets.filter { tweet in !tweet.references.contains { dropped.contains($0.kind) } }
}

/// `since_id`, `until_id` (exclusive) and `start_time` (inclusive), `end_time` (exclusive).
struct TweetWindow {
  var since: UInt64?
  var until: UInt64?
  var start: Int64?
  var end: Int64?

  init(_ query: [String: String]) throws(SandboxRefusal) {
    for name in ["since_id", "until_id"] {
      if let value = query[name], let bad = badID(value, parameter: name) { throw SandboxRefusal(bad) }
    }
    for name in ["start_time", "end_time"] {
      if let value = query[name], Self.utcSeconds(value) == nil {
        throw SandboxRefusal.invalid(name, value, "Invalid '\(name)':'\(value)'. '\(name)' must be a valid RFC 3339 date-time")
      }
    }
    since = query["since_id"].flatMap { UInt64($0) }
    until = query["until_id"].flatMap { UInt64($0) }
    start = query["start_time"].flatMap(Self.utcSeconds)
    end = query["end_time"].flatMap(Self.utcSeconds)
  }

  /// Seconds since 1970 of an RFC 3339 time in UTC (`Z`, `+00:00` or `+0000`), fractional
  /// seconds dropped; `nil` for another zone or form, which X refuses here too.
  static func utcSeconds(_ text: String) -> Int64? {
    guard ["Z", "+00:00", "-00:00", "+0000", "-0000"].contains(where: text.hasSuffix) else { return nil }
    return RFC3339.date(from: text)?.epochSeconds
  }

  /// Within both the ids and the times.
  func contains(_ tweet: SandboxTweet) -> Bool {
    containsID(tweet) && (start.map { tweet.createdAt >= $0 } ?? true) && (end.map { tweet.createdAt < $0 } ?? true)
  }

  /// Within the ids.
  func containsID(_ tweet: SandboxTweet) -> Bool {
    (since.map { tweet.id > $0 } ?? true) && (until.map { tweet.id < $0 } ?? true)
  }
}

/// The `pagination_token`s of pages by position: liked, quote and list tweets (`7140dibo` and
/// the offset in base 36), followers and following (16 base-32 characters, as X's look).
enum PositionToken {
  case tweets, users

  static let tweetsPrefix = "7140dibo"
  private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
  private static let mask: UInt64 = 0x5F37_59DF_2A1B_3C4D
  /// The largest offset a token may carry, far beyond any list of the sandbox.
  private static let largest = 10_000_000

  /// The token of the page that starts at `offset`.
  func encode(_ offset: Int) -> String {
    switch self {
    case .tweets:
      return Self.tweetsPrefix + String(offset, radix: 36)
    case .users:
      // 64 bits in 13 characters of 5 bits (the last one has 4 and a zero), then padding.
      let value = UInt64(max(0, offset)) ^ Self.mask
      var out = ""
      for group in 0..<13 {
        let digit = group < 12 ? (value >> UInt64(59 - 5 * group)) & 31 : (value << 1) & 31
        out.append(Self.alphabet[Int(digit)])
      }
      return out + "ZZZ"
    }
  }

  /// The offset of a token this sandbox issued, or `nil`.
  func decode(_ token: String) -> Int? {
    switch self {
    case .tweets:
      guard token.hasPrefix(Self.tweetsPrefix), let offset = Int(token.dropFirst(Self.tweetsPrefix.count), radix: 36),
        offset > 0, offset <= Self.largest
      else { return nil }
      return offset
    case .users:
      let characters = Array(token)
      guard characters.count == 16, token.hasSuffix("ZZZ") else { return nil }
      var value: UInt64 = 0
      for (group, character) in characters.prefix(13).enumerated() {
        guard let digit = Self.alphabet.firstIndex(of: character) else { return nil }
        value = group < 12 ? value << 5 | UInt64(digit) : value << 4 | UInt64(digit >> 1)
      }
      let offset = value ^ Self.mask
      return offset <= UInt64(Self.largest) ? Int(offset) : nil
    }
  }
}

/// Where a page by position starts (`pagination_token`) and how many it holds (`max_results`).
func positionPage(_ query: [String: String], range: ClosedRange<Int>, defaultCount: Int, token kind: PositionToken) throws(SandboxRefusal) -> (
  offset: Int, count: Int
) {
  let count = try pageSize(query, range: range, defaultCount: defaultCount)
  guard let token = query["pagination_token"] else { return (0, count) }
  guard let offset = kind.decode(token) else { throw badToken("pagination_token", token) }
  return (offset, count)
}

// MARK: - Handlers (lock held)

extension SandboxState {
  /// The account a path's `:id` names: X's 400 for no id, a 200 with a not-found error for an
  /// unknown one.
  func pathUser(_ ctx: RouteContext) throws(SandboxRefusal) -> SandboxUser {
    let id = ctx.captures.first ?? ""
    if let bad = badID(id) { throw SandboxRefusal(bad) }
    guard let user = SandboxData.usersByID[id] else { throw SandboxRefusal(userNotFound(id, parameter: "id")) }
    return user
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

  /// `GET /2/users/:id/liked_tweets`.
  func v2LikedTweets(_ ctx: RouteContext) -> SandboxResponse {
    do throws(SandboxRefusal) {
      let user = try pathUser(ctx)
      return tweetsByPosition(ctx, likedTweets(of: user.id), range: 10...100, defaultCount: 100)
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

  /// `GET /2/lists/:id/tweets`: the tweets of the list's members; a 404 for any other list.
  func v2ListTweets(_ ctx: RouteContext) -> SandboxResponse {
    let id = ctx.captures.first ?? ""
    if let bad = badID(id) { return bad }
    guard id == SandboxData.listID else { return .v2(404, XBodies.missingResource(id, resourceType: "list")) }
    return tweetsByPosition(ctx, tweets.filter { SandboxData.listMembers.contains($0.authorID) }, range: 1...100, defaultCount: 100)
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
      let accounts = list(user.id).compactMap { SandboxData.usersByID[$0] }
      let (offset, count) = try positionPage(ctx.query, range: 1...1000, defaultCount: 100, token: .users)
      let page = Array(accounts.dropFirst(offset).prefix(count))
      guard !page.isEmpty else { return .v2(200, Self.emptyPage) }
      var meta: [(String, JSON)] = [("result_count", .int(page.count))]
      if offset + count < accounts.count { meta.append(("next_token", .string(PositionToken.users.encode(offset + count)))) }
      if offset > 0 { meta.append(("previous_token", .string(PositionToken.users.encode(max(0, offset - count))))) }
      return .v2(200, usersEnvelope(page, fields: Fields(ctx.query), meta: .object(meta)))
    } catch {
      return error.response
    }
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

  /// Each value's record, in the request's order, and X's not-found problem for each value
  /// that names none (`Could not find tweet with ids: [20].`).
  func lookup<Record>(
    _ values: [String], resourceType: String, parameter: String, find: (String) -> Record?
  ) -> (found: [Record], errors: [JSON]) {
    var found: [Record] = [], errors: [JSON] = []
    for value in values {
      if let record = find(value) {
        found.append(record)
      } else {
        errors.append(
          XBodies.notFound(
            value, resourceType: resourceType, parameter: parameter, detail: "Could not find \(resourceType) with \(parameter): [\(value)]."))
      }
    }
    return (found, errors)
  }

  /// `GET /2/tweets/search/all`: refused, as X refuses it to an app without the access level.
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
}
