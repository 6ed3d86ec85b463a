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
        // Three files, as X lists them: a small mp4, the best mp4, the playlist (no bit rate).
        media.variants = [
          SandboxMedia.Variant(
            bitRate: 832_000, contentType: "video/mp4",
            url: "https://video.twimg.com/ext_tw_video/\(id)/pu/vid/avc1/\(item.width / 2)x\(item.height / 2)/\(name).mp4?tag=12"),
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
