import DateFormats
/// An account of the sandbox.
struct SandboxUser: Sendable {
  let id: String
  let username: String
  let name: String
  let createdAt: Int64
  /// How many accounts follow it; ``SandboxData/followerIDs(of:)`` lists them.
  let followers: Int
  /// How many accounts it follows; ``SandboxData/followingIDs(of:)`` lists them.
  let following: Int
  let description: String
  /// The place the profile gives, if any.
  var location: String? = nil
  var protected = false
}

/// A tweet's reference to another (`referenced_tweets`).
struct SandboxReference: Sendable, Equatable {
  enum Kind: String, Sendable {
    case repliedTo = "replied_to"
    case quoted
    case retweeted
  }

  let kind: Kind
  let id: UInt64
}

/// A photo, video or GIF attached to a tweet (`includes.media`).
struct SandboxMedia: Sendable {
  enum Kind: String, Sendable {
    case photo
    case video
    case animatedGIF = "animated_gif"
  }

  /// One file of a video or GIF.
  struct Variant: Sendable {
    let bitRate: Int?
    let contentType: String
    let url: String
  }

  /// The media id (v1.1's `id`); the `media_key` is it behind the kind's prefix.
  let id: UInt64
  let kind: Kind
  let width: Int
  let height: Int
  /// A photo's image.
  var url: String? = nil
  /// A video's or GIF's still image.
  var previewImageURL: String? = nil
  /// The description the author wrote, if any.
  var altText: String? = nil
  /// Where the tweet's t.co link to it leads (`https://x.com/user/status/ID/photo/1`).
  let expandedURL: String
  var durationMS: Int? = nil
  var variants: [Variant] = []

  /// `3_<id>` (photo), `7_<id>` (video), `16_<id>` (GIF), as X's keys.
  var key: String {
    switch kind {
    case .photo: return "3_\(id)"
    case .video: return "7_\(id)"
    case .animatedGIF: return "16_\(id)"
    }
  }
}

/// A tweet of the sandbox.
struct SandboxTweet: Sendable {
  let id: UInt64
  var text: String
  let authorID: String
  let createdAt: Int64
  var retweets = 0
  var replies = 0
  var likes = 0
  var quotes = 0
  /// The author's n-th generated tweet, 1 the newest; 0 for one posted through the sandbox.
  var number = 0
  /// What it replies to, quotes or retweets.
  var references: [SandboxReference] = []
  /// The author of the tweet it replies to.
  var inReplyToUserID: String? = nil
  /// The tweet that started its conversation; `nil` when it did.
  var conversationRoot: UInt64? = nil
  /// How many code points at the start of `text` are the `@user ` names X puts in front of a reply.
  var replyPrefix = 0
  /// Its language when it is not the text's own (a retweet has the original's); see ``lang``.
  var language: String? = nil
  var media: [SandboxMedia] = []
  /// The t.co link to the media, at the end of the text.
  var mediaLink: String? = nil
  var possiblySensitive = false
  /// The ids of its versions, oldest first, when it was edited; empty otherwise.
  var editHistory: [UInt64] = []

  /// `conversation_id`: the id of the tweet that started the conversation.
  var conversationID: UInt64 { conversationRoot ?? id }
  /// `edit_history_tweet_ids`: its versions, oldest first, itself only when never edited.
  var versions: [UInt64] { editHistory.isEmpty ? [id] : editHistory }
  /// `lang`: BCP 47, as X's language detection would say.
  var lang: String { language ?? SandboxText.language(of: text) }

  /// The id of the tweet it refers to as `kind`, if any.
  func reference(_ kind: SandboxReference.Kind) -> UInt64? {
    references.first { $0.kind == kind }?.id
  }
}

/// Where a t.co link of the fixtures leads.
struct SandboxLink: Sendable {
  let expanded: String
  let display: String
}

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

  /// The one list (`GET /2/lists/1500/tweets`): @sandbox_user's, with @swift_lang and @oauth_fan.
  static let listID = "1500"
  static let listMembers: Set<String> = ["1002", "1003"]
}

// MARK: - Fixtures: replies, quotes, retweets, links, media, edits

/// A generated tweet by author and number: `FixtureKey("1001", 3)` is @sandbox_user's third
/// newest.
struct FixtureKey: Hashable, Sendable {
  let author: String
  let number: Int

