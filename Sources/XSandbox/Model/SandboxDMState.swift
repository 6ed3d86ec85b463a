/// A direct-message event of the sandbox.
struct SandboxDMEvent: Sendable {
  let id: UInt64
  /// `MessageCreate` or `ParticipantsJoin`.
  let eventType: String
  let conversationID: String
  let senderID: String
  let text: String?
  let participantIDs: [String]?
  let createdAt: Int64
  /// The media keys of a message's attachment.
  var mediaKeys: [String] = []
}

/// The direct-messages family's own state: the conversations with their participants, and
/// every event, the newest first. The demo user starts with a one-to-one conversation with
/// @swift_lang (three messages) and a group with both other cast members (one message), so that
/// a fresh sandbox has something to list.
struct SandboxDMState: Sendable {
  /// Each conversation's participants.
  var conversations: [String: [String]] = [
    "1001-1002": ["1001", "1002"], "1650000000000000001": ["1001", "1002", "1003"],
  ]
  /// The newest first.
  var events: [SandboxDMEvent] = [
    SandboxDMEvent(
      id: 1_650_000_000_000_000_040, eventType: "MessageCreate", conversationID: "1650000000000000001", senderID: "1003",
      text: "Who signs the next release? I volunteer, twice.", participantIDs: nil, createdAt: 1_764_000_300),
    SandboxDMEvent(
      id: 1_650_000_000_000_000_030, eventType: "ParticipantsJoin", conversationID: "1650000000000000001", senderID: "1001", text: nil,
      participantIDs: ["1002", "1003"], createdAt: 1_764_000_200),
    SandboxDMEvent(
      id: 1_650_000_000_000_000_020, eventType: "MessageCreate", conversationID: "1001-1002", senderID: "1001",
      text: "Yes please, lunch at noon.", participantIDs: nil, createdAt: 1_764_000_100),
    SandboxDMEvent(
      id: 1_650_000_000_000_000_010, eventType: "MessageCreate", conversationID: "1001-1002", senderID: "1002",
      text: "Swift on the server this afternoon? Lunch first?", participantIDs: nil, createdAt: 1_764_000_050),
    SandboxDMEvent(
      id: 1_650_000_000_000_000_000, eventType: "MessageCreate", conversationID: "1001-1002", senderID: "1001",
      text: "Hello from the sandbox!", participantIDs: nil, createdAt: 1_764_000_000),
  ]
  /// The highest event or conversation id issued: the next takes the one after.
  var lastID: UInt64 = 1_650_000_000_000_000_040

  /// The one-to-one conversation of two users: their ids, the lower first, joined by `-`.
  static func pair(_ one: String, _ other: String) -> String {
    let ids = [one, other].sorted { (UInt64($0) ?? 0) < (UInt64($1) ?? 0) }
    return ids.joined(separator: "-")
  }

  /// A new id, above every one issued.
  mutating func nextID() -> UInt64 {
    lastID += 10
    return lastID
  }
}
