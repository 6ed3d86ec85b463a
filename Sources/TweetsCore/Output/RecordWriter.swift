import DateFormats
import Foundation
import XAPI
import XArchive

/// The output formats of `tweets`.
package enum OutputFormat: String, Sendable, CaseIterable {
  /// For people: author, relative time, text, id and counts.
  case text
  /// One JSON array of tweets.
  case json
  /// One JSON tweet per line.
  case jsonl
  /// A header row, then one row per tweet.
  case csv
  /// X's own JSON, one response per line, nothing dropped or renamed (v2: `data`, `includes`,
  /// `meta`, `errors`; v1.1: the array of statuses), as archivists keep it.
  case raw
}

/// Writes records (tweets, users) as they arrive, in one format, so that memory does not grow
/// with `--all`.
///
/// ```swift
/// let writer = TweetWriter(format: .jsonl, terminal: terminal)
/// for try await tweet in pages.tweets() { writer.write(tweet) }
/// writer.finish()
/// ```
package final class RecordWriter<Record: OutputRecord> {
  /// How each record is written: text, JSON (one array), JSON Lines, CSV, or X's own responses.
  package let format: OutputFormat
  let useColor: Bool
  let now: Date
  private let sink: (String) -> Void
  private var count: Int

  /// A writer of `format` to `terminal`'s standard output; `now` dates relative times in text.
  package convenience init(format: OutputFormat, terminal: Terminal, now: Date = Date()) {
    self.init(format: format, useColor: terminal.useColor, now: now, sink: terminal.writeOut)
  }

  /// A writer of `format` to `sink` (a file's page buffer), continuing after `alreadyWritten`
  /// records, so that a resumed CSV gets no second header and text no missing separator.
  init(format: OutputFormat, useColor: Bool = false, now: Date = Date(), alreadyWritten: Int = 0, sink: @escaping (String) -> Void) {
    self.format = format
    self.useColor = useColor
    self.now = now
    self.sink = sink
    count = alreadyWritten
  }

  /// How many records were written.
  package var written: Int { count }

  /// Writes one record (for JSON, as the next element of the array ``finish()`` closes).
  package func write(_ record: Record) {
    switch format {
    case .text:
      sink((count > 0 ? "\n" : "") + record.text(now: now, color: useColor) + "\n")
    case .json:
      sink((count == 0 ? "[\n  " : ",\n  ") + Self.json(record))
    case .jsonl:
      sink(Self.json(record) + "\n")
    case .csv:
      if count == 0 { sink(Record.csvHeader + "\r\n") }
      sink(record.csvFields.map(Self.csvField).joined(separator: ",") + "\r\n")
    case .raw:
      break  // the responses are written whole, by writeRaw(_:)
    }
    count += 1
  }

  /// Writes one response as X sent it, on one line (`raw`); a response X spread over lines is
  /// compacted, changing no value. Other formats write records, not responses.
  package func writeRaw(_ body: Data) {
    guard format == .raw else { return }
    if !body.contains(UInt8(ascii: "\n")) {
      sink(String(decoding: body, as: UTF8.self) + "\n")
    } else if let object = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]),
      let line = try? JSONSerialization.data(withJSONObject: object, options: [.withoutEscapingSlashes, .fragmentsAllowed])
    {
      sink(String(decoding: line, as: UTF8.self) + "\n")
    } else {
      sink(String(decoding: body, as: UTF8.self).split(separator: "\n").joined(separator: " ") + "\n")
    }
  }

  /// Closes what the format needs closed (the JSON array, a CSV with only its header).
  package func finish() {
    switch format {
    case .json: sink(count == 0 ? "[]\n" : "\n]\n")
    case .csv: if count == 0 { sink(Record.csvHeader + "\r\n") }
    case .text, .jsonl, .raw: break
    }
  }

  /// The CSV header of the records.
  static var csvHeader: String { Record.csvHeader }

  static func json(_ record: Record) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    // Encoding strings, numbers and dates cannot fail.
    return (try? encoder.encode(record)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
  }

  /// A field of `--format csv`: a cell a spreadsheet would take for a formula written with a
  /// leading `'` (``SpreadsheetFormulas``: this CSV promises no other tool's bytes, and a post's
  /// text is anyone's), then quoted as RFC 4180 says (``csvQuoted(_:)``).
  static func csvField(_ field: String) -> String {
    csvQuoted(SpreadsheetFormulas.escaped(field))
  }

  /// RFC 4180: quote a field with a comma, quote or line break, doubling inner quotes. The bytes
  /// are looked at, not the characters: `\r\n` is one `Character`, equal to neither `\r` nor `\n`.
  static func csvQuoted(_ field: String) -> String {
    guard field.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }) else { return field }
    return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  static func count(_ number: Int, _ singular: String, plural: String? = nil) -> String {
    "\(number) \(number == 1 ? singular : plural ?? singular + "s")"
  }

  /// "now", "42s", "5m", "3h", "6d", then the date.
  static func relative(_ date: Date, now: Date) -> String {
    let seconds = Int(now.timeIntervalSince(date))
    switch seconds {
    case ..<0: return RFC3339.string(from: date)
    case 0..<5: return "now"
    case 5..<60: return "\(seconds)s"
    case 60..<3600: return "\(seconds / 60)m"
    case 3600..<86_400: return "\(seconds / 3600)h"
    case 86_400..<(7 * 86_400): return "\(seconds / 86_400)d"
    default:
      return RFC3339.dayString(from: date)
    }
  }
}

