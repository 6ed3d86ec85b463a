import DateFormats

/// The sandbox's fixed cast and its generated tweets.
enum SandboxData {
  /// The account every access token of the sandbox belongs to.
  static let mainUserID = "1001"
  /// The newest generated tweet's id; older ones count down by 1000, like the Python fake's,
  /// so the ids are the same in every run (a later `--sandbox` process finds them again).
  static let firstID: UInt64 = 1_800_000_000_000_000_000

  /// The three accounts that tweet.
  static let users: [SandboxUser] = [
    SandboxUser(
      id: "1001", username: "sandbox_user", name: "Sandbox User",
      createdAt: utc("2019-03-04T05:06:07Z"),
      followers: 230, following: 7, description: "The account the sandbox signs you in as. Nothing here leaves your computer.",
      location: "Localhost"),
    SandboxUser(
      id: "1002", username: "swift_lang", name: "Swift Language",
      createdAt: utc("2014-06-02T17:00:00Z"),
      followers: 1234, following: 56, description: "Tips, releases and the occasional pun, in the sandbox."),
    SandboxUser(
      id: "1003", username: "oauth_fan", name: "OAuth Fan",
      createdAt: utc("2010-04-30T12:00:00Z"),
      followers: 99, following: 100, description: "RFC 5849 enthusiast. Signs every request twice, just to be sure."),
  ]

  /// Every account: the cast and the fans.
  static let usersByID: [String: SandboxUser] = Dictionary(uniqueKeysWithValues: (users + fans).map { ($0.id, $0) })

  private static let usersByUsername: [String: SandboxUser] = Dictionary(
    uniqueKeysWithValues: (users + fans).map { ($0.username.lowercased(), $0) })

  /// An account by username, in any case.
  static func user(named name: String) -> SandboxUser? {
    usersByUsername[name.lowercased()]
  }

  /// The username of an account id, or the id for an unknown one.
  static func username(of userID: String) -> String {
    usersByID[userID]?.username ?? userID
  }

  /// `perUser` tweets for each account, newest first, interleaved as the Python fake does
  /// (1001, 1002, 1001, 1003, ...), a minute apart, the newest at `newest`, with the fixtures'
  /// replies, quotes, retweets, links, media and edits (those whose tweets exist).
  static func tweets(perUser: Int, newest: Int64) -> [SandboxTweet] {
    var builder = FixtureBuilder(generated(perUser: perUser, newest: newest))
    return builder.build()
  }

  /// The plain generated tweets, before the fixtures.
  static func generated(perUser: Int, newest: Int64) -> [SandboxTweet] {
    let pattern = ["1001", "1002", "1001", "1003"]
    var remaining = Dictionary(uniqueKeysWithValues: users.map { ($0.id, max(0, perUser)) })
    var produced = Dictionary(uniqueKeysWithValues: users.map { ($0.id, 0) })
    var tweets: [SandboxTweet] = []
    tweets.reserveCapacity(max(0, perUser) * users.count)
    var slot = 0
    while remaining.values.contains(where: { $0 > 0 }) {
      let author = pattern[slot % pattern.count]
      slot += 1
      guard remaining[author, default: 0] > 0 else { continue }
      remaining[author, default: 0] -= 1
      produced[author, default: 0] += 1
      let i = tweets.count
      let number = produced[author, default: 0]
      tweets.append(
        SandboxTweet(
          id: firstID - 1000 * UInt64(i), text: text(author: author, number: number),
          authorID: author, createdAt: newest - 60 * Int64(i),
          retweets: (i * 7) % 13, replies: (i * 3) % 5, likes: (i * 11) % 50, quotes: i % 3, number: number))
    }
    return tweets
  }

  /// A friendly text, different for every author and number (X refuses duplicates), with
  /// accents, CJK, emoji, `&`, `+` and `<` so that encoding mistakes show.
  static func text(author: String, number n: Int) -> String {
    let templates: [String]
    switch author {
    case "1001":
      templates = [
        "Good morning from the sandbox ☀️ Coffee #\(n) is brewing.",
        "Note to self #\(n): sign the URL you send, not the one you meant.",
        "Fish & chips + mushy peas, lunch #\(n) 🐟",
        "Trying tweets --sandbox, run \(n): no network, no keys, no worries.",
        "Café au lait, crème brûlée, été — tasting note \(n)",
        "Thread \(n)/∞: the sandbox answers every request in-process, checks each OAuth 1.0a signature with the same verifier a real server would use, and pages timelines like X does. "
          + "It also keeps long posts as X does: past 280 characters, `text` is cut short with an ellipsis and the whole post comes only in `note_tweet`, when `tweet.fields` asks for it. 🧵",
      ]
    case "1002":
      templates = [
        "Swift tip #\(n): prefer `let` over `var` when a value never changes.",
        "Strict concurrency, check \(n): Sendable + actors = fewer data races 💙",
        "Swift on Linux & macOS, build \(n) is green ✅",
        "Release notes \(n): typed throws make error handling precise.",
        "日本語のツイート \(n): Swift は楽しい 🐦",
        "Proposal review \(n): a small change to the standard library that makes async sequences easier to consume, with a migration guide and plenty of examples <3",
      ]
    default:
      templates = [
        "RFC 5849 fact #\(n): the signature base string sorts parameters by name, then value.",
        "Percent-encode everything outside A-Z a-z 0-9 - . _ ~ (reminder \(n)) 🔐",
        "HMAC-SHA1 & a fresh nonce: a timeless pair, vol. \(n)",
        "Timestamp check \(n): keep your clock in sync or get code 135 ⏰",
        "1 + 1 = 2, and %2B is how a + travels in a query, lesson \(n)",
        "Long read \(n): why OAuth 1.0a signs the query and the form parameters but never a JSON body, and why a space in a signed value must be %20 and never a plus sign.",
      ]
    }
    return templates[(n - 1) % templates.count]
  }

