import Foundation

extension PythonJSON {
  /// Why a line is not JSON: what was found, and at which byte.
  struct ParseError: Error, CustomStringConvertible {
    /// What was wrong.
    var reason: String
    /// The byte offset (0-based) where reading stopped.
    var offset: Int

    var description: String { "\(reason) at byte \(offset + 1)" }
  }

  /// The deepest nesting read: X's objects are a few levels deep; deeper input is refused
  /// rather than read with unbounded recursion.
  static let maxDepth = 64

  /// Reads one JSON text (surrounding whitespace allowed), in one pass over its bytes.
  static func parse(_ bytes: some Collection<UInt8>) throws(ParseError) -> PythonJSON {
    var reader = Reader(bytes: Array(bytes))
    reader.skipSpace()
    let value = try reader.value(depth: 0)
    reader.skipSpace()
    guard reader.position == reader.bytes.count else { throw ParseError(reason: "extra data after the JSON value", offset: reader.position) }
    return value
  }

  private struct Reader {
    let bytes: [UInt8]
    var position = 0

    mutating func skipSpace() {
      while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
    }

    func fail(_ reason: String) -> ParseError { ParseError(reason: reason, offset: position) }

    mutating func expect(_ word: String) throws(ParseError) {
      for byte in word.utf8 {
        guard position < bytes.count, bytes[position] == byte else { throw fail("expected \(word)") }
        position += 1
      }
    }

    mutating func value(depth: Int) throws(ParseError) -> PythonJSON {
      guard depth < PythonJSON.maxDepth else { throw fail("nested deeper than \(PythonJSON.maxDepth) levels") }
      guard position < bytes.count else { throw fail("the value is missing") }
      switch bytes[position] {
      case UInt8(ascii: "{"): return try object(depth: depth)
      case UInt8(ascii: "["): return try array(depth: depth)
      case UInt8(ascii: "\""): return .string(try string())
      case UInt8(ascii: "t"):
        try expect("true")
        return .bool(true)
      case UInt8(ascii: "f"):
        try expect("false")
        return .bool(false)
      case UInt8(ascii: "n"):
        try expect("null")
        return .null
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
      default: throw fail("unexpected character")
      }
    }

    mutating func object(depth: Int) throws(ParseError) -> PythonJSON {
      var fields: [(String, PythonJSON)] = []
      var places: [String: Int] = [:]
      if opensEmpty(closing: "}") { return .object(fields) }
      while true {
        skipSpace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw fail("expected a key in quotes") }
        let key = try string()
        skipSpace()
        try expect(":")
        skipSpace()
        let item = try value(depth: depth + 1)
        // As a Python dict: a repeated key keeps its first place and takes the last value.
        if let place = places[key] {
          fields[place].1 = item
        } else {
          places[key] = fields.count
          fields.append((key, item))
        }
        if try closes(with: "}", what: "object") { return .object(fields) }
      }
    }

    mutating func array(depth: Int) throws(ParseError) -> PythonJSON {
      var items: [PythonJSON] = []
      if opensEmpty(closing: "]") { return .array(items) }
      while true {
        skipSpace()
        items.append(try value(depth: depth + 1))
        if try closes(with: "]", what: "array") { return .array(items) }
      }
    }

    /// Steps over the opening bracket; `true`, past the `closing` one, when nothing is between.
    mutating func opensEmpty(closing: Character) -> Bool {
      position += 1
      skipSpace()
      guard position < bytes.count, bytes[position] == closing.asciiValue else { return false }
      position += 1
      return true
    }

    /// After an item: `true` at the `closing` bracket, `false` at a comma (another item follows).
    mutating func closes(with closing: Character, what: String) throws(ParseError) -> Bool {
      skipSpace()
      guard position < bytes.count else { throw fail("the \(what) is not closed") }
      let byte = bytes[position]
      position += 1
      if byte == UInt8(ascii: ",") { return false }
      if byte == closing.asciiValue { return true }
      position -= 1
      throw fail("expected , or \(closing)")
    }

    mutating func number() throws(ParseError) -> PythonJSON {
      let start = position
      if bytes[position] == UInt8(ascii: "-") { position += 1 }
      let digitsStart = position
      while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
      guard position > digitsStart else { throw fail("a number needs digits") }
      guard bytes[digitsStart] != UInt8(ascii: "0") || position - digitsStart == 1 else { throw fail("a number cannot start with 0") }
      var isInteger = true
      if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
        isInteger = false
        position += 1
        let fraction = position
        while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
        guard position > fraction else { throw fail("a fraction needs digits") }
      }
      if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
        isInteger = false
        position += 1
        if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
        let power = position
        while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
        guard position > power else { throw fail("an exponent needs digits") }
      }
      let literal = String(decoding: bytes[start..<position], as: UTF8.self)
      if isInteger { return .integer(literal == "-0" ? "0" : literal) }
      return .double(Double(literal) ?? .nan)
    }

    mutating func string() throws(ParseError) -> String {
      position += 1
      var units: [UInt16] = []
      var run = position
      func flush(_ end: Int) { units.append(contentsOf: String(decoding: bytes[run..<end], as: UTF8.self).utf16) }
      while position < bytes.count {
        let byte = bytes[position]
        if byte == UInt8(ascii: "\"") {
          flush(position)
          position += 1
          return String(decoding: units, as: UTF16.self)
        }
        guard byte >= 0x20 else { throw fail("a control character inside a string") }
        guard byte == UInt8(ascii: "\\") else {
          position += 1
          continue
        }
        flush(position)
        position += 1
        guard position < bytes.count else { break }
        let escaped = bytes[position]
        position += 1
        switch escaped {
        case UInt8(ascii: "\""): units.append(0x22)
        case UInt8(ascii: "\\"): units.append(0x5C)
        case UInt8(ascii: "/"): units.append(0x2F)
        case UInt8(ascii: "b"): units.append(0x08)
        case UInt8(ascii: "f"): units.append(0x0C)
        case UInt8(ascii: "n"): units.append(0x0A)
        case UInt8(ascii: "r"): units.append(0x0D)
        case UInt8(ascii: "t"): units.append(0x09)
        case UInt8(ascii: "u"):
          guard position + 4 <= bytes.count, let unit = UInt16(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16)
          else { throw fail("\\u needs four hex digits") }
          units.append(unit)
          position += 4
        default: throw fail("an unknown escape")
        }
        run = position
      }
      throw fail("the string is not closed")
    }
  }
}
