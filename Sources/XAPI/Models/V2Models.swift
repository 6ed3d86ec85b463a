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

  var user: XUser { XUser(id: id, username: username, name: name) }
}

struct V2Tweet: Decodable, Sendable {
  let id: String
  let text: String
  let authorID: String?
  let createdAt: String?
  let publicMetrics: PublicMetrics?
  /// A long post's whole text (`tweet.fields=note_tweet`): X cuts `text` short for those.
  let noteTweet: NoteTweet?

  struct NoteTweet: Decodable, Sendable {
    let text: String
  }

  struct PublicMetrics: Decodable, Sendable {
    let retweetCount: Int
    let replyCount: Int?
    let likeCount: Int
    let quoteCount: Int?

    enum CodingKeys: String, CodingKey {
      case retweetCount = "retweet_count"
      case replyCount = "reply_count"
      case likeCount = "like_count"
      case quoteCount = "quote_count"
    }
  }

  enum CodingKeys: String, CodingKey {
    case id, text
    case authorID = "author_id"
    case createdAt = "created_at"
    case publicMetrics = "public_metrics"
    case noteTweet = "note_tweet"
  }

  /// The tweet with its author resolved from `includes.users`, and its whole text.
  func tweet(users: [String: V2User]) -> Tweet {
    let author = authorID.map { id in
      Author(id: id, username: users[id]?.username, name: users[id]?.name)
    }
    return Tweet(
      id: id, text: noteTweet?.text ?? text, createdAt: createdAt.flatMap(XDates.iso8601), author: author,
      metrics: publicMetrics.map {
        Metrics(retweets: $0.retweetCount, replies: $0.replyCount, likes: $0.likeCount, quotes: $0.quoteCount)
      })
  }
}

extension V2Envelope where Payload == [V2Tweet] {
  var tweets: [Tweet] {
    let users = Dictionary((includes?.users ?? []).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    return (data ?? []).map { $0.tweet(users: users) }
  }
}

extension V2Envelope where Payload == V2Tweet {
  var tweet: Tweet? {
    let users = Dictionary((includes?.users ?? []).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    return data?.tweet(users: users)
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
