import Foundation

/// A tweet, the same whichever API version it came from.
///
/// ```swift
/// for try await tweet in client.v2.userTweets(userID: "12").tweets(limit: 50) {
///   print("@\(tweet.author?.username ?? "?")", tweet.text)
/// }
/// ```
public struct Tweet: Sendable, Hashable, Codable {
  public var id: String
  public var text: String
  public var createdAt: Date?
  public var author: Author?
  public var metrics: Metrics?

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
  public var id: String
  public var username: String?
  public var name: String?

  public init(id: String, username: String? = nil, name: String? = nil) {
    self.id = id
    self.username = username
    self.name = name
  }
}

/// A tweet's public counts.
public struct Metrics: Sendable, Hashable, Codable {
  public var retweets: Int
  public var replies: Int?
  public var likes: Int
  public var quotes: Int?

  public init(retweets: Int, replies: Int? = nil, likes: Int, quotes: Int? = nil) {
    self.retweets = retweets
    self.replies = replies
    self.likes = likes
    self.quotes = quotes
  }
}

/// An account.
public struct XUser: Sendable, Hashable, Codable {
  public var id: String
  public var username: String
  public var name: String

  public init(id: String, username: String, name: String) {
    self.id = id
    self.username = username
    self.name = name
  }
}
