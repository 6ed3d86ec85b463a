import DateFormats
import Foundation

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
      ("media_url", .string("http://" + String(image.dropFirst("https://".count)))), ("media_url_https", .string(mediaURL(image))),
      ("url", .string(shortLink)), ("display_url", .string("pic.x.com/" + String(shortLink.dropFirst("https://t.co/".count)))),
      ("expanded_url", .string(media.expandedURL)), ("type", .string(extended ? media.kind.rawValue : "photo")), ("sizes", v1Sizes(media)),
    ]
    if isTruthy(params["include_ext_alt_text"]) { out.append(("ext_alt_text", .optional(media.altText))) }
    if extended && media.kind != .photo {
      let divisor = max(1, greatestCommonDivisor(media.width, media.height))
      var info: [(String, JSON)] = [("aspect_ratio", .array([.int(media.width / divisor), .int(media.height / divisor)]))]
      if let duration = media.durationMS { info.append(("duration_millis", .int(duration))) }
      info.append(("variants", media.variantsJSON(bitRateKey: "bitrate", url: mediaURL)))
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
