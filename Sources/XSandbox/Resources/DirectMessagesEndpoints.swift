import DateFormats
import Foundation

/// Direct messages (`x-api/direct-messages/*`): the caller's events (all, with one user, in one
/// conversation) and sending a message to a user, into a conversation, or to a new group. User
/// context only (OAuth 2.0 with `dm.read` or `dm.write`); a conversation is its participants'
/// only. Each event read is billed as a DM event, each message sent as an interaction. The
/// family keeps its own state (``SandboxDMState``) and changes nothing else.
extension SandboxRoute {
  static let dmReadParameters = pageParameters + ["event_types", "dm_event.fields", "expansions", "user.fields"]
  static let dmReadScopes = ["dm.read", "tweet.read", "users.read"]
  static let dmWriteScopes = ["dm.write", "tweet.read", "users.read"]

  static let directMessages: [SandboxRoute] = [
    SandboxRoute(
      method: "GET", pattern: ["2", "dm_events"], name: "v2_dm_events", limit: 300, bearerOK: false, allowed: dmReadParameters,
      scopes: dmReadScopes, billing: .resources(.dmEvent),
      handler: on(\.directMessages) { dms, state, ctx in dms.page(ctx) { _ in true } }),
    SandboxRoute(
      method: "GET", pattern: ["2", "dm_conversations", "with", "*", "dm_events"], name: "v2_dm_with", limit: 300, bearerOK: false,
      allowed: dmReadParameters, scopes: dmReadScopes, billing: .resources(.dmEvent),
      handler: on(\.directMessages) { dms, state, ctx in dms.withParticipant(ctx) }),
    SandboxRoute(
      method: "GET", pattern: ["2", "dm_conversations", "*", "dm_events"], name: "v2_dm_conversation", limit: 300, bearerOK: false,
      allowed: dmReadParameters, scopes: dmReadScopes, billing: .resources(.dmEvent),
      handler: on(\.directMessages) { dms, state, ctx in dms.inConversation(ctx) }),
    SandboxRoute(
      method: "POST", pattern: ["2", "dm_conversations", "with", "*", "messages"], name: "v2_dm_send_with", limit: nil, bearerOK: false,
      scopes: dmWriteScopes, billing: .request(.interaction),
      handler: on(\.directMessages) { dms, state, ctx in dms.sendToParticipant(ctx, state) }),
    SandboxRoute(
      method: "POST", pattern: ["2", "dm_conversations", "*", "messages"], name: "v2_dm_send", limit: nil, bearerOK: false,
      scopes: dmWriteScopes, billing: .request(.interaction),
      handler: on(\.directMessages) { dms, state, ctx in dms.sendToConversation(ctx, state) }),
    SandboxRoute(
      method: "POST", pattern: ["2", "dm_conversations"], name: "v2_dm_group", limit: nil, bearerOK: false, scopes: dmWriteScopes,
      billing: .request(.interaction), handler: on(\.directMessages) { dms, state, ctx in dms.createGroup(ctx, state) }),
  ]
}

// MARK: - Handlers (lock held)

extension SandboxDMState {
  /// `^([0-9]{1,19}-[0-9]{1,19}|[0-9]{15,19})$`: X's pattern of a conversation id.
  static func isConversationID(_ text: String) -> Bool {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
    if parts.count == 2 { return parts.allSatisfy(isID) }
    return parts.count == 1 && isID(text) && text.count >= 15
  }

  /// `GET /2/dm_events`, and the pages of the other reads: the caller's events that `keep`
  /// picks (and `event_types`), newest first, by position (`max_results` 1–100, 100 without it).
  func page(_ ctx: RouteContext, _ keep: (SandboxDMEvent) -> Bool) -> SandboxResponse {
    guard let me = ctx.caller.userID else { return .v2(403, XBodies.forbidden) }
    let types = splitList(ctx.query["event_types"])
    if let bad = types.first(where: { !["MessageCreate", "ParticipantsJoin", "ParticipantsLeave"].contains($0) }) {
      return .v2(
        400,
        XBodies.invalidRequest(
          "event_types", [bad], "The `event_types` query parameter value [\(bad)] is not one of [MessageCreate,ParticipantsJoin,ParticipantsLeave]"))
    }
    let found = events.filter { event in
      conversations[event.conversationID]?.contains(me) == true && keep(event) && (types.isEmpty || types.contains(event.eventType))
    }
    do throws(SandboxRefusal) {
      let (offset, count) = try positionPage(ctx.query, range: 1...100, defaultCount: 100, token: .users)
      let page = Array(found.dropFirst(offset).prefix(count))
      guard !page.isEmpty else { return .v2(200, SandboxState.emptyPage) }
      var meta: [(String, JSON)] = [("result_count", .int(page.count))]
      if offset + count < found.count { meta.append(("next_token", .string(PositionToken.users.encode(offset + count)))) }
      if offset > 0 { meta.append(("previous_token", .string(PositionToken.users.encode(max(0, offset - count))))) }
      var out: [(String, JSON)] = [("data", .array(page.map { render($0, ctx) }))]
      if splitList(ctx.query["expansions"]).contains("sender_id") {
        let senders = Array(Set(page.map(\.senderID))).sorted().compactMap { SandboxData.usersByID[$0] }
        let asked = Set(splitList(ctx.query["user.fields"]))
        out.append(
          (
            "includes",
            .object([
              (
                "users",
                .array(
                  senders.map { user in
                    var fields: [(String, JSON)] = [("id", .string(user.id)), ("name", .string(user.name)), ("username", .string(user.username))]
                    if asked.contains("created_at") {
                      fields.append(("created_at", .string(RFC3339.millisecondString(from: Date(epochSeconds: user.createdAt)))))
                    }
                    return .object(fields)
                  })
              )
            ])
          ))
      }
      out.append(("meta", .object(meta)))
      return .v2(200, .object(out))
    } catch {
      return error.response
    }
  }