  init(_ author: String, _ number: Int) {
    self.author = author
    self.number = number
  }
}

/// A reply, quote or retweet of the fixtures: `from` refers to `to`, which must be older.
struct FixtureReference: Sendable {
  let from: FixtureKey
  let to: FixtureKey
  /// `from`'s own words (for a reply, without the `@user ` X puts in front); `nil` keeps its text.
  var text: String? = nil
}

/// The media of a fixture tweet: one t.co link (`https://t.co/<code>`) at the end of its text.
struct FixtureMedia: Sendable {
  struct Item: Sendable {
    let kind: SandboxMedia.Kind
    let width: Int
    let height: Int
    let altText: String?
  }

  let code: String
  let items: [Item]
}

extension SandboxData {
  private static let sandboxUser = "1001", swiftLang = "1002", oauthFan = "1003"

  /// Replies, parents before their replies: a conversation started by @swift_lang's 4th tweet
  /// (replied to by @sandbox_user's 5th, which @oauth_fan's 1st and @swift_lang's 1st answer),
  /// @sandbox_user's 8th answering @oauth_fan's 4th, a thread of @oauth_fan's own (5th to 6th),
  /// and @oauth_fan's 13th to 20th answering @sandbox_user's 40th to 47th.
  static let replies: [FixtureReference] =
    [
      FixtureReference(
        from: FixtureKey(sandboxUser, 5), to: FixtureKey(swiftLang, 4), text: "Typed throws at last! Do closures get them too? #SwiftLang"),
      FixtureReference(
        from: FixtureKey(oauthFan, 1), to: FixtureKey(sandboxUser, 5), text: "Closures too, and async ones: `{ () async throws(E) in … }` 👌"),
      FixtureReference(
        from: FixtureKey(swiftLang, 1), to: FixtureKey(sandboxUser, 5), text: "They do. The details are in SE-0413: https://t.co/Se0413TyPd"),
      FixtureReference(from: FixtureKey(sandboxUser, 8), to: FixtureKey(oauthFan, 4), text: "What are we celebrating? 🥳"),
      FixtureReference(from: FixtureKey(oauthFan, 5), to: FixtureKey(oauthFan, 6)),
    ] + (13...20).map { FixtureReference(from: FixtureKey(oauthFan, $0), to: FixtureKey(sandboxUser, 27 + $0)) }

  /// Quotes: @sandbox_user's 4th quotes @oauth_fan's 3rd, @swift_lang's 2nd quotes
  /// @sandbox_user's 7th, and eleven tweets quote @sandbox_user's 25th (two pages of quotes).
  static let quotes: [FixtureReference] =
    [
      FixtureReference(from: FixtureKey(sandboxUser, 4), to: FixtureKey(oauthFan, 3), text: "Pinning this for the next code review 📌 #OAuth"),
      FixtureReference(from: FixtureKey(swiftLang, 2), to: FixtureKey(sandboxUser, 7)),
    ] + (7...12).map { FixtureReference(from: FixtureKey(swiftLang, $0), to: FixtureKey(sandboxUser, 25)) }
    + (8...12).map { FixtureReference(from: FixtureKey(oauthFan, $0), to: FixtureKey(sandboxUser, 25)) }

  /// Retweets: @swift_lang's 3rd of @oauth_fan's 6th (a long one, cut), @sandbox_user's 9th of
  /// @swift_lang's 5th (Japanese), @oauth_fan's 7th of @sandbox_user's 15th.
  static let retweets: [FixtureReference] = [
    FixtureReference(from: FixtureKey(swiftLang, 3), to: FixtureKey(oauthFan, 6)),
    FixtureReference(from: FixtureKey(sandboxUser, 9), to: FixtureKey(swiftLang, 5)),
    FixtureReference(from: FixtureKey(oauthFan, 7), to: FixtureKey(sandboxUser, 15)),
  ]

  /// Texts replaced whole: no words at all, so the language is `und`.
  static let replacedTexts: [FixtureKey: String] = [FixtureKey(oauthFan, 4): "🎉🎉🎉"]

  /// Links and hashtags added at the end of a text.
  static let textSuffixes: [FixtureKey: String] = [
    FixtureKey(sandboxUser, 10): " https://t.co/XDocs0Api1 #localfirst",
    FixtureKey(swiftLang, 11): " #日本語 https://t.co/N1hongoW1k",
  ]

