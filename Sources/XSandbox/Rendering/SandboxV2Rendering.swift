import DateFormats
import Foundation

// MARK: - v2 JSON (lock held)

extension SandboxState {
  /// X's limit for the `text` of a post; a longer post (a "long post") is cut to it.
  static let textLimit = 280

  /// A post's `text` as X sends it: a long post cut short with an ellipsis.
  static func cut(_ text: String) -> String {
    text.count <= textLimit ? text : String(text.prefix(textLimit - 1)) + "\u{2026}"
  }

  /// An account with the `user.fields` asked for (`id`, `name` and `username` always).
  func v2User(_ user: SandboxUser, fields: Set<String>) -> JSON {
    var out: [(String, JSON)] = [("id", .string(user.id)), ("name", .string(user.name)), ("username", .string(user.username))]
    if fields.contains("created_at") { out.append(("created_at", .string(RFC3339.millisecondString(from: Date(epochSeconds: user.createdAt))))) }
    if fields.contains("description") { out.append(("description", .string(user.description))) }
    if fields.contains("location"), let location = user.location { out.append(("location", .string(location))) }
    if fields.contains("protected") { out.append(("protected", .bool(user.protected))) }
    if fields.contains("verified") { out.append(("verified", .bool(false))) }
    if fields.contains("public_metrics") {
      let own = tweets(of: user.id)
      let isCast = SandboxData.users.contains { $0.id == user.id }
      out.append(
        (
          "public_metrics",
          .object([
            ("followers_count", .int(user.followers)), ("following_count", .int(user.following)),
            ("tweet_count", .int(own.count)), ("listed_count", .int(isCast ? 1 : 0)),
            ("like_count", .int(likedTweets(of: user.id).count)), ("media_count", .int(own.filter { !$0.media.isEmpty }.count)),
          ])
        ))
    }
    return .object(out)
  }

  /// A tweet with the `tweet.fields` asked for (`id`, `text` and `edit_history_tweet_ids`
  /// always); a field an expansion needs comes with it, as X sends it (`author_id` with
  /// `expansions=author_id`, ...). `included`: a tweet of `includes.tweets`, which gets the fields
  /// of the `referenced_tweets.id.*` expansions instead.
  func v2Tweet(_ tweet: SandboxTweet, fields: Fields, included: Bool = false) -> JSON {
    let asked = fields.tweet, expansions = fields.expansions
    let text = Self.cut(tweet.text)
    let isLong = text != tweet.text
    let entities = SandboxText.entities(of: tweet)
    var out: [(String, JSON)] = [
      ("id", .string(String(tweet.id))), ("text", .string(text)),
      ("edit_history_tweet_ids", .array(tweet.versions.map { JSON.string(String($0)) })),
    ]
    // A long post: the whole text (and its entities) only in `note_tweet`, and only when asked for.
    if asked.contains("note_tweet") && isLong {
      var note: [(String, JSON)] = [("text", .string(tweet.text))]
      if let all = v2Entities(entities) { note.append(("entities", all)) }
      out.append(("note_tweet", .object(note)))
    }
    if asked.contains("author_id") || expansions.contains(included ? "referenced_tweets.id.author_id" : "author_id") {
      out.append(("author_id", .string(tweet.authorID)))
    }
    if asked.contains("created_at") { out.append(("created_at", .string(RFC3339.millisecondString(from: Date(epochSeconds: tweet.createdAt))))) }
    if asked.contains("public_metrics") {
      out.append(
        (
          "public_metrics",
          .object([
            ("retweet_count", .int(tweet.retweets)), ("reply_count", .int(tweet.replies)),
            ("like_count", .int(tweet.likes)), ("quote_count", .int(tweet.quotes)),
            // Required by X's specification and present in its answers.
            ("bookmark_count", .int(tweet.bookmarks)), ("impression_count", .int(tweet.impressions)),
          ])
        ))
    }
    if asked.contains("paid_partnership") { out.append(("paid_partnership", .bool(false))) }
    if asked.contains("conversation_id") { out.append(("conversation_id", .string(String(tweet.conversationID)))) }
    if asked.contains("lang") { out.append(("lang", .string(tweet.lang))) }
    if let user = tweet.inReplyToUserID, asked.contains("in_reply_to_user_id") || (!included && expansions.contains("in_reply_to_user_id")) {
      out.append(("in_reply_to_user_id", .string(user)))
    }
    if !tweet.references.isEmpty, asked.contains("referenced_tweets") || (!included && expansions.contains("referenced_tweets.id")) {
      let references = tweet.references.map { JSON.object([("type", .string($0.kind.rawValue)), ("id", .string(String($0.id)))]) }
      out.append(("referenced_tweets", .array(references)))
    }
    // `text`'s entities: those the cut leaves whole.
    let visible = text.unicodeScalars.count - (isLong ? 1 : 0)
    if asked.contains("entities") || (!included && expansions.contains("entities.mentions.username")),
      let shown = v2Entities(entities.filter { $0.end <= visible })
    {
      out.append(("entities", shown))
    }
    if !tweet.media.isEmpty,
      asked.contains("attachments") || expansions.contains(included ? "referenced_tweets.id.attachments.media_keys" : "attachments.media_keys")
    {
      out.append(("attachments", .object([("media_keys", .array(tweet.media.map { JSON.string($0.key) }))])))
    }
    if asked.contains("possibly_sensitive") { out.append(("possibly_sensitive", .bool(tweet.possiblySensitive))) }
    return .object(out)
  }

