import DateFormats
import Foundation

/// A direct-message event: a message (`MessageCreate`), or someone joining or leaving a group
/// conversation (`ParticipantsJoin`, `ParticipantsLeave`), with the `dm_event.fields`
/// ``XClient/V2/defaultDMEventFields`` and the sender's username (`expansions=sender_id`).
///
/// ```swift
/// for try await page in client.v2.dmEvents(limit: 50) {
///   for event in page.events where event.eventType == "MessageCreate" { print(event.senderUsername ?? "?", event.text ?? "") }
/// }
/// ```
public struct DMEvent: Sendable, Hashable, Encodable {
  /// X's id of the event.
  public let id: String
  /// `MessageCreate`, `ParticipantsJoin` or `ParticipantsLeave`.
  public let eventType: String
  /// A message's text.
  public let text: String?
  /// Who sent it.
  public let senderID: String?
  /// The sender's username, when X expanded the sender.
  public let senderUsername: String?
  /// The conversation: `LOW-HIGH` user ids for two people, a number for a group.
  public let conversationID: String?
  /// When it happened.
  public let createdAt: Date?
  /// Who joined or left, for the participant events.
  public let participantIDs: [String]?
  /// The media keys of a message's attachments.
  public let mediaKeys: [String]?

  /// An event from its parts, for tests and emulators.
  public init(
    id: String, eventType: String, text: String? = nil, senderID: String? = nil, senderUsername: String? = nil, conversationID: String? = nil,
    createdAt: Date? = nil, participantIDs: [String]? = nil, mediaKeys: [String]? = nil
  ) {
    self.id = id
    self.eventType = eventType
    self.text = text
    self.senderID = senderID
    self.senderUsername = senderUsername
    self.conversationID = conversationID
    self.createdAt = createdAt
    self.participantIDs = participantIDs
    self.mediaKeys = mediaKeys
  }

  enum CodingKeys: String, CodingKey {
    case id
    case eventType = "event_type"
    case text
    case senderID = "sender_id"
    case senderUsername = "sender_username"
    case conversationID = "dm_conversation_id"
    case createdAt = "created_at"
    case participantIDs = "participant_ids"
    case mediaKeys = "media_keys"
  }

  /// X's keys, `created_at` in RFC 3339; absent values left out.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(eventType, forKey: .eventType)
    try container.encodeIfPresent(text, forKey: .text)
    try container.encodeIfPresent(senderID, forKey: .senderID)
    try container.encodeIfPresent(senderUsername, forKey: .senderUsername)
    try container.encodeIfPresent(conversationID, forKey: .conversationID)
    try container.encodeIfPresent(createdAt.map(RFC3339.string(from:)), forKey: .createdAt)
    try container.encodeIfPresent(participantIDs, forKey: .participantIDs)
    try container.encodeIfPresent(mediaKeys, forKey: .mediaKeys)
  }
}

/// A message X accepted: where it went and its event's id (`{"data": {"dm_conversation_id",
/// "dm_event_id"}}`).
public struct DMSent: Sendable, Hashable, Decodable {
  /// The conversation it went to (created for a new one).
  public let conversationID: String
  /// The message's event id.
  public let eventID: String

  enum CodingKeys: String, CodingKey {
    case conversationID = "dm_conversation_id"
    case eventID = "dm_event_id"
  }
}

/// An event as X sends it.
struct V2DMEvent: Decodable, Sendable {
  let id: String
  let eventType: String
  let text: String?
  let senderId: String?
  let dmConversationId: String?
  let createdAt: String?
  let participantIds: [String]?
  let attachments: Attachments?

  struct Attachments: Decodable, Sendable {
    let mediaKeys: [String]?
    enum CodingKeys: String, CodingKey { case mediaKeys = "media_keys" }
  }

  enum CodingKeys: String, CodingKey {
    case id
    case eventType = "event_type"
    case text
    case senderId = "sender_id"
    case dmConversationId = "dm_conversation_id"
    case createdAt = "created_at"
    case participantIds = "participant_ids"
    case attachments
  }

  /// The event, its sender's username looked up in `includes.users`.
  func event(_ users: [String: V2User]) -> DMEvent {
    DMEvent(
      id: id, eventType: eventType, text: text, senderID: senderId, senderUsername: senderId.flatMap { users[$0]?.username },
      conversationID: dmConversationId, createdAt: createdAt.flatMap(RFC3339.date(from:)), participantIDs: participantIds,
      mediaKeys: attachments?.mediaKeys)
  }
}
