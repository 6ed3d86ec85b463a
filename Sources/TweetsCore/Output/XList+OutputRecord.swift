import DateFormats
import Foundation
import XAPI
import XArchive

/// A list as `tweets lists` prints it, in every format but the archive: `--db` stores posts and
/// users, and a list is neither (its members and followers are users, and are stored).
extension XList: OutputRecord {
  package static let plural = "lists"

  /// The CSV columns: one per ``XList`` property.
  package static let csvHeader = "id,name,owner_id,private,members,followers,created_at,description"

  package var csvFields: [String] {
    [
      id, name, ownerID ?? "", isPrivate.map { $0 ? "true" : "false" } ?? "", memberCount.map(String.init) ?? "",
      followerCount.map(String.init) ?? "", createdAt.map(RFC3339.string(from:)) ?? "", description ?? "",
    ]
  }

  /// `Name (private)`, then the counts, then the description, then the ids; what X sent shown
  /// through ``TerminalText``.
  package func text(now: Date, color: Bool) -> String {
    let bold = color ? "\u{1B}[1m" : "", reset = color ? "\u{1B}[0m" : ""
    var lines = ["\(bold)\(TerminalText.visible(name))\(reset)" + (isPrivate == true ? " (private)" : "")]
    if let memberCount, let followerCount {
      lines.append("  " + UserWriter.count(memberCount, "member") + " · " + UserWriter.count(followerCount, "follower"))
    }
    if let description, !description.isEmpty { lines.append("  " + TerminalText.visible(description.replacingOccurrences(of: "\n", with: " "))) }
    lines.append("  id \(TerminalText.visible(id))" + (ownerID.map { " · owner \(TerminalText.visible($0))" } ?? ""))
    return lines.joined(separator: "\n")
  }

  /// Never called: the list commands refuse `--db` before they fetch.
  package static func store(_ page: Page<XList>, in archive: TweetArchive, fetch: inout ArchiveFetch, complete: Bool) throws {
    throw TweetsFailure("an archive stores posts and users, not lists", exitCode: .usage)
  }
}