  /// The v2 `entities` object, or `nil` when there are none (X leaves the field out then).
  func v2Entities(_ entities: [SandboxEntity]) -> JSON? {
    var urls: [JSON] = [], mentions: [JSON] = [], hashtags: [JSON] = []
    for entity in entities {
      let place: [(String, JSON)] = [("start", .int(entity.start)), ("end", .int(entity.end))]
      switch entity.kind {
      case .url(let url, let expanded, let display, let mediaKey):
        var link: [(String, JSON)] = place + [("url", .string(url)), ("expanded_url", .string(expanded)), ("display_url", .string(display))]
        if let mediaKey { link.append(("media_key", .string(mediaKey))) }
        urls.append(.object(link))
      case .mention(let user):
        mentions.append(.object(place + [("username", .string(user.username)), ("id", .string(user.id))]))
      case .hashtag(let tag):
        hashtags.append(.object(place + [("tag", .string(tag))]))
      }
    }
    var out: [(String, JSON)] = []
    if !urls.isEmpty { out.append(("urls", .array(urls))) }
    if !hashtags.isEmpty { out.append(("hashtags", .array(hashtags))) }
    if !mentions.isEmpty { out.append(("mentions", .array(mentions))) }
    return out.isEmpty ? nil : .object(out)
  }

  /// A media item with the `media.fields` asked for (`media_key` and `type` always).
  func v2Media(_ media: SandboxMedia, fields: Set<String>) -> JSON {
    var out: [(String, JSON)] = [("media_key", .string(media.key)), ("type", .string(media.kind.rawValue))]
    if fields.contains("url"), let url = media.url { out.append(("url", .string(mediaURL(url)))) }
    if fields.contains("preview_image_url"), let preview = media.previewImageURL { out.append(("preview_image_url", .string(mediaURL(preview)))) }
    if fields.contains("width") { out.append(("width", .int(media.width))) }
    if fields.contains("height") { out.append(("height", .int(media.height))) }
    if fields.contains("duration_ms"), let duration = media.durationMS { out.append(("duration_ms", .int(duration))) }
    if fields.contains("alt_text"), let alt = media.altText { out.append(("alt_text", .string(alt))) }
    if fields.contains("variants"), !media.variants.isEmpty {
      out.append(("variants", media.variantsJSON(bitRateKey: "bit_rate", url: mediaURL)))
    }
    return .object(out)
  }

  /// The tweets `tweets` refer to, each once, and a not-found error for each that is gone
  /// (reported only with `reportingMissing`, as X does for `expansions=referenced_tweets.id`).
  func referencedTweets(of tweets: [SandboxTweet], reportingMissing: Bool) -> (tweets: [SandboxTweet], errors: [JSON]) {
    var found: [SandboxTweet] = [], errors: [JSON] = []
    var seen: Set<UInt64> = []
    for tweet in tweets {
      for reference in tweet.references where seen.insert(reference.id).inserted {
        if let referenced = self.tweet(withID: reference.id) {
          found.append(referenced)
        } else if reportingMissing {
          let id = String(reference.id)
          errors.append(
            XBodies.notFound(
              id, resourceType: "tweet", parameter: "referenced_tweets.id", detail: "Could not find tweet with referenced_tweets.id: [\(id)]."))
        }
      }
    }
    return (found, errors)
  }

