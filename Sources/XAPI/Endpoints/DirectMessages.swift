import NetworkClient

/// The pages of direct-message events.
public typealias DMEventPages = Pages<DMEvent>

extension Page where Item == DMEvent {
  /// The page's events (its ``Page/items``).
  public var events: [DMEvent] { items }
}

/// Direct messages (`x-api/direct-messages`): the authenticated user's events (all, with one
/// user, in one conversation), sending a message to a user or into a conversation, and starting
/// a group conversation. They take user context (OAuth 2.0 with `dm.read` or `dm.write`); each
/// event read is billed as a DM event ($0.010), each message sent as an interaction ($0.015).
///
/// ```swift
/// let sent = try await client.v2.sendDM(to: "1002", text: "Lunch at noon?")
/// for try await page in client.v2.dmEvents(conversationID: sent.conversationID) { page.events.forEach { print($0.text ?? "") } }
/// ```
extension XClient.V2 {
  /// The `dm_event.fields` that fill every property of ``DMEvent``.
  public static let defaultDMEventFields = [
    "id", "event_type", "text", "sender_id", "dm_conversation_id", "created_at", "participant_ids", "attachments",
  ]

  /// `GET /2/dm_events`: the authenticated user's events in every conversation, newest first,
  /// paged (1 to 100).
  public func dmEvents(limit: Int? = nil) -> DMEventPages {
    dmPages(.getDirectMessagesEvents, [], limit: limit)
  }

  /// `GET /2/dm_conversations/with/:participant_id/dm_events`: the events of the one-to-one
  /// conversation with a user.
  public func dmEvents(with participantID: String, limit: Int? = nil) -> DMEventPages {
    dmPages(.getDirectMessagesEventsByParticipantId, [participantID], limit: limit)
  }

  /// `GET /2/dm_conversations/:id/dm_events`: the events of one conversation.
  public func dmEvents(conversationID: String, limit: Int? = nil) -> DMEventPages {
    dmPages(.getDirectMessagesEventsByConversationId, [conversationID], limit: limit)
  }

  /// `POST /2/dm_conversations/with/:participant_id/messages`: a message to a user (in your
  /// one-to-one conversation, created if need be), with media uploaded for DMs.
  public func sendDM(to participantID: String, text: String, mediaIDs: [String] = []) async throws(XError) -> DMSent {
    try await sent(.createDirectMessagesByParticipantId, [participantID], Message(text: text, mediaIDs: mediaIDs))
  }

  /// `POST /2/dm_conversations/:dm_conversation_id/messages`: a message into a conversation.
  public func sendDM(conversationID: String, text: String, mediaIDs: [String] = []) async throws(XError) -> DMSent {
    try await sent(.createDirectMessagesByConversationId, [conversationID], Message(text: text, mediaIDs: mediaIDs))
  }

  /// `POST /2/dm_conversations` (`conversation_type` `Group`): a group conversation with these
  /// users, started with a message.
  public func createDMGroup(participantIDs: [String], text: String, mediaIDs: [String] = []) async throws(XError) -> DMSent {
    struct Body: Encodable, Sendable {
      let conversationType = "Group"
      let participantIDs: [String]
      let message: Message
      enum CodingKeys: String, CodingKey {
        case conversationType = "conversation_type"
        case participantIDs = "participant_ids"
        case message
      }
    }
    return try await sent(
      .createDirectMessagesConversation, [], Body(participantIDs: participantIDs, message: Message(text: text, mediaIDs: mediaIDs)))
  }

  // MARK: - Helpers

  /// A message's body: its text, and its attachments when there are any.
  private struct Message: Encodable, Sendable {
    let text: String
    let mediaIDs: [String]
    struct Attachment: Encodable, Sendable {
      let mediaID: String
      enum CodingKeys: String, CodingKey { case mediaID = "media_id" }
    }
    enum CodingKeys: String, CodingKey { case text, attachments }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(text, forKey: .text)
      if !mediaIDs.isEmpty { try container.encode(mediaIDs.map(Attachment.init), forKey: .attachments) }
    }
  }

  private func sent(_ endpoint: XEndpoint, _ values: [String], _ body: some Encodable & Sendable) async throws(XError) -> DMSent {
    let response = try await client.send(
      Request<V2Envelope<DMSent>>(method: endpoint.method, path: endpoint.filled(values), body: .json(body)))
    guard let sent = response.value.data else { throw .notFound(message: response.value.errors?.first?.description ?? "X sent no message") }
    return sent
  }

  private func dmPages(_ endpoint: XEndpoint, _ values: [String], limit: Int?) -> DMEventPages {
    let client = self.client
    let path = endpoint.filled(values)
    let largest = endpoint.pageSizes?.upperBound ?? 100
    let fields: [QueryItem] = [
      ("dm_event.fields", Self.defaultDMEventFields.joined(separator: ",")), ("expansions", "sender_id"), ("user.fields", "username"),
    ]
    return DMEventPages(
      limit: limit,
      sizedFetch: { cursor, wanted throws(XError) in
        var query = [("max_results", String(min(max(wanted ?? largest, 1), largest)))] + fields
        if case .token(let token) = cursor { query.append(("pagination_token", token)) }
        let response = try await client.send(Request<V2Envelope<[V2DMEvent]>>(path: path, query: query))
        let envelope = response.value
        let users = Dictionary((envelope.includes?.users ?? []).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return Page(
          items: (envelope.data ?? []).map { $0.event(users) }, next: envelope.meta?.nextToken.map(PageCursor.token),
          partialErrors: envelope.errors ?? [], rateLimit: response.response.rateLimit, body: response.response.body)
      })
  }
}