  /// `GET /2/dm_conversations/with/:participant_id/dm_events`: the one-to-one conversation's.
  func withParticipant(_ ctx: RouteContext) -> SandboxResponse {
    let other = ctx.captures.first ?? ""
    if let bad = badID(other, parameter: "participant_id") { return bad }
    let conversation = Self.pair(ctx.caller.userID ?? "", other)
    return page(ctx) { $0.conversationID == conversation }
  }

  /// `GET /2/dm_conversations/:id/dm_events`: one conversation's, the caller's only (a 403).
  func inConversation(_ ctx: RouteContext) -> SandboxResponse {
    let id = ctx.captures.first ?? ""
    guard Self.isConversationID(id) else { return badConversation(id) }
    guard conversations[id]?.contains(ctx.caller.userID ?? "") == true else { return .v2(403, XBodies.forbidden) }
    return page(ctx) { $0.conversationID == id }
  }

  /// `POST /2/dm_conversations/with/:participant_id/messages`: into the one-to-one
  /// conversation, created on the first message; 201 `{"data": {dm_conversation_id, dm_event_id}}`.
  mutating func sendToParticipant(_ ctx: RouteContext, _ state: SandboxState) -> SandboxResponse {
    guard let me = ctx.caller.userID else { return .v2(403, XBodies.forbidden) }
    let other = ctx.captures.first ?? ""
    if let bad = badID(other, parameter: "participant_id") { return bad }
    guard other != me, SandboxData.usersByID[other] != nil else {
      return .v2(404, XBodies.missingResource(other, resourceType: "user", parameter: "participant_id"))
    }
    let conversation = Self.pair(me, other)
    if conversations[conversation] == nil { conversations[conversation] = [me, other].sorted() }
    return send(ctx, into: conversation, from: me, state)
  }

  /// `POST /2/dm_conversations/:dm_conversation_id/messages`: into a conversation of the caller's.
  mutating func sendToConversation(_ ctx: RouteContext, _ state: SandboxState) -> SandboxResponse {
    guard let me = ctx.caller.userID else { return .v2(403, XBodies.forbidden) }
    let id = ctx.captures.first ?? ""
    guard Self.isConversationID(id) else { return badConversation(id) }
    guard conversations[id]?.contains(me) == true else { return .v2(403, XBodies.forbidden) }
    return send(ctx, into: id, from: me, state)
  }

  /// `POST /2/dm_conversations` with `{"conversation_type": "Group", "participant_ids": [2…49
  /// ids], "message": {…}}`: a new group of the caller and those users, and its first message.
  mutating func createGroup(_ ctx: RouteContext, _ state: SandboxState) -> SandboxResponse {
    guard let me = ctx.caller.userID else { return .v2(403, XBodies.forbidden) }
    let body: [String: Any]
    do throws(SandboxRefusal) { body = try SandboxListsState.jsonObject(ctx) } catch { return error.response }
    guard body["conversation_type"] as? String == "Group" else {
      return .v2(400, XBodies.invalidBody("$.conversation_type: is missing but it is required, or is not one of [Group]"))
    }
    guard let ids = body["participant_ids"] as? [String], (2...49).contains(ids.count), Set(ids).count == ids.count, ids.allSatisfy(isID) else {
      return .v2(400, XBodies.invalidBody("$.participant_ids: is missing but it is required, or is not 2 to 49 unique ids"))
    }
    if let unknown = ids.first(where: { SandboxData.usersByID[$0] == nil }) {
      return .v2(404, XBodies.missingResource(unknown, resourceType: "user", parameter: "participant_ids"))
    }
    guard let message = body["message"] as? [String: Any] else {
      return .v2(400, XBodies.invalidBody("$.message: is missing but it is required"))
    }
    let content: (text: String?, mediaKeys: [String])
    do throws(SandboxRefusal) { content = try Self.message(message, state, at: "$.message") } catch { return error.response }
    let conversation = String(nextID())
    conversations[conversation] = Array(Set(ids + [me])).sorted()
    return record(content, into: conversation, from: me, now: ctx.now)
  }

