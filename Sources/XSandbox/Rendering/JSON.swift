import Foundation

/// A JSON value whose object keys keep the order they were written in, so the sandbox's
/// bodies read like X's (and stay byte-for-byte stable from run to run).
enum JSON: Sendable {
  case string(String)
  /// A number, already in its JSON spelling.
  case number(String)
  case bool(Bool)
  case null
  case array([JSON])
  case object([(String, JSON)])

  static func int(_ value: some BinaryInteger) -> JSON { .number(String(value)) }
  static func double(_ value: Double) -> JSON { .number(String(value)) }
  static func optional(_ value: String?) -> JSON { value.map(JSON.string) ?? .null }

  /// UTF-8 JSON without whitespace. Characters outside the BMP are written as UTF-16
  /// surrogate escapes and, for v1.1, `/` as `\/`, as X does.
  func encoded(escapingSlashes: Bool = false) -> Data {
    var out = ""
    write(into: &out, escapingSlashes: escapingSlashes)
    return Data(out.utf8)
  }

  private func write(into out: inout String, escapingSlashes: Bool) {
    switch self {
    case .string(let text): Self.writeString(text, into: &out, escapingSlashes: escapingSlashes)
    case .number(let text): out += text
    case .bool(let value): out += value ? "true" : "false"
    case .null: out += "null"
    case .array(let items):
      out += "["
      for (index, item) in items.enumerated() {
        if index > 0 { out += "," }
        item.write(into: &out, escapingSlashes: escapingSlashes)
      }
      out += "]"
    case .object(let fields):
      out += "{"
      for (index, field) in fields.enumerated() {
        if index > 0 { out += "," }
        Self.writeString(field.0, into: &out, escapingSlashes: escapingSlashes)
        out += ":"
        field.1.write(into: &out, escapingSlashes: escapingSlashes)
      }
      out += "}"
    }
  }

  private static func hex4(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }

  private static func writeString(_ text: String, into out: inout String, escapingSlashes: Bool) {
    out += "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "/" where escapingSlashes: out += "\\/"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\u{08}": out += "\\b"
      case "\u{0C}": out += "\\f"
      default:
        if scalar.value < 0x20 {
          out += "\\u" + hex4(scalar.value)
        } else if scalar.value > 0xFFFF {
          let offset = scalar.value - 0x10000
          out += "\\u" + hex4(0xD800 + (offset >> 10)) + "\\u" + hex4(0xDC00 + (offset & 0x3FF))
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    out += "\""
  }
}
