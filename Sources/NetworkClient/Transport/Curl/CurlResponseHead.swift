import Foundation

/// A response's status and headers, read from the header lines curl hands over as they arrive:
/// a status line starts a new head (an interim `100 Continue` is dropped when the final one
/// comes), each `Name: value` line adds a header (repeated ones kept, in order), and the empty
/// line ends the head. Lines are read as bytes (obs-fold continuation lines join the header
/// before them); what is not a header is ignored.
struct CurlResponseHead {
  var statusCode = 0
  /// The fields in the order received, repeated names kept.
  private(set) var fields: [(String, String)] = []
  /// The fields as headers.
  var headers: HTTPHeaders { HTTPHeaders(fields) }
  /// Whether the final head (status 200 or more) is complete.
  var isComplete = false

  /// The most bytes of one head: far above what any server sends, so that a hostile one cannot
  /// grow it without bound (curl itself refuses a header line over 100 KB).
  static let maxBytes = 1 << 20
  private var bytes = 0

  /// Takes one header line (with its CRLF); `false` when the head grew past ``maxBytes``.
  mutating func take(_ line: some Collection<UInt8>) -> Bool {
    bytes += line.count
    guard bytes <= Self.maxBytes else { return false }
    var text = Substring(decoding: line, as: UTF8.self)
    while let last = text.last, last == "\r\n" || last == "\n" || last == "\r" { text.removeLast() }
    if text.hasPrefix("HTTP/") {
      statusCode = text.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) } ?? 0
      fields = []
      isComplete = false
    } else if text.isEmpty {
      if statusCode >= 200 { isComplete = true }
    } else if let first = text.first, first == " " || first == "\t", !fields.isEmpty {
      // An obsolete folded continuation line joins the header before it.
      fields[fields.count - 1].1 += " " + text.trimmingCharacters(in: .whitespaces)
    } else if let colon = text.firstIndex(of: ":") {
      let name = String(text[..<colon]).trimmingCharacters(in: .whitespaces)
      let value = String(text[text.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
      if !name.isEmpty { fields.append((name, value)) }
    }
    return true
  }
}
