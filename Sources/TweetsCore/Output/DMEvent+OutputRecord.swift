import DateFormats
import Foundation
import XAPI
import XArchive

/// A direct-message event as `tweets dm list` prints it, in every format but the archive:
/// `--db` stores posts and users, and a message is neither.
extension DMEvent: OutputRecord {
  package static let plural = "events"

  /// The CSV columns: one per ``DMEvent`` property.
  package static let csvHeader = "id,created_at,event_type,dm_conversation_id,sender_id,sender_username,text,participant_ids,media_keys"

  package var csvFields: [String] {
    [
      id, createdAt.map(RFC3339.string(from:)) ?? "", eventType, conversationID ?? "", senderID ?? "", senderUsername ?? "", text ?? "",
      (participantIDs ?? []).joined(separator: " "), (mediaKeys ?? []).joined(separator: " "),
    ]
  }

  /// `@sender · 5m · conversation ID`, then the text (or who joined or left), then the id.
  package func text(now: Date, color: Bool) -> String {
    let bold = color ? "\u{1B}[1m" : "", reset = color ? "\u{1B}[0m" : ""
    let sender = senderUsername.map { "@" + $0 } ?? senderID ?? "?"
    var header = "\(bold)\(TerminalText.visible(sender))\(reset)"
    if let createdAt { header += " · " + RecordWriter<DMEvent>.relative(createdAt, now: now) }
    if let conversationID { header += " · conversation \(TerminalText.visible(conversationID))" }
    var lines = [header]
    switch eventType {
    case "MessageCreate": lines.append("  " + TerminalText.visible((text ?? "").replacingOccurrences(of: "\n", with: "\n  ")))
    default: lines.append("  \(TerminalText.visible(eventType)): " + TerminalText.visible((participantIDs ?? []).joined(separator: ", ")))
    }
    if let mediaKeys, !mediaKeys.isEmpty { lines.append("  media " + TerminalText.visible(mediaKeys.joined(separator: " "))) }
    lines.append("  id \(TerminalText.visible(id))")
    return lines.joined(separator: "\n")
  }

  /// Never called: `tweets dm` takes no `--db`.
  package static func store(_ page: Page<DMEvent>, in archive: TweetArchive, fetch: inout ArchiveFetch, complete: Bool) throws {
    throw TweetsFailure("an archive stores posts and users, not direct messages", exitCode: .usage)
  }
}
