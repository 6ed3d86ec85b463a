/// An account of the sandbox.
struct SandboxUser: Sendable {
  let id: String
  let username: String
  let name: String
  let createdAt: Int64
  let followers: Int
  let following: Int
  let description: String
}

/// A tweet of the sandbox.
struct SandboxTweet: Sendable {
  let id: UInt64
  let text: String
  let authorID: String
  let createdAt: Int64
  var retweets = 0
  var replies = 0
  var likes = 0
  var quotes = 0
}

/// The sandbox's fixed cast and its generated tweets.
enum SandboxData {
  /// The account every access token of the sandbox belongs to.
  static let mainUserID = "1001"
  /// The newest generated tweet's id; older ones count down by 1000, like the Python fake's,
  /// so the ids are the same in every run (a later `--sandbox` process finds them again).
  static let firstID: UInt64 = 1_800_000_000_000_000_000

  static let users: [SandboxUser] = [
    SandboxUser(
      id: "1001", username: "sandbox_user", name: "Sandbox User",
      createdAt: SandboxDates.timestamp(year: 2019, month: 3, day: 4, hour: 5, minute: 6, second: 7),
      followers: 42, following: 7, description: "The account the sandbox signs you in as. Nothing here leaves your computer."),
    SandboxUser(
      id: "1002", username: "swift_lang", name: "Swift Language",
      createdAt: SandboxDates.timestamp(year: 2014, month: 6, day: 2, hour: 17, minute: 0, second: 0),
      followers: 1234, following: 56, description: "Tips, releases and the occasional pun, in the sandbox."),
    SandboxUser(
      id: "1003", username: "oauth_fan", name: "OAuth Fan",
      createdAt: SandboxDates.timestamp(year: 2010, month: 4, day: 30, hour: 12, minute: 0, second: 0),
      followers: 99, following: 100, description: "RFC 5849 enthusiast. Signs every request twice, just to be sure."),
  ]

  static let usersByID: [String: SandboxUser] = Dictionary(uniqueKeysWithValues: users.map { ($0.id, $0) })

  static func user(named name: String) -> SandboxUser? {
    let wanted = name.lowercased()
    return users.first { $0.username.lowercased() == wanted }
  }

  /// `perUser` tweets for each account, newest first, interleaved as the Python fake does
  /// (1001, 1002, 1001, 1003, ...), a minute apart, the newest at `newest`.
  static func tweets(perUser: Int, newest: Int64) -> [SandboxTweet] {
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
      tweets.append(
        SandboxTweet(
          id: firstID - 1000 * UInt64(i), text: text(author: author, number: produced[author, default: 0]),
          authorID: author, createdAt: newest - 60 * Int64(i),
          retweets: (i * 7) % 13, replies: (i * 3) % 5, likes: (i * 11) % 50, quotes: i % 3))
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
}