  /// `includes` for the expansions asked for (users, tweets, media, each once), and an error for
  /// each referenced tweet that is gone.
  func v2Includes(_ tweets: [SandboxTweet], fields: Fields) -> (includes: [(String, JSON)], errors: [JSON]) {
    let expansions = fields.expansions
    var userIDs: [String] = []
    func addUser(_ id: String) {
      if !userIDs.contains(id) { userIDs.append(id) }
    }
    if expansions.contains("author_id") {
      for tweet in tweets { addUser(tweet.authorID) }
    }
    if expansions.contains("in_reply_to_user_id") {
      for id in tweets.compactMap(\.inReplyToUserID) { addUser(id) }
    }
    if expansions.contains("entities.mentions.username") {
      for id in tweets.flatMap({ SandboxText.entities(of: $0).compactMap(\.mentionedUserID) }) { addUser(id) }
    }

    let referencing: Set<String> = ["referenced_tweets.id", "referenced_tweets.id.author_id", "referenced_tweets.id.attachments.media_keys"]
    var referenced: [SandboxTweet] = [], errors: [JSON] = []
    if !expansions.isDisjoint(with: referencing) {
      let found = referencedTweets(of: tweets, reportingMissing: expansions.contains("referenced_tweets.id"))
      referenced = found.tweets
      errors = found.errors
    }
    var included: [SandboxTweet] = expansions.contains("referenced_tweets.id") ? referenced : []
    if expansions.contains("referenced_tweets.id.author_id") {
      for tweet in referenced { addUser(tweet.authorID) }
    }
    if expansions.contains("edit_history_tweet_ids") {
      for tweet in tweets {
        for id in tweet.versions where id != tweet.id && !included.contains(where: { $0.id == id }) {
          if let version = self.tweet(withID: id) { included.append(version) }
        }
      }
    }

    var withMedia = expansions.contains("attachments.media_keys") ? tweets : []
    if expansions.contains("referenced_tweets.id.attachments.media_keys") { withMedia += referenced }
    var media: [SandboxMedia] = []
    for item in withMedia.flatMap(\.media) where !media.contains(where: { $0.key == item.key }) { media.append(item) }

    var out: [(String, JSON)] = []
    let users = userIDs.compactMap { SandboxData.usersByID[$0] }
    if !users.isEmpty { out.append(("users", .array(users.map { v2User($0, fields: fields.user) }))) }
    if !included.isEmpty { out.append(("tweets", .array(included.map { v2Tweet($0, fields: fields, included: true) }))) }
    if !media.isEmpty { out.append(("media", .array(media.map { v2Media($0, fields: fields.media) }))) }
    return (out, errors)
  }

  /// `data`, `includes` (for the expansions asked for), `meta`, `errors`.
  func envelope(_ tweets: [SandboxTweet], fields: Fields, meta: JSON? = nil, errors: [JSON] = [], single: Bool = false) -> JSON {
    var out: [(String, JSON)] = []
    var problems = errors
    if let first = tweets.first {
      out.append(("data", single ? v2Tweet(first, fields: fields) : .array(tweets.map { v2Tweet($0, fields: fields) })))
      let (includes, missing) = v2Includes(tweets, fields: fields)
      if !includes.isEmpty { out.append(("includes", .object(includes))) }
      problems += missing
    }
    if let meta { out.append(("meta", meta)) }
    if !problems.isEmpty { out.append(("errors", .array(problems))) }
    return .object(out)
  }

  /// `data` (accounts, with the `user.fields` asked for), `meta`, `errors`.
  func usersEnvelope(_ users: [SandboxUser], fields: Fields, meta: JSON? = nil, errors: [JSON] = []) -> JSON {
    var out: [(String, JSON)] = []
    if !users.isEmpty { out.append(("data", .array(users.map { v2User($0, fields: fields.user) }))) }
    if let meta { out.append(("meta", meta)) }
    if !errors.isEmpty { out.append(("errors", .array(errors))) }
    return .object(out)
  }

  /// The body of an empty page.
  static let emptyPage = JSON.object([("meta", .object([("result_count", .int(0))]))])
}

extension SandboxMedia {
  /// A video's or GIF's files, as both APIs list them; they name the bit rate differently
  /// (v1.1 `bitrate`, v2 `bit_rate`). `url` renders each file's URL (``SandboxState/mediaURL(_:)``).
  func variantsJSON(bitRateKey: String, url: (String) -> String) -> JSON {
    .array(
      variants.map { variant in
        var file: [(String, JSON)] = []
        if let rate = variant.bitRate { file.append((bitRateKey, .int(rate))) }
        file += [("content_type", .string(variant.contentType)), ("url", .string(url(variant.url)))]
        return .object(file)
      })
  }
}
