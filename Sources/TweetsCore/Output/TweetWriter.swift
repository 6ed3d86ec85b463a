import Foundation
import XAPI

/// The output formats of `tweets`.
public enum OutputFormat: String, Sendable, CaseIterable {
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

/// Writes tweets as they arrive, in one format, so that memory does not grow with `--all`.
///
/// ```swift
/// let writer = TweetWriter(format: .jsonl, terminal: terminal)
/// for try await tweet in pages.tweets() { writer.write(tweet) }
/// writer.finish()
/// ```
public final class TweetWriter {
  /// How each tweet is written: text, JSON (one array), JSON Lines or CSV.
  public let format: OutputFormat
  let useColor: Bool
  let now: Date
  private let sink: (String) -> Void
  private var count: Int

  /// A writer of `format` to `terminal`'s standard output; `now` dates relative times in text.
  public convenience init(format: OutputFormat, terminal: Terminal, now: Date = Date()) {
    self.init(format: format, useColor: terminal.useColor, now: now, sink: terminal.writeOut)
  }

  /// A writer of `format` to `sink` (a file's page buffer), continuing after `alreadyWritten`
  /// tweets, so that a resumed CSV gets no second header and text no missing separator.
  init(format: OutputFormat, useColor: Bool = false, now: Date = Date(), alreadyWritten: Int = 0, sink: @escaping (String) -> Void) {
    self.format = format
    self.useColor = useColor
    self.now = now
    self.sink = sink
    count = alreadyWritten
  }

  /// How many tweets were written.
  public var written: Int { count }

  /// Writes one tweet (for JSON, as the next element of the array ``finish()`` closes).
  public func write(_ tweet: Tweet) {
    switch format {
    case .text:
      sink((count > 0 ? "\n" : "") + Self.text(tweet, now: now, color: useColor) + "\n")
    case .json:
      sink((count == 0 ? "[\n  " : ",\n  ") + Self.json(tweet))
    case .jsonl:
      sink(Self.json(tweet) + "\n")
    case .csv:
      if count == 0 { sink(Self.csvHeader + "\r\n") }
      sink(Self.csv(tweet) + "\r\n")
    case .raw:
      break  // the responses are written whole, by writeRaw(_:)
    }
    count += 1
  }

  /// Writes one response as X sent it, on one line (`raw`); a response X spread over lines is
  /// compacted, changing no value. Other formats write tweets, not responses.
  public func writeRaw(_ body: Data) {
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
  public func finish() {
    switch format {
    case .json: sink(count == 0 ? "[]\n" : "\n]\n")
    case .csv: if count == 0 { sink(Self.csvHeader + "\r\n") }
    case .text, .jsonl, .raw: break
    }
  }

  // MARK: - Formats

  static func json(_ tweet: Tweet) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    // Encoding strings, numbers and dates cannot fail.
    return (try? encoder.encode(tweet)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
  }

  static let csvHeader = "id,created_at,author_id,author_username,author_name,text,retweets,replies,likes,quotes"

  static func csv(_ tweet: Tweet) -> String {
    let date = tweet.createdAt.map { ISO8601DateFormatter().string(from: $0) } ?? ""
    let fields: [String] = [
      tweet.id, date, tweet.author?.id ?? "", tweet.author?.username ?? "", tweet.author?.name ?? "", tweet.text,
      tweet.metrics.map { String($0.retweets) } ?? "", tweet.metrics?.replies.map(String.init) ?? "",
      tweet.metrics.map { String($0.likes) } ?? "", tweet.metrics?.quotes.map(String.init) ?? "",
    ]
    return fields.map(csvField).joined(separator: ",")
  }

  /// RFC 4180: quote a field with a comma, quote or line break, doubling inner quotes.
  static func csvField(_ field: String) -> String {
    guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
    return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  static func text(_ tweet: Tweet, now: Date, color: Bool) -> String {
    let bold = color ? "\u{1B}[1m" : "", dim = color ? "\u{1B}[2m" : "", reset = color ? "\u{1B}[0m" : ""
    var header = ""
    if let author = tweet.author {
      header = "\(bold)@\(author.username ?? author.id)\(reset)"
      if let name = author.name, !name.isEmpty { header += " \(name)" }
    }
    if let date = tweet.createdAt { header += (header.isEmpty ? "" : " · ") + relative(date, now: now) }
    var footer = "id \(tweet.id)"
    if let metrics = tweet.metrics {
      footer += " · " + count(metrics.retweets, "retweet") + " · " + count(metrics.likes, "like")
      if let replies = metrics.replies { footer += " · " + count(replies, "reply", plural: "replies") }
    }
    let body = tweet.text.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
    return [header, body, "  \(dim)\(footer)\(reset)"].filter { !$0.isEmpty }.joined(separator: "\n")
  }

  static func count(_ number: Int, _ singular: String, plural: String? = nil) -> String {
    "\(number) \(number == 1 ? singular : plural ?? singular + "s")"
  }

  /// "now", "42s", "5m", "3h", "6d", then the date.
  static func relative(_ date: Date, now: Date) -> String {
    let seconds = Int(now.timeIntervalSince(date))
    switch seconds {
    case ..<0: return ISO8601DateFormatter().string(from: date)
    case 0..<5: return "now"
    case 5..<60: return "\(seconds)s"
    case 60..<3600: return "\(seconds / 60)m"
    case 3600..<86_400: return "\(seconds / 3600)h"
    case 86_400..<(7 * 86_400): return "\(seconds / 86_400)d"
    default:
      let formatter = DateFormatter()
      formatter.locale = Locale(identifier: "en_US_POSIX")
      formatter.timeZone = TimeZone(identifier: "UTC")
      formatter.dateFormat = "yyyy-MM-dd"
      return formatter.string(from: date)
    }
  }
}
