internal import CryptoPrimitives
import Foundation
import NetworkClient
import OAuth1

/// A request token waiting for its PIN.
struct PendingRequestToken: Sendable {
  let secret: String
  let verifier: String
  let callback: String
}

/// A rate-limit window of one endpoint for one caller.
struct RateCounter: Sendable {
  var limit: Int
  var remaining: Int
  var reset: Int64
  /// The control API's overrides already applied to this window (by id).
  var applied: Set<Int> = []
}

/// Everything the sandbox remembers: tweets, tokens, counters, statistics, what tests steer.
/// A value: ``XSandbox`` keeps it in a `Locked`, and the routes read and change it inside its
/// `withLock` (nothing awaits there).
struct SandboxState: Sendable {
  /// Newest first.
  var tweets: [SandboxTweet]
  /// The highest post id issued so far: X never gives a deleted post's id to another, so a new
  /// post takes the next one after this, not after the highest still there.
  var lastPostID: UInt64 = 0
  /// The first versions of edited tweets: found by id, in no timeline.
  var earlierVersions: [SandboxTweet]
  var requestTokens: [String: PendingRequestToken] = [:]
  /// Access tokens issued by this instance (the demo token too); issued tokens are also
  /// recognized without this table, see ``SandboxTokens``.
  var accessTokens: [String: (secret: String, userID: String)] = [:]
  var counters: [String: RateCounter] = [:]
  var verified = 0
  var rejected = 0
  var rejections: [String: Int] = [:]
  /// What tests steer: scripted faults, clock skew, revocations, the request log.
  var control = SandboxControlState()
  /// The OAuth 2.0 side: codes, tokens, spent refresh tokens.
  var oauth2 = SandboxOAuth2State()
  /// Media uploads.
  var media = SandboxMediaState()
  /// The filtered stream: rules, connections, faults.
  var stream = SandboxStreamState()
  /// Each user's bookmarks and bookmark folders.
  var bookmarks = SandboxBookmarkState()
  /// The accounts each user blocks and mutes.
  var moderation = SandboxModerationState()
  /// Lists: their members and followers, and each user's pinned lists.
  var lists = SandboxListsState()
  /// Direct messages: conversations and their events.
  var directMessages = SandboxDMState()
  /// Batch compliance: events, jobs, transfers.
  var compliance = SandboxComplianceState()
  /// The X Activity API's subscriptions.
  var activity = SandboxActivityState()
  /// The app's webhooks (`/2/webhooks`).
  var webhooks = SandboxWebhookState()
  /// The activity stream's connections (`GET /2/activity/stream`), kept as the filtered
  /// stream's are: one at a time, a log, faults.
  var activityStream = SandboxStreamState()
  /// X's pay-per-use billing: off (free) unless given credits or a post cap.
  var billing = SandboxBilling(credits: nil, postCap: nil)
  /// When the billing cycle began (the sandbox's start, on its clock): its day of the month is
  /// the usage endpoint's `cap_reset_day`.
  var cycleStart: Int64 = 0
  /// Where media URLs point once the other origin is served (`http://127.0.0.1:PORT`): X's
  /// `https://pbs.twimg.com/media/A.jpg` is rendered `http://127.0.0.1:PORT/pbs.twimg.com/media/A.jpg`;
  /// `nil` in process, where X's own URLs are rendered.
  var mediaOrigin: String?

  init(tweets: [SandboxTweet], demoToken: Credentials) {
    // Newest first is highest id first: the lookups' binary search relies on it.
    self.tweets = tweets.sorted { $0.id > $1.id }
    earlierVersions = SandboxData.earlierVersions(of: tweets).sorted { $0.id > $1.id }
    accessTokens[demoToken.key] = (demoToken.secret, SandboxData.mainUserID)
    bookmarks = SandboxBookmarkState.seeded(tweets: self.tweets)
  }

  mutating func reject(_ reason: String) {
    rejected += 1
    rejections[reason, default: 0] += 1
  }

  /// The secret and owner of an access token, or `nil`.
  func accessToken(_ token: String) -> (secret: String, userID: String)? {
    if let entry = accessTokens[token] { return entry }
    return SandboxTokens.issued(token)
  }

  /// A tweet, or an earlier version of an edited one, by id as sent; `nil` for no id.
  func tweet(id: String) -> SandboxTweet? {
    guard isID(id), let value = UInt64(id) else { return nil }
    return tweet(withID: value)
  }

  /// A tweet, or an earlier version of an edited one.
  func tweet(withID id: UInt64) -> SandboxTweet? {
    found(id, in: tweets) ?? found(id, in: earlierVersions)
  }

  /// A binary search of `list`, whose ids descend (newest first: ``init(tweets:demoToken:)``
  /// sorts them so, ``post(_:by:now:replyingTo:quoting:)`` puts a higher id on top and a delete
  /// keeps the order), so that a lookup of 100 ids among 300,000 tweets stays fast.
  private func found(_ id: UInt64, in list: [SandboxTweet]) -> SandboxTweet? {
    var low = 0, high = list.count
    while low < high {
      let middle = (low + high) / 2
      if list[middle].id == id { return list[middle] }
      if list[middle].id > id { low = middle + 1 } else { high = middle }
    }
    return nil
  }

  func tweets(of userID: String) -> [SandboxTweet] {
    tweets.filter { $0.authorID == userID }
  }

  /// Other accounts' tweets that mention `userID` (retweets of its tweets too), newest first.
  func mentions(of userID: String) -> [SandboxTweet] {
    tweets.filter { tweet in
      tweet.authorID != userID && SandboxText.entities(of: tweet).contains { $0.mentionedUserID == userID }
    }
  }