  /// The t.co links in fixture texts, and where they lead.
  static let links: [String: SandboxLink] = [
    "https://t.co/Se0413TyPd": SandboxLink(
      expanded: "https://github.com/swiftlang/swift-evolution/blob/main/proposals/0413-typed-throws.md", display: "github.com/swiftlang/swif…"),
    "https://t.co/XDocs0Api1": SandboxLink(expanded: "https://docs.x.com/x-api/introduction", display: "docs.x.com/x-api/introduct…"),
    "https://t.co/N1hongoW1k": SandboxLink(
      expanded: "https://ja.wikipedia.org/wiki/%E6%97%A5%E6%9C%AC%E8%AA%9E", display: "ja.wikipedia.org/wiki/日本語"),
  ]

  /// Media: a photo (@sandbox_user's 3rd), two photos (its 11th), a video (@swift_lang's 4th),
  /// a GIF (@oauth_fan's 4th).
  static let media: [FixtureKey: FixtureMedia] = [
    FixtureKey(sandboxUser, 3): FixtureMedia(
      code: "F1shPh0t03", items: [.init(kind: .photo, width: 1200, height: 800, altText: "Fish and chips with mushy peas on a white plate")]),
    FixtureKey(sandboxUser, 11): FixtureMedia(
      code: "Cafe2Ph0t0",
      items: [
        .init(kind: .photo, width: 1024, height: 768, altText: "A café au lait and a crème brûlée on a terrace table"),
        .init(kind: .photo, width: 768, height: 1024, altText: nil),
      ]),
    FixtureKey(swiftLang, 4): FixtureMedia(code: "Rel4Vid30x", items: [.init(kind: .video, width: 1280, height: 720, altText: nil)]),
    FixtureKey(oauthFan, 4): FixtureMedia(
      code: "C0nfett1G4", items: [.init(kind: .animatedGIF, width: 498, height: 280, altText: "Confetti falling")]),
  ]

  /// The one tweet marked `possibly_sensitive`.
  static let sensitive: Set<FixtureKey> = [FixtureKey(swiftLang, 4)]

  /// Edited tweets and their first version's text (the typo was fixed 30 s later).
  static let edits: [FixtureKey: String] = [
    FixtureKey(sandboxUser, 2): "Note to slef #2: sign the URL you send, not the one you meant."
  ]

  /// A fixture tweet's media, ids counting down from the tweet's.
  static func mediaItems(of tweet: SandboxTweet, _ spec: FixtureMedia) -> [SandboxMedia] {
    let author = username(of: tweet.authorID)
    return spec.items.enumerated().map { offset, item in
      let number = offset + 1
      let id = tweet.id - UInt64(number)
      let name = String((spec.code + String(id, radix: 36)).prefix(15))
      let page = item.kind == .video ? "video" : "photo"
      var media = SandboxMedia(
        id: id, kind: item.kind, width: item.width, height: item.height, altText: item.altText,
        expandedURL: "https://x.com/\(author)/status/\(tweet.id)/\(page)/\(number)")
      switch item.kind {
      case .photo:
        media.url = "https://pbs.twimg.com/media/\(name).jpg"
      case .video:
        media.previewImageURL = "https://pbs.twimg.com/ext_tw_video_thumb/\(id)/pu/img/\(name).jpg"
        media.durationMS = 12_345
        media.variants = [
          SandboxMedia.Variant(
            bitRate: 2_176_000, contentType: "video/mp4",
            url: "https://video.twimg.com/ext_tw_video/\(id)/pu/vid/avc1/\(item.width)x\(item.height)/\(name).mp4?tag=12"),
          SandboxMedia.Variant(
            bitRate: nil, contentType: "application/x-mpegURL", url: "https://video.twimg.com/ext_tw_video/\(id)/pu/pl/\(name).m3u8?tag=12"),
        ]
      case .animatedGIF:
        media.previewImageURL = "https://pbs.twimg.com/tweet_video_thumb/\(name).jpg"
        media.variants = [SandboxMedia.Variant(bitRate: 0, contentType: "video/mp4", url: "https://video.twimg.com/tweet_video/\(name).mp4")]
      }
      return media
    }
  }
}

/// Applies the fixtures to the generated tweets, skipping those whose tweets do not exist (a
/// sandbox with few tweets per user) or come in the wrong order (a tweet refers only to an older one).
struct FixtureBuilder {
  private var tweets: [SandboxTweet]
  /// Where each generated tweet is in `tweets`.
  private let positions: [FixtureKey: Int]