  /// X's limit for a retweet's `text`: `RT @user: ` and the original, cut with an ellipsis.
  static let retweetLimit = 140

  /// A retweet's `text`, as X writes it: `RT @user: ` and the original's text, cut to 140 code
  /// points with an ellipsis.
  static func retweetText(of original: SandboxTweet) -> String {
    let text = "RT @\(username(of: original.authorID)): \(original.text)"
    let scalars = text.unicodeScalars
    guard scalars.count > retweetLimit else { return text }
    var short = String.UnicodeScalarView()
    short.append(contentsOf: scalars.prefix(retweetLimit - 1))
    return String(short) + "\u{2026}"
  }

  /// The first versions of the edited tweets among `tweets`, posted 30 s before the edit:
  /// found by id (with the same edit history), in no timeline.
  static func earlierVersions(of tweets: [SandboxTweet]) -> [SandboxTweet] {
    tweets.compactMap { tweet in
      guard tweet.editHistory.count > 1, let first = tweet.editHistory.first, first != tweet.id,
        let text = edits[FixtureKey(tweet.authorID, tweet.number)]
      else { return nil }
      return SandboxTweet(
        id: first, text: text, authorID: tweet.authorID, createdAt: tweet.createdAt - 30, retweets: tweet.retweets,
        replies: tweet.replies, likes: tweet.likes, quotes: tweet.quotes, number: tweet.number, editHistory: tweet.editHistory)
    }
  }
}

// MARK: - Followers, likes, the list

extension SandboxData {
  /// How many fans there are: enough for the largest follower list (@swift_lang's).
  static let fanCount = 1300

  /// Accounts that only follow and are followed: `fan_0001` (id 2000001) ... `fan_1300`
  /// (2001300). Every third has a location, every seventh a description, every 97th is protected.
  static let fans: [SandboxUser] = (1...fanCount).map(fan)

  private static let fanPlaces = ["Paris, France", "東京", "Berlin", "São Paulo", "Lagos"]

  /// 2024-05-01T12:00:00Z, from which the fans' sign-up dates count back.
  private static let fanEpoch = utc("2024-05-01T12:00:00Z")

  private static func fanID(_ number: Int) -> String { String(2_000_000 + number) }

  /// Seconds since 1970 of a fixed date of the cast.
  private static func utc(_ text: String) -> Int64 {
    guard let date = RFC3339.date(from: text) else { preconditionFailure("not an RFC 3339 time: \(text)") }
    return date.epochSeconds
  }

  /// The fan's number (1 for `fan_0001`) of an account id, or `nil` for one that is no fan.
  private static func fanNumber(_ userID: String) -> Int? {
    guard let id = Int(userID), id > 2_000_000, id <= 2_000_000 + fanCount else { return nil }
    return id - 2_000_000
  }

  private static func fan(_ k: Int) -> SandboxUser {
    let digits = String(k)
    let username = "fan_" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    // Fan k follows the cast members whose newest followers reach k, and the other way round.
    let followers = users.filter { k <= fanShare(of: $0.following) }.count
    let following = users.filter { k <= fanShare(of: $0.followers) }.count
    return SandboxUser(
      id: fanID(k), username: username, name: k % 50 == 0 ? "Fän \(k)" : "Fan \(k)",
      createdAt: fanEpoch - 86_400 * Int64(30 + (k * 37) % 3000) - Int64(k), followers: followers, following: following,
      description: k % 7 == 0 ? "Swift on Linux, mostly" : "", location: k % 3 == 0 ? fanPlaces[(k / 3) % fanPlaces.count] : nil,
      protected: k % 97 == 0)
  }

  /// How many of a cast member's `count` followers (or followings) are fans: all but the other two.
  private static func fanShare(of count: Int) -> Int { max(0, count - (users.count - 1)) }

  /// The other cast members, the highest id first (the most recent follow).
  private static func otherCast(_ userID: String) -> [String] {
    users.map(\.id).filter { $0 != userID }.sorted(by: >)
  }

  /// The newest `count` fans, the most recent follow first.
  private static func newestFans(_ count: Int) -> [String] {
    stride(from: count, through: 1, by: -1).map(fanID)
  }

  /// The accounts that follow `userID`, the most recent first: a cast member's newest fans and
  /// the other two; a fan's cast members.
  static func followerIDs(of userID: String) -> [String] {
    if let user = users.first(where: { $0.id == userID }) {
      return newestFans(fanShare(of: user.followers)) + otherCast(userID)
    }
    guard let k = fanNumber(userID) else { return [] }
    return users.filter { k <= fanShare(of: $0.following) }.map(\.id)
  }

  /// The accounts `userID` follows, the most recent first.
  static func followingIDs(of userID: String) -> [String] {
    if let user = users.first(where: { $0.id == userID }) {
      return newestFans(fanShare(of: user.following)) + otherCast(userID)
    }
    guard let k = fanNumber(userID) else { return [] }
    return users.filter { k <= fanShare(of: $0.followers) }.map(\.id)
  }

  /// Whether `userID` liked `tweet`: @sandbox_user every third generated tweet of the others,
  /// @swift_lang every tenth of @sandbox_user's, @oauth_fan nothing.
  static func liked(by userID: String, _ tweet: SandboxTweet) -> Bool {
    switch userID {
    case "1001": return tweet.authorID != "1001" && tweet.number % 3 == 1
    case "1002": return tweet.authorID == "1001" && tweet.number % 10 == 1
    default: return false
    }
  }

  /// The demo user's public list, of @swift_lang and @oauth_fan (``SandboxListsState``).
  static let listID = "1500"
}
