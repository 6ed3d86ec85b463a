import DateFormats
import Foundation
import XAPI
import XArchive

/// `tweets webhook list` in every format: a webhook is one record (id, url, valid, created_at).
extension XWebhookConfig: OutputRecord {
  package static let plural = "webhooks"

  /// The CSV columns: one per ``XWebhookConfig`` property.
  package static let csvHeader = "id,url,valid,created_at"

  package var csvFields: [String] { [id, url, valid ? "true" : "false", createdAt.map(RFC3339.string(from:)) ?? ""] }

  /// `ID  URL  valid|invalid  created`, what X sent shown through ``TerminalText``.
  package func text(now: Date, color: Bool) -> String {
    let created = createdAt.map { "  registered " + RFC3339.string(from: $0) } ?? ""
    return TerminalText.visible("\(id)  \(url)  \(valid ? "valid" : "invalid (failed its last CRC)")") + created
  }

  /// Never called: `tweets webhook list` takes no `--db`.
  package static func store(_ page: Page<XWebhookConfig>, in archive: TweetArchive, fetch: inout ArchiveFetch, complete: Bool) throws {
    throw TweetsFailure("an archive stores posts and users, not webhooks", exitCode: .usage)
  }
}
