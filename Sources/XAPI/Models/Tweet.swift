import Foundation

/// A tweet, the same whichever API version it came from.
///
/// ```swift
/// for try await tweet in client.v2.userTweets(userID: "12").tweets(limit: 50) {
///   print("@\(tweet.author?.username ?? "?")", tweet.text)
/// }
/// ```
public struct Tweet: Sendable, Hashable, Codable {
  /// The tweet's id: a decimal number as a string, because ids exceed what a `Double` holds exactly (v1.1's `id_str`).
  public var id: String
  /// The whole text of the post, links shortened to `https://t.co/...`. From v2, a post longer than 280 characters (a
  /// "long post") is whole only when `tweet.fields` includes `note_tweet` (the default ``TimelineOptions`` do): X then
  /// sends it in `note_tweet.text`, and cuts `text` short. From v1.1 it is whole up to 280 characters only with
  /// `tweet_mode=extended` (``V1TimelineOptions/extended``, on by default); v1.1 has no long posts, so they come cut.
  public var text: String
  /// When the tweet was posted. v2 sends it only when `tweet.fields` includes `created_at` (as the default
  /// ``TimelineOptions`` do); `nil` without it, when the date cannot be read, and on the tweet `client.v2.post(text:)` returns.
  public var createdAt: Date?
  /// Who wrote the tweet. From v2 it is `nil` unless `tweet.fields` includes `author_id`, and holds only ``Author/id``
  /// unless `expansions` includes `author_id` too (the defaults have both); from v1.1 it is the embedded `user`.
  public var author: Author?
  /// The public counts. v2 sends them only when `tweet.fields` includes `public_metrics` (as the default ``TimelineOptions``
  /// do); v1.1 sends `retweet_count` and `favorite_count`. `nil` when X sent none.
  public var metrics: Metrics?
  /// The language X detected (BCP 47: `en`, `fr`, `und` when it could not tell); v2 `lang`, v1.1 `lang`.
  public var lang: String?
  /// The id of the tweet that started the conversation this one belongs to (v2 only).
  public var conversationID: String?
  /// The author of the tweet this one replies to; v2 `in_reply_to_user_id`, v1.1 `in_reply_to_user_id_str`.
  public var inReplyToUserID: String?
  /// The tweets this one replies to, quotes or retweets, each with the tweet itself when X
  /// expanded it (v2 `referenced_tweets.id` in `includes.tweets`; v1.1 `retweeted_status` and
  /// `quoted_status`, always embedded).
  public var referencedTweets: [ReferencedTweet]?
  /// Links (with their expanded URL), mentions and hashtags in the text.
  public var entities: Entities?
  /// Attached photos, videos and GIFs (v2 `attachments.media_keys` expanded into `includes.media`;
  /// v1.1 `extended_entities.media`).
  public var media: [Media]?
  /// Whether X marks the post as possibly sensitive (its links or media).
  public var possiblySensitive: Bool?
  /// The ids of every version of an edited post, oldest first (v2 `edit_history_tweet_ids`).
  public var editHistoryTweetIDs: [String]?
  /// Whether the author marked the post as a paid partnership (v2 `tweet.fields=paid_partnership`).
  public var paidPartnership: Bool?

  /// A tweet from its parts, for tests, fakes and tweets from other sources; the endpoints build their own.
  public init(
    id: String, text: String, createdAt: Date? = nil, author: Author? = nil, metrics: Metrics? = nil, lang: String? = nil,
    conversationID: String? = nil, inReplyToUserID: String? = nil, referencedTweets: [ReferencedTweet]? = nil, entities: Entities? = nil,
    media: [Media]? = nil, possiblySensitive: Bool? = nil, editHistoryTweetIDs: [String]? = nil, paidPartnership: Bool? = nil
  ) {
    self.id = id
    self.text = text
    self.createdAt = createdAt
    self.author = author
    self.metrics = metrics
    self.lang = lang
    self.conversationID = conversationID
    self.inReplyToUserID = inReplyToUserID
    self.referencedTweets = referencedTweets
    self.entities = entities
    self.media = media
    self.possiblySensitive = possiblySensitive
    self.editHistoryTweetIDs = editHistoryTweetIDs
    self.paidPartnership = paidPartnership
  }