/// Writes tweets: ``RecordWriter`` of ``Tweet``.
package typealias TweetWriter = RecordWriter<Tweet>
/// Writes users: ``RecordWriter`` of `XUser`.
package typealias UserWriter = RecordWriter<XUser>

/// What ``RecordWriter`` needs of a record: JSON (its `Encodable`), CSV and text.
package protocol OutputRecord: Encodable, Sendable {
  /// What the records are called in progress and messages: `tweets`, `users`.
  static var plural: String { get }
  /// The CSV header row.
  static var csvHeader: String { get }
  /// The record's CSV fields, in the header's order, not yet quoted.
  var csvFields: [String] { get }
  /// The record for people, on one or more lines; `now` dates relative times.
  func text(now: Date, color: Bool) -> String
  /// Stores a page of these records in an archive (`--db`), with the fetch's progress.
  static func store(_ page: Page<Self>, in archive: TweetArchive, fetch: inout ArchiveFetch, complete: Bool) throws
}

extension Tweet: OutputRecord {
  package static let plural = "tweets"

  /// The CSV columns: one per ``Tweet`` property, lists joined by spaces (`replied_to:ID`,
  /// expanded URLs, `photo:URL`), empty when X did not send the value. Columns added later come
  /// last, so that a script reading columns by position keeps working.
  package static let csvHeader =
    "id,created_at,author_id,author_username,author_name,text,retweets,replies,likes,quotes,lang,conversation_id,in_reply_to_user_id,"
    + "referenced_tweets,urls,mentions,hashtags,media,possibly_sensitive,edit_history_tweet_ids,bookmarks,impressions,paid_partnership"

  package var csvFields: [String] {
    let tweet = self
    let date = tweet.createdAt.map(RFC3339.string(from:)) ?? ""
    let fields: [String] = [
      tweet.id, date, tweet.author?.id ?? "", tweet.author?.username ?? "", tweet.author?.name ?? "", tweet.text,
      tweet.metrics.map { String($0.retweets) } ?? "", tweet.metrics?.replies.map(String.init) ?? "",
      tweet.metrics.map { String($0.likes) } ?? "", tweet.metrics?.quotes.map(String.init) ?? "",
      tweet.lang ?? "", tweet.conversationID ?? "", tweet.inReplyToUserID ?? "",
      (tweet.referencedTweets ?? []).map { "\($0.kind.rawValue):\($0.id)" }.joined(separator: " "),
      (tweet.entities?.urls ?? []).map { $0.expandedURL ?? $0.url }.joined(separator: " "),
      (tweet.entities?.mentions ?? []).joined(separator: " "), (tweet.entities?.hashtags ?? []).joined(separator: " "),
      (tweet.media ?? []).map { $0.type + ($0.url.map { ":" + $0 } ?? "") }.joined(separator: " "),
      tweet.possiblySensitive.map { $0 ? "true" : "false" } ?? "", (tweet.editHistoryTweetIDs ?? []).joined(separator: " "),
      tweet.metrics?.bookmarks.map(String.init) ?? "", tweet.metrics?.impressions.map(String.init) ?? "",
      tweet.paidPartnership.map { $0 ? "true" : "false" } ?? "",
    ]
    return fields
  }

