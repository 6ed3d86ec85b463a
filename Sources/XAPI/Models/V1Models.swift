import Foundation

/// The wire format of API v1.1 tweets: numeric ids with `id_str`, `text` or `full_text`, and
/// the v1.1 date format.
struct V1Tweet: Decodable, Sendable {
  let idStr: String
  let text: String?
  let fullText: String?
  let createdAt: String?
  let user: V1User?
  let retweetCount: Int?
  let favoriteCount: Int?

  enum CodingKeys: String, CodingKey {
    case text, user
    case idStr = "id_str"
    case fullText = "full_text"
    case createdAt = "created_at"
    case retweetCount = "retweet_count"
    case favoriteCount = "favorite_count"
  }

  var tweet: Tweet {
    Tweet(
      id: idStr, text: fullText ?? text ?? "", createdAt: createdAt.flatMap(XDates.v1),
      author: user.map { Author(id: $0.idStr, username: $0.screenName, name: $0.name) },
      metrics: retweetCount.map { Metrics(retweets: $0, likes: favoriteCount ?? 0) })
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

/// The two date formats of the API.
enum XDates {
  /// v2: `2024-05-01T12:00:00.000Z` (fractional seconds optional).
  static func iso8601(_ text: String) -> Date? {
    let fractional = ISO8601DateFormatter()
    fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    if let date = fractional.date(from: text) { return date }
    return ISO8601DateFormatter().date(from: text)
  }

  /// v1.1: `Wed May 01 12:00:00 +0000 2024`.
  static func v1(_ text: String) -> Date? {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "EEE MMM dd HH:mm:ss Z yyyy"
    return formatter.date(from: text)
  }
}