  /// The tweets `userID` liked, the most recent like first (here: the newest tweet).
  func likedTweets(of userID: String) -> [SandboxTweet] {
    tweets.filter { SandboxData.liked(by: userID, $0) }
  }

  /// Adds a tweet at the top, replying to `parentID` or quoting `quotedID` (which must exist:
  /// ``SandboxStore/tweet(withID:)``), or returns `nil` for a duplicate of one of the author's.
  mutating func post(_ text: String, by userID: String, now: Int64, replyingTo parentID: UInt64? = nil, quoting quotedID: UInt64? = nil)
    -> SandboxTweet?
  {
    guard !tweets.contains(where: { $0.authorID == userID && $0.text == text }) else { return nil }
    let top = max(lastPostID, tweets.map(\.id).max() ?? SandboxData.firstID, earlierVersions.map(\.id).max() ?? 0)
    lastPostID = top + 1000
    var tweet = SandboxTweet(id: lastPostID, text: text, authorID: userID, createdAt: now)
    if let parentID, let index = tweets.firstIndex(where: { $0.id == parentID }) {
      tweet.references.append(SandboxReference(kind: .repliedTo, id: parentID))
      tweet.inReplyToUserID = tweets[index].authorID
      tweet.conversationRoot = tweets[index].conversationID
      tweets[index].replies += 1
    }
    if let quotedID, let index = tweets.firstIndex(where: { $0.id == quotedID }) {
      tweet.references.append(SandboxReference(kind: .quoted, id: quotedID))
      tweets[index].quotes += 1
    }
    tweets.insert(tweet, at: 0)
    return tweet
  }

  /// Counts a request to `path` against `endpoint`'s window for `identity`: whether it is
  /// allowed, and the `x-rate-limit-*` headers to send either way.
  mutating func takeRateLimit(_ endpoint: String, limit: Int, identity: String, path: String, now: Int64) -> (
    allowed: Bool, headers: [(String, String)]
  ) {
    let key = endpoint + " " + identity
    var counter = counters[key] ?? RateCounter(limit: limit, remaining: limit, reset: now + rateWindow)
    if now >= counter.reset {
      counter = RateCounter(limit: limit, remaining: limit, reset: now + rateWindow, applied: counter.applied)
    }
    for override in control.overrides where !counter.applied.contains(override.id) && path.hasPrefix(override.pathPrefix) {
      counter.applied.insert(override.id)
      counter.remaining = override.remaining
      if let resetIn = override.resetIn { counter.reset = now + resetIn }
    }
    let allowed = counter.remaining > 0
    if allowed { counter.remaining -= 1 }
    counters[key] = counter
    return (
      allowed,
      [
        ("x-rate-limit-limit", String(counter.limit)), ("x-rate-limit-remaining", String(counter.remaining)),
        ("x-rate-limit-reset", String(counter.reset)),
      ]
    )
  }

  /// The rate-limit window, in seconds: X's 15 minutes, or shorter (`tweets sandbox serve
  /// --rate-window`) so that a test can run thousands of lookups with X's per-window limits.
  var rateWindow: Int64 = 900
}

/// Access tokens the PIN flow issues: `1001-<random><tag>`, whose tag and secret are keyed
/// hashes of the rest. Any sandbox recognizes them without a table, so a token obtained with
/// `tweets --sandbox login` still works in the next `tweets --sandbox` process, while a made-up
/// token is unknown (code 89).
enum SandboxTokens {
  private static let issuerKey = "xsandbox-token-issuer-v1"
  private static let randomLength = 22
  private static let tagLength = 8

  static func issue(for userID: String) -> Credentials {
    let body = userID + "-" + randomString(length: randomLength)
    let key = body + tag(body)
    return Credentials(key: key, secret: secret(key))
  }

  /// The secret and owner of an issued token, or `nil` if `token` is not one.
  static func issued(_ token: String) -> (secret: String, userID: String)? {
    guard let dash = token.firstIndex(of: "-") else { return nil }
    let userID = String(token[..<dash])
    let rest = token[token.index(after: dash)...]
    guard SandboxData.usersByID[userID] != nil, rest.count == randomLength + tagLength else { return nil }
    let expected = tag(String(token.dropLast(tagLength)))
    guard expected.count == tagLength, token.hasSuffix(expected) else { return nil }
    return (secret(token), userID)
  }

  /// `body` with a keyed tag after it: a token any sandbox recognizes (``verified(_:)``).
  static func signed(_ body: String) -> String {
    body + "." + tag(body)
  }

  /// The body of a token ``signed(_:)`` made, or `nil` for a made-up one.
  static func verified(_ token: String) -> String? {
    guard let dot = token.lastIndex(of: ".") else { return nil }
    let body = String(token[..<dot])
    return token[token.index(after: dot)...] == tag(body) ? body : nil
  }

  static func randomString(length: Int, alphabet: String = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789") -> String {
    let characters = Array(alphabet)
    var generator = SystemRandomNumberGenerator()
    return String((0..<length).map { _ in characters.randomElement(using: &generator)! })
  }

  private static func mac(_ message: String) -> [UInt8] {
    HMACKey(.sha256, key: Array(issuerKey.utf8)).mac(of: Array(message.utf8))
  }

  private static func tag(_ body: String) -> String {
    String(mac("tag:" + body).map { String($0 & 0x0F, radix: 16) }.joined().prefix(tagLength))
  }

  private static func secret(_ token: String) -> String {
    String(OAuthBase64.encode(mac("secret:" + token) + mac("secret2:" + token)).filter { $0.isLetter || $0.isNumber }.prefix(45))
  }
}
