/// Reads an `Authorization: OAuth ...` header on its bytes: the one parser behind
/// ``OAuthAuthorizationHeader/parse(_:)`` (which makes Strings of every field) and the
/// verifier (which makes Strings of only the values it needs).
///
/// Grammar (RFC 5849 3.5.1 with RFC 7235's quoted-string): the scheme `OAuth` in any case,
/// then `name="value"` fields separated by commas, with optional white space (line folds
/// included) around names, `=` and commas.
enum AuthorizationHeaderScanner {
  /// Calls `field` with each field's name and value as they appear in the header, the bytes
  /// of `header` (the value between the quotes, with `\` quoted-pairs undone: such a value is
  /// unescaped into `bytes` first, so the room is the header's length), in order.
  static func scan(
    _ header: Range<Int>, in bytes: inout ByteWriter,
    _ field: (_ name: Range<Int>, _ value: Range<Int>, _ bytes: inout ByteWriter) throws(OAuthError) -> Void
  ) throws(OAuthError) {
    let end = header.upperBound
    @inline(__always) func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    var index = header.lowerBound
    while index < end, isSpace(bytes[index]) { index += 1 }
    let schemeStart = index
    while index < end, !isSpace(bytes[index]) { index += 1 }
    let scheme = schemeStart..<index
    guard scheme.count == 5, startsWithOAuth(bytes, schemeStart..<end) else {
      throw .malformedAuthorizationHeader(reason: "the scheme is \"\(bytes.string(scheme))\", not OAuth")
    }

    while true {
      index = bytes.endOfRun(in: index..<end, spacesAndCommas)
      if index == end { return }
      let nameStart = index
      index = bytes.endOfRun(in: index..<end, nameBytes)
      let name = nameStart..<index
      while index < end, isSpace(bytes[index]) { index += 1 }
      guard !name.isEmpty, index < end, bytes[index] == UInt8(ascii: "=") else {
        throw .malformedAuthorizationHeader(reason: "the field \"\(bytes.string(name))\" has no =\"value\"")
      }
      index += 1
      while index < end, isSpace(bytes[index]) { index += 1 }
      guard index < end, bytes[index] == UInt8(ascii: "\"") else {
        throw .malformedAuthorizationHeader(reason: "the value of \"\(bytes.string(name))\" does not start with a quote")
      }
      index += 1
      // The quoted-string: its closing quote found first; a backslash before it means
      // quoted-pairs, which are walked byte by byte (a `\"` does not close the string).
      let valueStart = index
      var escaped = false
      if let quote = bytes.firstIndex(of: UInt8(ascii: "\""), in: index..<end) {
        escaped = bytes.firstIndex(of: UInt8(ascii: "\\"), in: index..<quote) != nil
        if !escaped { index = quote }
      } else {
        index = end
      }
      if escaped {
        while index < end, bytes[index] != UInt8(ascii: "\"") {
          if bytes[index] == UInt8(ascii: "\\") { index += 1 }
          index += 1
        }
      }
      guard index < end else {
        throw .malformedAuthorizationHeader(reason: "the value of \"\(bytes.string(name))\" has no closing quote")
      }
      let value = valueStart..<index
      index += 1
      if index < end, bytes[index] != UInt8(ascii: ","), !isSpace(bytes[index]) {
        throw .malformedAuthorizationHeader(reason: "expected a comma after the value of \"\(bytes.string(name))\"")
      }
      if !escaped {
        try field(name, value, &bytes)
        continue
      }
      let unescapedStart = bytes.count
      var position = value.lowerBound
      while position < value.upperBound {
        if bytes[position] == UInt8(ascii: "\\") { position += 1 }
        bytes.append(bytes[position])
        position += 1
      }
      try field(name, unescapedStart..<bytes.count, &bytes)
    }
  }

  /// White space and commas, as a byte table: what separates fields.
  private static var spacesAndCommas: StaticString {
    "0000000001100100000000000000000010000000000010000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
  }

  /// The bytes of a field's name: all but white space, `,` and `=`.
  private static var nameBytes: StaticString {
    "1111111110011011111111111111111101111111111101111111111111111011111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111"
  }

  /// Whether the bytes of `range` start with `oauth`, in any case: the scheme test of the
  /// scanner and of the verifier, which reads a header only when it is OAuth.
  static func startsWithOAuth(_ bytes: borrowing ByteWriter, _ range: Range<Int>) -> Bool {
    guard range.count >= 5 else { return false }
    let start = range.lowerBound
    return bytes[start] | 0x20 == UInt8(ascii: "o") && bytes[start + 1] | 0x20 == UInt8(ascii: "a")
      && bytes[start + 2] | 0x20 == UInt8(ascii: "u") && bytes[start + 3] | 0x20 == UInt8(ascii: "t")
      && bytes[start + 4] | 0x20 == UInt8(ascii: "h")
  }
}
