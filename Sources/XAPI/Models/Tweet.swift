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

  /// A tweet from its parts, for tests, fakes and tweets from other sources; the endpoints build their own.
  public init(id: String, text: String, createdAt: Date? = nil, author: Author? = nil, metrics: Metrics? = nil) {
    self.id = id
    self.text = text
    self.createdAt = createdAt
    self.author = author
    self.metrics = metrics
  }

  enum CodingKeys: String, CodingKey {
    case id, text, author, metrics
    case createdAt = "created_at"
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

  /// Counts from their parts; replies and quotes are optional because v1.1 does not send them.
  public init(retweets: Int, replies: Int? = nil, likes: Int, quotes: Int? = nil) {
    self.retweets = retweets
    self.replies = replies
    self.likes = likes
    self.quotes = quotes
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

  /// A user from its parts, for tests and fakes; the endpoints build their own.
  public init(id: String, username: String, name: String) {
    self.id = id
    self.username = username
    self.name = name
  }
}