  init(_ tweets: [SandboxTweet]) {
    self.tweets = tweets
    var positions: [FixtureKey: Int] = [:]
    for (index, tweet) in tweets.enumerated() { positions[FixtureKey(tweet.authorID, tweet.number)] = index }
    self.positions = positions
  }

  /// The tweets, newest first, with texts, media, replies, quotes, edits and retweets applied,
  /// in that order (a retweet copies the original's final text).
  mutating func build() -> [SandboxTweet] {
    applyTexts()
    attachMedia()
    applyReplies()
    applyQuotes()
    applyEdits()
    applyRetweets()
    return tweets
  }

  /// The places of a reference's two tweets, when both exist and `from` is the newer.
  private func places(_ reference: FixtureReference) -> (from: Int, to: Int)? {
    guard let from = positions[reference.from], let to = positions[reference.to], tweets[from].id > tweets[to].id else { return nil }
    return (from, to)
  }

  private mutating func applyTexts() {
    for (key, text) in SandboxData.replacedTexts {
      if let index = positions[key] { tweets[index].text = text }
    }
    for reference in SandboxData.replies + SandboxData.quotes {
      if let text = reference.text, let found = places(reference) { tweets[found.from].text = text }
    }
    for (key, suffix) in SandboxData.textSuffixes {
      if let index = positions[key] { tweets[index].text += suffix }
    }
  }

  private mutating func attachMedia() {
    for (key, spec) in SandboxData.media {
      guard let index = positions[key] else { continue }
      let link = "https://t.co/" + spec.code
      tweets[index].mediaLink = link
      tweets[index].text += " " + link
      tweets[index].media = SandboxData.mediaItems(of: tweets[index], spec)
    }
    for key in SandboxData.sensitive {
      if let index = positions[key] { tweets[index].possiblySensitive = true }
    }
  }

  /// X puts the names a reply answers in front of its text: the parent's author and the names
  /// the parent itself started with, never the replier's own (a thread of one's own has none).
  private mutating func applyReplies() {
    for reference in SandboxData.replies {
      guard let found = places(reference) else { continue }
      let parent = tweets[found.to]
      let replier = SandboxData.username(of: tweets[found.from].authorID)
      var names: [String] = []
      for name in [SandboxData.username(of: parent.authorID)] + SandboxText.leadingMentions(of: parent)
      where name != replier && !names.contains(name) {
        names.append(name)
      }
      let prefix = names.map { "@\($0) " }.joined()
      tweets[found.from].text = prefix + tweets[found.from].text
      tweets[found.from].replyPrefix = prefix.unicodeScalars.count
      tweets[found.from].references.append(SandboxReference(kind: .repliedTo, id: parent.id))
      tweets[found.from].inReplyToUserID = parent.authorID
      tweets[found.from].conversationRoot = parent.conversationID
      tweets[found.to].replies += 1
    }
  }

  private mutating func applyQuotes() {
    for reference in SandboxData.quotes {
      guard let found = places(reference) else { continue }
      tweets[found.from].references.append(SandboxReference(kind: .quoted, id: tweets[found.to].id))
      tweets[found.to].quotes += 1
    }
  }

  /// An edited tweet keeps its id (the latest version's); the first version's is 500 below.
  private mutating func applyEdits() {
    for key in SandboxData.edits.keys {
      guard let index = positions[key] else { continue }
      tweets[index].editHistory = [tweets[index].id - 500, tweets[index].id]
    }
  }

  /// A retweet has the original's text (cut), language and retweet count, and no other counts.
  private mutating func applyRetweets() {
    for reference in SandboxData.retweets {
      guard let found = places(reference) else { continue }
      let original = tweets[found.to]
      tweets[found.to].retweets += 1
      tweets[found.from].text = SandboxData.retweetText(of: original)
      tweets[found.from].references = [SandboxReference(kind: .retweeted, id: original.id)]
      tweets[found.from].language = original.lang
    }
    for reference in SandboxData.retweets {
      guard let found = places(reference) else { continue }
      tweets[found.from].retweets = tweets[found.to].retweets
      tweets[found.from].replies = 0
      tweets[found.from].likes = 0
      tweets[found.from].quotes = 0
    }
  }
}