  enum CodingKeys: String, CodingKey {
    case id, text, author, metrics, lang, entities, media
    case paidPartnership = "paid_partnership"
    case createdAt = "created_at"
    case conversationID = "conversation_id"
    case inReplyToUserID = "in_reply_to_user_id"
    case referencedTweets = "referenced_tweets"
    case possiblySensitive = "possibly_sensitive"
    case editHistoryTweetIDs = "edit_history_tweet_ids"
  }
}

/// A tweet another one replies to, quotes or retweets.
public struct ReferencedTweet: Sendable, Hashable, Codable {
  /// How the tweets relate.
  public enum Kind: String, Sendable, Hashable, Codable {
    /// The tweet replies to the referenced one.
    case repliedTo = "replied_to"
    /// The tweet quotes the referenced one.
    case quoted
    /// The tweet is a retweet of the referenced one.
    case retweeted
  }

  /// How the tweets relate.
  public var kind: Kind
  /// The referenced tweet's id.
  public var id: String
  /// The referenced tweet, when X sent it (expanded, or embedded in v1.1); `nil` otherwise, or
  /// when it was deleted or is not visible.
  public var tweet: Tweet?

  /// A reference of `kind` to the tweet `id`.
  public init(kind: Kind, id: String, tweet: Tweet? = nil) {
    self.kind = kind
    self.id = id
    self.tweet = tweet
  }

  enum CodingKeys: String, CodingKey {
    case id, tweet
    case kind = "type"
  }
}

/// What X found in a tweet's text.
public struct Entities: Sendable, Hashable, Codable {
  /// A link: the `t.co` URL in the text and where it leads.
  public struct Link: Sendable, Hashable, Codable {
    /// The `https://t.co/...` URL as it appears in the text.
    public var url: String
    /// The URL the link leads to.
    public var expandedURL: String?
    /// How X shows it (`example.com/a…`).
    public var displayURL: String?

    /// A link from its parts.
    public init(url: String, expandedURL: String? = nil, displayURL: String? = nil) {
      self.url = url
      self.expandedURL = expandedURL
      self.displayURL = displayURL
    }

    enum CodingKeys: String, CodingKey {
      case url
      case expandedURL = "expanded_url"
      case displayURL = "display_url"
    }
  }

  /// The links, in text order.
  public var urls: [Link]
  /// The usernames mentioned (without `@`), in text order.
  public var mentions: [String]
  /// The hashtags (without `#`), in text order.
  public var hashtags: [String]

  /// Entities from their parts.
  public init(urls: [Link] = [], mentions: [String] = [], hashtags: [String] = []) {
    self.urls = urls
    self.mentions = mentions
    self.hashtags = hashtags
  }

  /// Whether there is nothing at all.
  public var isEmpty: Bool { urls.isEmpty && mentions.isEmpty && hashtags.isEmpty }
}

/// A photo, video or GIF attached to a tweet.
public struct Media: Sendable, Hashable, Codable {
  /// X's key for the media: v2's `media_key` (`3_1234...`), or v1.1's `id_str`.
  public var key: String
  /// `photo`, `video` or `animated_gif`.
  public var type: String
  /// The image's URL (photos), or a preview image's (videos and GIFs).
  public var url: String?
  /// The description the author wrote for people who cannot see it.
  public var altText: String?
  /// A video's or GIF's files (`media.fields=variants`): the mp4s at their bit rates and the
  /// HLS playlist; `nil` when X was not asked for them (or sent none, as for a photo).
  public var variants: [MediaVariant]?

  /// Media from its parts.
  public init(key: String, type: String, url: String? = nil, altText: String? = nil, variants: [MediaVariant]? = nil) {
    self.key = key
    self.type = type
    self.url = url
    self.altText = altText
    self.variants = variants
  }

  enum CodingKeys: String, CodingKey {
    case key, type, url, variants
    case altText = "alt_text"
  }
}

