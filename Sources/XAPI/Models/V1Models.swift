import DateFormats
import Foundation

/// The wire format of API v1.1 tweets: numeric ids with `id_str`, `text` or `full_text`, and
/// the v1.1 date format. A class, because a retweet or a quote embeds the tweet it refers to.
final class V1Tweet: Decodable, Sendable {
  let idStr: String
  let text: String?
  let fullText: String?
  let createdAt: String?
  let user: V1User?
  let retweetCount: Int?
  let favoriteCount: Int?
  let lang: String?
  let inReplyToStatusIDStr: String?
  let inReplyToUserIDStr: String?
  let entities: V1Entities?
  let extendedEntities: V1Entities?
  let possiblySensitive: Bool?
  let retweetedStatus: V1Tweet?
  let quotedStatus: V1Tweet?
  let quotedStatusIDStr: String?

  enum CodingKeys: String, CodingKey {
    case text, user, lang, entities
    case idStr = "id_str"
    case fullText = "full_text"
    case createdAt = "created_at"
    case retweetCount = "retweet_count"
    case favoriteCount = "favorite_count"
    case inReplyToStatusIDStr = "in_reply_to_status_id_str"
    case inReplyToUserIDStr = "in_reply_to_user_id_str"
    case extendedEntities = "extended_entities"
    case possiblySensitive = "possibly_sensitive"
    case retweetedStatus = "retweeted_status"
    case quotedStatus = "quoted_status"
    case quotedStatusIDStr = "quoted_status_id_str"
  }

  struct V1Entities: Decodable, Sendable {
    let urls: [Entities.Link]?
    let userMentions: [Mention]?
    let hashtags: [Hashtag]?
    let media: [V1Media]?

    struct Mention: Decodable, Sendable {
      let screenName: String
      enum CodingKeys: String, CodingKey { case screenName = "screen_name" }
    }
    struct Hashtag: Decodable, Sendable { let text: String }

    enum CodingKeys: String, CodingKey {
      case urls, hashtags, media
      case userMentions = "user_mentions"
    }
  }

  struct V1Media: Decodable, Sendable {
    let idStr: String
    let type: String
    let mediaURLHTTPS: String?
    let extAltText: String?
    let videoInfo: VideoInfo?

    /// A video's or GIF's `video_info`: its files.
    struct VideoInfo: Decodable, Sendable {
      let variants: [V1MediaVariant]?
    }

    enum CodingKeys: String, CodingKey {
      case type
      case idStr = "id_str"
      case mediaURLHTTPS = "media_url_https"
      case extAltText = "ext_alt_text"
      case videoInfo = "video_info"
    }
  }

  /// The tweet in the shape v2's are read into: replies, quotes and retweets as references
  /// (the embedded `retweeted_status` and `quoted_status` as their tweets), `extended_entities`
  /// media (all of them; `entities.media` holds only the first).
  var tweet: Tweet { tweet(embedding: true) }

  private func tweet(embedding: Bool) -> Tweet {
    var references: [ReferencedTweet] = []
    if let id = inReplyToStatusIDStr { references.append(ReferencedTweet(kind: .repliedTo, id: id)) }
    // A retweet of a quote carries the quote's `quoted_status_id_str` too: v2 gives it only the
    // `retweeted` reference, and so does this.
    if retweetedStatus == nil, let quoted = quotedStatusIDStr ?? quotedStatus?.idStr {
      references.append(ReferencedTweet(kind: .quoted, id: quoted, tweet: embedding ? quotedStatus?.tweet(embedding: false) : nil))
    }
    if let retweeted = retweetedStatus {
      references.append(ReferencedTweet(kind: .retweeted, id: retweeted.idStr, tweet: embedding ? retweeted.tweet(embedding: false) : nil))
    }
    let entities = entities.map {
      Entities(urls: $0.urls ?? [], mentions: ($0.userMentions ?? []).map(\.screenName), hashtags: ($0.hashtags ?? []).map(\.text))
    }
    let media = (extendedEntities?.media ?? entities.flatMap { _ in self.entities?.media })?.map {
      Media(key: $0.idStr, type: $0.type, url: $0.mediaURLHTTPS, altText: $0.extAltText, variants: $0.videoInfo?.variants?.map(\.variant))
    }
    return Tweet(
      id: idStr, text: fullText ?? text ?? "", createdAt: createdAt.flatMap(TwitterV1Date.date(from:)),
      author: user.map { Author(id: $0.idStr, username: $0.screenName, name: $0.name) },
      metrics: retweetCount.map { Metrics(retweets: $0, likes: favoriteCount ?? 0) }, lang: lang, inReplyToUserID: inReplyToUserIDStr,
      referencedTweets: references.isEmpty ? nil : references, entities: entities, media: media, possiblySensitive: possiblySensitive)
  }
}

struct V1User: Decodable, Sendable {
  let idStr: String
  let name: String?
  let screenName: String?

  enum CodingKeys: String, CodingKey {
    case name
    case idStr = "id_str"
    case screenName = "screen_name"
  }

  var user: XUser { XUser(id: idStr, username: screenName ?? "", name: name ?? "") }
}

struct V1SearchResponse: Decodable, Sendable {
  let statuses: [V1Tweet]
}
