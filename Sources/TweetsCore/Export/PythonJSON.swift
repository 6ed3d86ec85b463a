import Foundation

/// A JSON value read as Python's `json.loads` reads it: objects keep their keys in the order
/// written (a repeated key keeps its first place and its last value), an integer stays the exact
/// integer written, and a number with a fraction or an exponent is a `Double`.
///
/// `tweets export` needs this, not `JSONSerialization`: twarc-csv writes a list cell with
/// `json.dumps`, so a cell is the same as twarc-csv's only when the keys come out in X's order
/// and the numbers are spelled as Python spells them (``pythonDumps``).
///
/// ```swift
/// let value = try PythonJSON.parse(Data(#"{"b":1,"a":[1.50,"é"]}"#.utf8))
/// value["a"]?.pythonDumps  // [1.5, "\u00e9"]
/// ```
indirect enum PythonJSON: Equatable, Sendable {
  case string(String)
  /// An integer, as its decimal digits (no sign for zero, no leading zeros): any size.
  case integer(String)
  case double(Double)
  case bool(Bool)
  case null
  case array([PythonJSON])
  case object([(String, PythonJSON)])

  static func == (left: PythonJSON, right: PythonJSON) -> Bool {
    switch (left, right) {
    case (.string(let a), .string(let b)): a == b
    case (.integer(let a), .integer(let b)): a == b
    case (.double(let a), .double(let b)): a == b
    case (.bool(let a), .bool(let b)): a == b
    case (.null, .null): true
    case (.array(let a), .array(let b)): a == b
    case (.object(let a), .object(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    default: false
    }
  }

  /// The value of `key` in an object; `nil` when absent or when this is not an object.
  subscript(key: String) -> PythonJSON? {
    guard case .object(let fields) = self else { return nil }
    return fields.first { $0.0 == key }?.1
  }

  /// The fields of an object; `nil` for any other value.
  var fields: [(String, PythonJSON)]? {
    if case .object(let fields) = self { return fields }
    return nil
  }

  /// The items of an array; `nil` for any other value.
  var items: [PythonJSON]? {
    if case .array(let items) = self { return items }
    return nil
  }

  /// The text of a string; `nil` for any other value.
  var text: String? {
    if case .string(let text) = self { return text }
    return nil
  }

  /// Whether Python finds the value true (`if value:`): not `None`, `False`, zero, or empty.
  var isTruthy: Bool {
    switch self {
    case .string(let text): !text.isEmpty
    case .integer(let digits): digits != "0"
    case .double(let number): number != 0
    case .bool(let flag): flag
    case .null: false
    case .array(let items): !items.isEmpty
    case .object(let fields): !fields.isEmpty
    }
  }

  /// The value as Python's `json.dumps` writes it with its defaults: `", "` and `": "` between
  /// items, non-ASCII as `\uXXXX` escapes (`ensure_ascii`), floats as `repr` writes them.
  var pythonDumps: String {
    var out = ""
    write(into: &out)
    return out
  }

  private func write(into out: inout String) {
    switch self {
    case .string(let text): Self.writeString(text, into: &out)
    case .integer(let digits): out += digits
    case .double(let number): out += Self.pythonRepr(number)
    case .bool(let flag): out += flag ? "true" : "false"
    case .null: out += "null"
    case .array(let items):
      out += "["
      for (index, item) in items.enumerated() {
        if index > 0 { out += ", " }
        item.write(into: &out)
      }
      out += "]"
    case .object(let fields):
      out += "{"
      for (index, field) in fields.enumerated() {
        if index > 0 { out += ", " }
        Self.writeString(field.0, into: &out)
        out += ": "
        field.1.write(into: &out)
      }
      out += "}"
    }
  }

  private static func writeString(_ text: String, into out: inout String) {
    out += "\""
    for unit in text.utf16 {
      switch unit {
      case 0x22: out += "\\\""
      case 0x5C: out += "\\\\"
      case 0x0A: out += "\\n"
      case 0x0D: out += "\\r"
      case 0x09: out += "\\t"
      case 0x08: out += "\\b"
      case 0x0C: out += "\\f"
      case 0x20..<0x7F: out.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
      default:
        let digits = String(unit, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
      }
    }
    out += "\""
  }

  /// `repr(number)` as Python writes a float: the shortest digits that read back the same,
  /// positional from 1e-4 up to 1e16 (always with a fraction: `5.0`), exponent form outside
  /// (`1e+16`, `1e-05`).
  static func pythonRepr(_ number: Double) -> String {
    if number.isNaN { return "NaN" }
    if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
    if number == 0 { return number.sign == .minus ? "-0.0" : "0.0" }
    // Swift's description has the shortest round-trip digits; only their layout differs.
    let (digits, exponent) = shortestDigits(abs(number))
    let sign = number < 0 ? "-" : ""
    // `exponent`: the power of ten of the first digit.
    if exponent < -4 || exponent >= 16 {
      let mantissa = digits.count == 1 ? digits : digits.prefix(1) + "." + digits.dropFirst()
      let power = abs(exponent) < 10 ? "0\(abs(exponent))" : "\(abs(exponent))"
      return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + power
    }
    if exponent < 0 { return sign + "0." + String(repeating: "0", count: -exponent - 1) + digits }
    if digits.count <= exponent + 1 { return sign + digits + String(repeating: "0", count: exponent + 1 - digits.count) + ".0" }
    return sign + digits.prefix(exponent + 1) + "." + digits.dropFirst(exponent + 1)
  }

  /// The significant digits of a positive finite `number` (no leading or trailing zeros) and
  /// the power of ten of the first.
  private static func shortestDigits(_ number: Double) -> (String, Int) {
    let text = "\(number)"
    let parts = text.split(separator: "e", maxSplits: 1)
    let power = parts.count == 2 ? Int(parts[1]) ?? 0 : 0
    let mantissa = parts[0].split(separator: ".", maxSplits: 1)
    let whole = String(mantissa[0]), fraction = mantissa.count == 2 ? String(mantissa[1]) : ""
    var all = whole + fraction
    var exponent = whole.count - 1 + power
    while all.hasPrefix("0") && all.count > 1 {
      all.removeFirst()
      exponent -= 1
    }
    while all.hasSuffix("0") && all.count > 1 { all.removeLast() }
    return (all, exponent)
  }
}
