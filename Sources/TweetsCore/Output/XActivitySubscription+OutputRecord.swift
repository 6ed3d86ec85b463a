import DateFormats
import Foundation
import XAPI
import XArchive

/// `tweets activity list` in every format: a subscription is one record.
extension XActivitySubscription: OutputRecord {
  package static let plural = "subscriptions"

  /// The CSV columns: one per ``XActivitySubscription`` property.
  package static let csvHeader = "id,event_type,user_id,direction,keyword,tag,webhook_id,created_at"

  package var csvFields: [String] {
    [
      id, eventType, userID ?? "", direction?.rawValue ?? "", keyword ?? "", tag ?? "", webhookID ?? "",
      createdAt.map(RFC3339.string(from:)) ?? "",
    ]
  }

  /// `ID  TYPE  user U (direction)  → webhook W | stream`, what X sent shown through ``TerminalText``.
  package func text(now: Date, color: Bool) -> String {
    var line = "\(id)  \(eventType)  user \(userID ?? "-")"
    if let direction { line += " (\(direction.rawValue))" }
    line += webhookID.map { "  to webhook \($0)" } ?? "  on the stream"
    if let tag { line += "  tag \(tag)" }
    return TerminalText.visible(line)
  }

  /// Never called: `tweets activity list` takes no `--db`.
  package static func store(_ page: Page<XActivitySubscription>, in archive: TweetArchive, fetch: inout ArchiveFetch, complete: Bool) throws {
    throw TweetsFailure("an archive stores posts and users, not subscriptions", exitCode: .usage)
  }
}