  /// Author, relative time, references, text, media, id and counts; what X sent shown through
  /// ``TerminalText`` (no control character reaches the terminal).
  package func text(now: Date, color: Bool) -> String {
    let tweet = self
    let shown = { (text: String) in TerminalText.visible(text) }
    let bold = color ? "\u{1B}[1m" : "", dim = color ? "\u{1B}[2m" : "", reset = color ? "\u{1B}[0m" : ""
    var header = ""
    if let author = tweet.author {
      header = "\(bold)@\(shown(author.username ?? author.id))\(reset)"
      if let name = author.name, !name.isEmpty { header += " \(shown(name))" }
    }
    if let date = tweet.createdAt { header += (header.isEmpty ? "" : " · ") + TweetWriter.relative(date, now: now) }
    var footer = "id \(shown(tweet.id))"
    if let metrics = tweet.metrics {
      footer += " · " + TweetWriter.count(metrics.retweets, "retweet") + " · " + TweetWriter.count(metrics.likes, "like")
      if let replies = metrics.replies { footer += " · " + TweetWriter.count(replies, "reply", plural: "replies") }
    }
    for reference in tweet.referencedTweets ?? [] {
      let whose = reference.tweet?.author?.username.map { " @" + shown($0) } ?? ""
      let label = ["replied_to": "reply to", "quoted": "quotes", "retweeted": "retweet of"][reference.kind.rawValue] ?? reference.kind.rawValue
      header += " · \(shown(label))\(whose) \(shown(reference.id))"
    }
    let body = TerminalText.visible(tweet.text, keepingLines: true).split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(
      separator: "\n")
    let media = (tweet.media ?? []).map { "  [\(shown($0.type))\($0.altText.map { ": " + shown($0) } ?? "")] \(shown($0.url ?? ""))" }
    return ([header, body] + media + ["  \(dim)\(footer)\(reset)"]).filter { !$0.isEmpty }.joined(separator: "\n")
  }

}

extension XUser: OutputRecord {
  package static let plural = "users"

  /// The CSV columns: one per ``XUser`` property.
  package static let csvHeader = "id,username,name,created_at,followers,following,tweets,listed,verified,protected,location,description"

  package var csvFields: [String] {
    [
      id, username, name, createdAt.map(RFC3339.string(from:)) ?? "", metrics.map { String($0.followers) } ?? "",
      metrics.map { String($0.following) } ?? "", metrics.map { String($0.tweets) } ?? "", metrics?.listed.map(String.init) ?? "",
      verified.map { $0 ? "true" : "false" } ?? "", protected.map { $0 ? "true" : "false" } ?? "", location ?? "", description ?? "",
    ]
  }

  /// `@username Name`, then the counts, then the profile's text; what X sent shown through
  /// ``TerminalText``.
  package func text(now: Date, color: Bool) -> String {
    let bold = color ? "\u{1B}[1m" : "", reset = color ? "\u{1B}[0m" : ""
    let shown = { (text: String) in TerminalText.visible(text) }
    var lines = ["\(bold)@\(shown(username))\(reset)" + (name.isEmpty ? "" : " \(shown(name))") + (protected == true ? " (protected)" : "")]
    if let metrics {
      lines.append(
        "  " + UserWriter.count(metrics.followers, "follower") + " · " + UserWriter.count(metrics.following, "following", plural: "following")
          + " · " + UserWriter.count(metrics.tweets, "tweet"))
    }
    if let description, !description.isEmpty { lines.append("  " + shown(description.replacingOccurrences(of: "\n", with: " "))) }
    lines.append("  id \(shown(id))")
    return lines.joined(separator: "\n")
  }
}
