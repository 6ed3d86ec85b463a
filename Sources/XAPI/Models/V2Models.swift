import DateFormats
import Foundation

/// The wire format of API v2: `data`, `includes`, `meta` and partial `errors`, each optional
/// (an empty result has no `data` at all).
struct V2Envelope<Payload: Decodable & Sendable>: Decodable, Sendable {
  let data: Payload?
  let includes: V2Includes?
  let meta: V2Meta?
  let errors: [XProblem]?
}

struct V2Includes: Decodable, Sendable {
  let users: [V2User]?
  let tweets: [V2Tweet]?
  let media: [V2Media]?
}

/// `includes`, indexed: what a tweet's ids and keys point to.
struct V2Expansions {
  let users: [String: V2User]
  let tweets: [String: V2Tweet]
  let media: [String: V2Media]

  init(_ includes: V2Includes?) {
    users = Dictionary((includes?.users ?? []).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    tweets = Dictionary((includes?.tweets ?? []).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    media = Dictionary((includes?.media ?? []).map { ($0.mediaKey, $0) }, uniquingKeysWith: { first, _ in first })
  }
}

struct V2Media: Decodable, Sendable {
  let mediaKey: String
  let type: String
  let url: String?
  let previewImageURL: String?
  let altText: String?
  let variants: [MediaVariant]?

  enum CodingKeys: String, CodingKey {
    case type, url, variants
    case mediaKey = "media_key"
    case previewImageURL = "preview_image_url"
    case altText = "alt_text"
  }

  var media: Media { Media(key: mediaKey, type: type, url: url ?? previewImageURL, altText: altText, variants: variants) }
}

struct V2Meta: Decodable, Sendable {
  let resultCount: Int?
  let nextToken: String?
  let newestID: String?
  let oldestID: String?

  enum CodingKeys: String, CodingKey {
    case resultCount = "result_count"
    case nextToken = "next_token"
    case newestID = "newest_id"
    case oldestID = "oldest_id"
  }
}

struct V2User: Decodable, Sendable {
  let id: String
  let name: String
  let username: String
  let createdAt: String?
  let description: String?
  let location: String?
  let protected: Bool?
  let verified: Bool?
  let publicMetrics: PublicMetrics?

  struct PublicMetrics: Decodable, Sendable {
    let followersCount: Int
    let followingCount: Int
    let tweetCount: Int
    let listedCount: Int?

    enum CodingKeys: String, CodingKey {
      case followersCount = "followers_count"
      case followingCount = "following_count"
      case tweetCount = "tweet_count"
      case listedCount = "listed_count"
    }
  }

  enum CodingKeys: String, CodingKey {
    case id, name, username, description, location, protected, verified
    case createdAt = "created_at"
    case publicMetrics = "public_metrics"
  }

  var user: XUser {
    XUser(
      id: id, username: username, name: name, createdAt: createdAt.flatMap(RFC3339.date(from:)), description: description, location: location,
      protected: protected, verified: verified,
      metrics: publicMetrics.map {
        UserMetrics(followers: $0.followersCount, following: $0.followingCount, tweets: $0.tweetCount, listed: $0.listedCount)
      })
  }
}

extension V2Envelope where Payload == [V2User] {
  var users: [XUser] { (data ?? []).map(\.user) }
}

struct V2Tweet: Decodable, Sendable {
  let id: String
  let text: String
  let authorID: String?
  let createdAt: String?
  let publicMetrics: PublicMetrics?
  /// A long post's whole text (`tweet.fields=note_tweet`): X cuts `text` short for those.
  let noteTweet: NoteTweet?
  let lang: String?
  let conversationID: String?
  let inReplyToUserID: String?
  let referencedTweets: [Reference]?
  let entities: V2Entities?
  let attachments: Attachments?
  let possiblySensitive: Bool?
  let editHistoryTweetIDs: [String]?
  let paidPartnership: Bool?

  struct NoteTweet: Decodable, Sendable {
    let text: String
    /// The whole post's entities: those of `text` stop where X cut it.
    let entities: V2Entities?
  }

  struct Reference: Decodable, Sendable {
    let type: String
    let id: String
  }

  struct Attachments: Decodable, Sendable {
    let mediaKeys: [String]?
    enum CodingKeys: String, CodingKey { case mediaKeys = "media_keys" }
  }

  struct V2Entities: Decodable, Sendable {
    let urls: [Entities.Link]?
    let mentions: [Mention]?
    let hashtags: [Hashtag]?
    struct Mention: Decodable, Sendable { let username: String }
    struct Hashtag: Decodable, Sendable { let tag: String }

    var entities: Entities {
      Entities(urls: urls ?? [], mentions: (mentions ?? []).map(\.username), hashtags: (hashtags ?? []).map(\.tag))
    }
  }

  struct PublicMetrics: Decodable, Sendable {
    let retweetCount: Int
    let replyCount: Int?
    let likeCount: Int
    let quoteCount: Int?
    let bookmarkCount: Int?
    let impressionCount: Int?

    enum CodingKeys: String, CodingKey {
      case retweetCount = "retweet_count"
      case replyCount = "reply_count"
      case likeCount = "like_count"
      case quoteCount = "quote_count"
      case bookmarkCount = "bookmark_count"
      case impressionCount = "impression_count"
    }
  }

  enum CodingKeys: String, CodingKey {
    case id, text, lang, entities, attachments
    case authorID = "author_id"
    case createdAt = "created_at"
    case publicMetrics = "public_metrics"
    case noteTweet = "note_tweet"
    case conversationID = "conversation_id"
    case inReplyToUserID = "in_reply_to_user_id"
    case referencedTweets = "referenced_tweets"
    case possiblySensitive = "possibly_sensitive"
    case editHistoryTweetIDs = "edit_history_tweet_ids"
    case paidPartnership = "paid_partnership"
  }

  /// The tweet, its whole text, and what `includes` expands: the author, the media and (one
  /// level deep, as X expands them) the referenced tweets.
  func tweet(_ expansions: V2Expansions, expandingReferences: Bool = true) -> Tweet {
    let author = authorID.map { id in
      Author(id: id, username: expansions.users[id]?.username, name: expansions.users[id]?.name)
    }
    let references = referencedTweets?.compactMap { reference -> ReferencedTweet? in
      guard let kind = ReferencedTweet.Kind(rawValue: reference.type) else { return nil }
      let expanded = expandingReferences ? expansions.tweets[reference.id]?.tweet(expansions, expandingReferences: false) : nil
      return ReferencedTweet(kind: kind, id: reference.id, tweet: expanded)
    }
    let media = attachments?.mediaKeys?.map { key in expansions.media[key]?.media ?? Media(key: key, type: "unknown") }
    return Tweet(
      id: id, text: noteTweet?.text ?? text, createdAt: createdAt.flatMap(RFC3339.date(from:)), author: author,
      metrics: publicMetrics.map {
        Metrics(
          retweets: $0.retweetCount, replies: $0.replyCount, likes: $0.likeCount, quotes: $0.quoteCount, bookmarks: $0.bookmarkCount,
          impressions: $0.impressionCount)
      },
      lang: lang, conversationID: conversationID, inReplyToUserID: inReplyToUserID, referencedTweets: references,
      entities: (noteTweet?.entities ?? entities)?.entities, media: media, possiblySensitive: possiblySensitive,
      editHistoryTweetIDs: editHistoryTweetIDs, paidPartnership: paidPartnership)
  }
}

extension V2Envelope where Payload == [V2Tweet] {
  var tweets: [Tweet] {
    let expansions = V2Expansions(includes)
    return (data ?? []).map { $0.tweet(expansions) }
  }
}

extension V2Envelope where Payload == V2Tweet {
  var tweet: Tweet? {
    data?.tweet(V2Expansions(includes))
  }
}

/// A v2 problem: a partial error inside a 200 response, or the body of a failed one.
public struct XProblem: Decodable, Sendable, Hashable, CustomStringConvertible {
  /// A short name for the kind of problem, such as `Not Found Error`; `nil` when X sends only a ``XProblem/message``.
  public let title: String?
  /// X's sentence about this occurrence, such as `Could not find tweet with ids: [20].`; what ``XProblem/description``
  /// shows first.
  public let detail: String?
  /// A URI naming the kind of problem, such as `https://api.twitter.com/2/problems/resource-not-found`; match its end
  /// (`resource-not-found`) rather than the whole URI.
  public let type: String?
  /// The value from the request that the problem is about, such as the tweet id that was not found.
  public let value: String?
  /// The kind of resource the problem is about (`resource_type`), such as `tweet` or `user`.
  public let resourceType: String?
  /// The request parameter the problem is about, such as `ids` or `id`.
  public let parameter: String?
  /// The id of the resource the problem is about (`resource_id`), such as the tweet id that was not found.
  public let resourceID: String?
  /// A plain message, which X sends instead of ``XProblem/title`` and ``XProblem/detail`` in some errors, such as those
  /// about an invalid request.
  public let message: String?

  enum CodingKeys: String, CodingKey {
    case title, detail, type, value, parameter, message
    case resourceType = "resource_type"
    case resourceID = "resource_id"
  }

  public var description: String {
    detail ?? message ?? title ?? "unknown problem"
  }
}
