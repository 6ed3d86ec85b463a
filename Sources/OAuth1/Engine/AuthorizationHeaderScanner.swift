import Foundation

/// Reads an `Authorization: OAuth ...` header on its bytes: the one parser behind
/// ``OAuthAuthorizationHeader/parse(_:)`` (which makes Strings of every field) and the
/// verifier (which makes Strings of only the values it needs).
///
/// Grammar (RFC 5849 3.5.1 with RFC 7235's quoted-string): the scheme `OAuth` in any case,
/// then `name="value"` fields separated by commas, with optional white space (line folds
/// included) around names, `=` and commas.
enum AuthorizationHeaderScanner {
  /// Calls `field` with each field's name and value as they appear (the value between the
  /// quotes, with `\` quoted-pairs undone), in order.
  static func scan(
    _ bytes: UnsafeBufferPointer<UInt8>,
    _ field: (_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) throws(OAuthError) -> Void
  ) throws(OAuthError) {
    let count = bytes.count
    @inline(__always) func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
    func text(_ range: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) }

    var index = 0
    while index < count, isSpace(bytes[index]) { index += 1 }
    let schemeStart = index
    while index < count, !isSpace(bytes[index]) { index += 1 }
    let scheme = schemeStart..<index
    guard scheme.count == 5, startsWithOAuth(bytes, at: schemeStart) else {
      throw .malformedAuthorizationHeader(reason: "the scheme is \"\(text(scheme))\", not OAuth")
    }

    while true {
      while index < count, isSpace(bytes[index]) || bytes[index] == UInt8(ascii: ",") { index += 1 }
      if index == count { return }
      let nameStart = index
      while index < count, bytes[index] != UInt8(ascii: "="), bytes[index] != UInt8(ascii: ","), !isSpace(bytes[index]) { index += 1 }
      let name = nameStart..<index
      while index < count, isSpace(bytes[index]) { index += 1 }
      guard !name.isEmpty, index < count, bytes[index] == UInt8(ascii: "=") else {
        throw .malformedAuthorizationHeader(reason: "the field \"\(text(name))\" has no =\"value\"")
      }
      index += 1
      while index < count, isSpace(bytes[index]) { index += 1 }
      guard index < count, bytes[index] == UInt8(ascii: "\"") else {
        throw .malformedAuthorizationHeader(reason: "the value of \"\(text(name))\" does not start with a quote")
      }
      index += 1
      // The quoted-string: found first, unescaped only when it holds a backslash.
      let valueStart = index
      var escaped = false
      // The closing quote, found with memchr; a backslash before it means quoted-pairs, which
      // are walked byte by byte (a `\"` does not close the string).
      if let quote = memchr(bytes.baseAddress! + index, 0x22, count - index) {  // 0x22: `"`
        let end = UnsafeRawPointer(quote) - UnsafeRawPointer(bytes.baseAddress!)
        escaped = memchr(bytes.baseAddress! + index, 0x5C, end - index) != nil  // 0x5C: `\`
        if !escaped { index = end }
      } else {
        index = count
      }
      if escaped {
        while index < count, bytes[index] != UInt8(ascii: "\"") {
          if bytes[index] == UInt8(ascii: "\\") { index += 1 }
          index += 1
        }
      }
      guard index < count else {
        throw .malformedAuthorizationHeader(reason: "the value of \"\(text(name))\" has no closing quote")
      }
      let value = valueStart..<index
      index += 1
      if index < count, bytes[index] != UInt8(ascii: ","), !isSpace(bytes[index]) {
        throw .malformedAuthorizationHeader(reason: "expected a comma after the value of \"\(text(name))\"")
      }
      let nameBytes = UnsafeBufferPointer(rebasing: bytes[name])
      if !escaped {
        try field(nameBytes, UnsafeBufferPointer(rebasing: bytes[value]))
        continue
      }
      var unescaped: [UInt8] = []
      var position = value.lowerBound
      while position < value.upperBound {
        if bytes[position] == UInt8(ascii: "\\") { position += 1 }
        unescaped.append(bytes[position])
        position += 1
      }
      try unescaped.withUnsafeBufferPointer { unescaped throws(OAuthError) in try field(nameBytes, unescaped) }
    }
  }

  /// Whether the five bytes at `start` spell `oauth`, in any case: the scheme test of the
  /// scanner and of the verifier, which reads a header only when it is OAuth.
  static func startsWithOAuth(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
    let oauth: StaticString = "oauth"
    return bytes.count - start >= 5 && (0..<5).allSatisfy { bytes[start + $0] | 0x20 == oauth.utf8Start[$0] }
  }
}
