import DateFormats
import Foundation

/// Which side of a directional event a subscription receives (X's `filter.direction`, since
/// 2026-03-18): `inbound` (to the user: a new follower), `outbound` (by the user: a follow).
///
/// ```swift
/// try await app.v2.createActivitySubscription(eventType: "follow.follow", userID: "2244994945", direction: .inbound)
/// ```
public enum XActivityDirection: String, Sendable, Hashable, Codable, CaseIterable {
  /// Events that reach the user.
  case inbound
  /// Events the user causes.
  case outbound
}

/// One subscription of the X Activity API: one event type of one account, delivered on the
/// activity stream (``ActivityStream``) or, with a webhook id, to that webhook.
///
/// ```swift
/// for subscription in try await app.v2.activitySubscriptions() {
///   print(subscription.id, subscription.eventType, subscription.userID ?? "-")
/// }
/// ```
public struct XActivitySubscription: Sendable, Hashable, Codable {
  /// X's id of the subscription: what ``XClient/V2/deleteActivitySubscription(id:)`` takes.
  public let id: String
  /// The event type in X's dotted notation (`post.create`, `follow.follow`...).
  public let eventType: String
  /// The account the subscription watches.
  public let userID: String?
  /// The direction filter, when X has one for the event type.
  public let direction: XActivityDirection?
  /// The keyword filter, when one was given.
  public let keyword: String?
  /// The caller's tag.
  public let tag: String?
  /// The webhook the events go to; `nil` for the activity stream.
  public let webhookID: String?
  /// When it was created.
  public let createdAt: Date?

  /// A subscription from its parts, for tests and emulators.
  public init(
    id: String, eventType: String, userID: String?, direction: XActivityDirection? = nil, keyword: String? = nil, tag: String? = nil,
    webhookID: String? = nil, createdAt: Date? = nil
  ) {
    self.id = id
    self.eventType = eventType
    self.userID = userID
    self.direction = direction
    self.keyword = keyword
    self.tag = tag
    self.webhookID = webhookID
    self.createdAt = createdAt
  }

  enum CodingKeys: String, CodingKey {
    case id = "subscription_id"
    case eventType = "event_type"
    case filter, tag
    case webhookID = "webhook_id"
    case createdAt = "created_at"
  }

  /// X's `filter` object.
  struct Filter: Codable, Sendable {
    let userID: String?
    let direction: String?
    let keyword: String?
    enum CodingKeys: String, CodingKey {
      case userID = "user_id"
      case direction, keyword
    }
  }

  /// Decodes X's object (`subscription_id`, `event_type`, `filter`, ...); an unknown direction
  /// is read as none.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(String.self, forKey: .id)
    eventType = try container.decode(String.self, forKey: .eventType)
    let filter = try container.decodeIfPresent(Filter.self, forKey: .filter)
    userID = filter?.userID
    direction = filter?.direction.flatMap(XActivityDirection.init(rawValue:))
    keyword = filter?.keyword
    tag = try container.decodeIfPresent(String.self, forKey: .tag)
    webhookID = try container.decodeIfPresent(String.self, forKey: .webhookID)
    createdAt = try container.decodeIfPresent(String.self, forKey: .createdAt).flatMap(RFC3339.date(from:))
  }

  /// Encodes X's object back.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(eventType, forKey: .eventType)
    try container.encode(Filter(userID: userID, direction: direction?.rawValue, keyword: keyword), forKey: .filter)
    try container.encodeIfPresent(tag, forKey: .tag)
    try container.encodeIfPresent(webhookID, forKey: .webhookID)
    try container.encodeIfPresent(createdAt.map(RFC3339.string(from:)), forKey: .createdAt)
  }
}