/// Who wrote a tweet.
public struct Author: Sendable, Hashable, Codable {
  /// The author's user id, a decimal number as a string (v2's `author_id`, v1.1's `user.id_str`).
  public var id: String
  /// The author's handle, without the `@`. From v2 only when `expansions` includes `author_id` (the default) and X returned
  /// the user in `includes.users`; from v1.1, the user's `screen_name`.
  public var username: String?
  /// The author's display name, free text chosen by the user; present under the same conditions as ``Author/username``.
  public var name: String?

  /// An author from its parts; only the id is required.
  public init(id: String, username: String? = nil, name: String? = nil) {
    self.id = id
    self.username = username
    self.name = name
  }
}

/// A tweet's public counts.
public struct Metrics: Sendable, Hashable, Codable {
  /// How many times the tweet was retweeted (`retweet_count`).
  public var retweets: Int
  /// How many replies the tweet has (v2's `reply_count`); `nil` from v1.1, which does not send it.
  public var replies: Int?
  /// How many likes the tweet has (v2's `like_count`, v1.1's `favorite_count`; 0 when v1.1 leaves it out).
  public var likes: Int
  /// How many times the tweet was quoted (v2's `quote_count`); `nil` from v1.1, which does not send it.
  public var quotes: Int?
  /// How many accounts bookmarked the tweet (v2's `bookmark_count`); `nil` from v1.1 and from
  /// answers older than the field.
  public var bookmarks: Int?
  /// How many times the tweet was seen (v2's `impression_count`); `nil` from v1.1 and from
  /// answers older than the field.
  public var impressions: Int?

  /// Counts from their parts; all but retweets and likes are optional because v1.1 does not send them.
  public init(retweets: Int, replies: Int? = nil, likes: Int, quotes: Int? = nil, bookmarks: Int? = nil, impressions: Int? = nil) {
    self.retweets = retweets
    self.replies = replies
    self.likes = likes
    self.quotes = quotes
    self.bookmarks = bookmarks
    self.impressions = impressions
  }
}

/// An account.
public struct XUser: Sendable, Hashable, Codable {
  /// The user's id, a decimal number as a string: what `client.v2.userTweets(userID:)` and the other timelines take.
  public var id: String
  /// The user's handle, without the `@` (v1.1's `screen_name`); empty if v1.1 left it out.
  public var username: String
  /// The user's display name, free text chosen by the user; empty if v1.1 left it out.
  public var name: String
  /// When the account was created (v2 `user.fields=created_at`).
  public var createdAt: Date?
  /// The profile's text.
  public var description: String?
  /// The place the user wrote on the profile (free text).
  public var location: String?
  /// Whether the account's tweets are protected (visible to its followers only).
  public var protected: Bool?
  /// Whether X shows the account as verified.
  public var verified: Bool?
  /// The account's public counts.
  public var metrics: UserMetrics?

  /// A user from its parts, for tests and fakes; the endpoints build their own.
  public init(
    id: String, username: String, name: String, createdAt: Date? = nil, description: String? = nil, location: String? = nil,
    protected: Bool? = nil, verified: Bool? = nil, metrics: UserMetrics? = nil
  ) {
    self.id = id
    self.username = username
    self.name = name
    self.createdAt = createdAt
    self.description = description
    self.location = location
    self.protected = protected
    self.verified = verified
    self.metrics = metrics
  }

  enum CodingKeys: String, CodingKey {
    case id, username, name, description, location, protected, verified, metrics
    case createdAt = "created_at"
  }
}

/// An account's public counts (v2 `public_metrics`).
public struct UserMetrics: Sendable, Hashable, Codable {
  /// Accounts that follow it.
  public var followers: Int
  /// Accounts it follows.
  public var following: Int
  /// Tweets it posted.
  public var tweets: Int
  /// Lists it is on.
  public var listed: Int?

  /// Counts from their parts.
  public init(followers: Int, following: Int, tweets: Int, listed: Int? = nil) {
    self.followers = followers
    self.following = following
    self.tweets = tweets
    self.listed = listed
  }
}