  // MARK: - Helpers

  /// A message of the request's body (`{"text": …, "attachments": [{"media_id": …}]}`) into
  /// `conversation`.
  private mutating func send(_ ctx: RouteContext, into conversation: String, from me: String, _ state: SandboxState) -> SandboxResponse {
    let content: (text: String?, mediaKeys: [String])
    do throws(SandboxRefusal) {
      content = try Self.message(try SandboxListsState.jsonObject(ctx), state, at: "$")
    } catch {
      return error.response
    }
    return record(content, into: conversation, from: me, now: ctx.now)
  }

  /// A message's text and attachment, checked as X's `CreateMessageRequest` has them: a text,
  /// an attachment, or both; one attachment, uploaded for direct messages (a `dm_` category)
  /// and processed.
  static func message(_ object: [String: Any], _ state: SandboxState, at path: String) throws(SandboxRefusal) -> (
    text: String?, mediaKeys: [String]
  ) {
    func refuse(_ message: String) -> SandboxRefusal { SandboxRefusal(.v2(400, XBodies.invalidBody(message))) }
    let text = object["text"] as? String
    if let text, text.isEmpty || text.count > 10_000 { throw refuse("\(path).text: is not 1 to 10000 characters") }
    var keys: [String] = []
    if let value = object["attachments"] {
      guard let attachments = value as? [[String: Any]], attachments.count == 1, let id = attachments[0]["media_id"] as? String else {
        throw refuse("\(path).attachments: one attachment with a media_id is required")
      }
      guard let upload = state.media.uploads[id], upload.finalized, upload.state == "succeeded", upload.category.hasPrefix("dm_") else {
        throw refuse("\(path).attachments[0].media_id: is not media uploaded for direct messages")
      }
      keys = [SandboxState.mediaKey(id, upload.category)]
    }
    guard text != nil || !keys.isEmpty else { throw refuse("\(path).text: is missing but it is required") }
    return (text, keys)
  }

  /// Adds a message event: X's 201.
  private mutating func record(_ content: (text: String?, mediaKeys: [String]), into conversation: String, from me: String, now: Int64)
    -> SandboxResponse
  {
    var event = SandboxDMEvent(
      id: nextID(), eventType: "MessageCreate", conversationID: conversation, senderID: me, text: content.text, participantIDs: nil,
      createdAt: now)
    event.mediaKeys = content.mediaKeys
    events.insert(event, at: 0)
    return .v2(
      201, .object([("data", .object([("dm_conversation_id", .string(conversation)), ("dm_event_id", .string(String(event.id)))]))]))
  }

  /// An event with the `dm_event.fields` asked for (`id`, `event_type` and a message's `text`
  /// always, as X's defaults).
  private func render(_ event: SandboxDMEvent, _ ctx: RouteContext) -> JSON {
    let asked = Set(splitList(ctx.query["dm_event.fields"]))
    var out: [(String, JSON)] = [("id", .string(String(event.id))), ("event_type", .string(event.eventType))]
    if let text = event.text { out.append(("text", .string(text))) }
    if asked.contains("sender_id") { out.append(("sender_id", .string(event.senderID))) }
    if asked.contains("dm_conversation_id") { out.append(("dm_conversation_id", .string(event.conversationID))) }
    if asked.contains("created_at") { out.append(("created_at", .string(RFC3339.millisecondString(from: Date(epochSeconds: event.createdAt))))) }
    if asked.contains("attachments"), !event.mediaKeys.isEmpty {
      out.append(("attachments", .object([("media_keys", .array(event.mediaKeys.map(JSON.string)))])))
    }
    if asked.contains("participant_ids"), let participants = event.participantIDs {
      out.append(("participant_ids", .array(participants.map(JSON.string))))
    }
    return .object(out)
  }

  private func badConversation(_ id: String) -> SandboxResponse {
    .v2(
      400,
      XBodies.invalidRequest("id", [id], "The `id` query parameter value [\(id)] does not match ^([0-9]{1,19}-[0-9]{1,19}|[0-9]{15,19})$"))
  }
}
