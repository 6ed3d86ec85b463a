import PercentEncoding

extension OAuthAuthorizationHeader {
  /// The fields of a received `Authorization: OAuth ...` header.
  public struct Fields: Hashable, Sendable {
    /// The `realm`, unquoted; `nil` when absent.
    public var realm: String?
    /// Every other field in the order received, percent-decoded.
    public var parameters: [OAuthParameter]
    /// Every other field in the order received, exactly as it appeared between the quotes.
    public var rawParameters: [OAuthParameter]
  }

  /// Parses an `OAuth` header: the scheme (any case), then `name="value"` fields separated by
  /// commas, with optional white space (line folds included) around them.
  ///
  /// ```swift
  /// let fields = try OAuthAuthorizationHeader.parse(#"OAuth realm="Example", oauth_signature="a%2Bb%3D""#)
  /// fields.realm                   // "Example"
  /// fields.parameters[0].value     // "a+b="
  /// ```
  public static func parse(_ header: String) throws(OAuthError) -> Fields {
    // Scanned as UTF-8 bytes: every delimiter is ASCII, and a provider parses one header per
    // request it verifies.
    let bytes = Array(header.utf8)
    let count = bytes.count
    func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
    func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

    var index = 0
    while index < count, isSpace(bytes[index]) { index += 1 }
    let schemeStart = index
    while index < count, !isSpace(bytes[index]) { index += 1 }
    guard index - schemeStart == 5, text(schemeStart..<index).lowercased() == "oauth" else {
      throw .malformedAuthorizationHeader(reason: "the scheme is \"\(text(schemeStart..<index))\", not OAuth")
    }

    var fields = Fields(realm: nil, parameters: [], rawParameters: [])
    while true {
      while index < count, isSpace(bytes[index]) || bytes[index] == UInt8(ascii: ",") { index += 1 }
      if index == count { break }
      let nameStart = index
      while index < count, bytes[index] != UInt8(ascii: "="), bytes[index] != UInt8(ascii: ","), !isSpace(bytes[index]) { index += 1 }
      let name = text(nameStart..<index)
      while index < count, isSpace(bytes[index]) { index += 1 }
      guard !name.isEmpty, index < count, bytes[index] == UInt8(ascii: "=") else {
        throw .malformedAuthorizationHeader(reason: "the field \"\(name)\" has no =\"value\"")
      }
      index += 1
      while index < count, isSpace(bytes[index]) { index += 1 }
      guard index < count, bytes[index] == UInt8(ascii: "\"") else {
        throw .malformedAuthorizationHeader(reason: "the value of \"\(name)\" does not start with a quote")
      }
      index += 1
      // The quoted-string: found first, unescaped only when it holds a backslash.
      let valueStart = index
      var escaped = false
      while index < count, bytes[index] != UInt8(ascii: "\"") {
        if bytes[index] == UInt8(ascii: "\\") { escaped = true; index += 1 }
        index += 1
      }
      guard index < count else {
        throw .malformedAuthorizationHeader(reason: "the value of \"\(name)\" has no closing quote")
      }
      let valueEnd = index
      index += 1
      if index < count, bytes[index] != UInt8(ascii: ","), !isSpace(bytes[index]) {
        throw .malformedAuthorizationHeader(reason: "expected a comma after the value of \"\(name)\"")
      }
      var value = bytes[valueStart..<valueEnd]
      if escaped {
        var unescaped: [UInt8] = []
        var position = valueStart
        while position < valueEnd {
          if bytes[position] == UInt8(ascii: "\\") { position += 1 }
          unescaped.append(bytes[position])
          position += 1
        }
        value = unescaped[...]
      }
      let raw = String(decoding: value, as: UTF8.self)
      if name == "realm" {
        fields.realm = raw
        continue
      }
      guard let decodedName = PercentEncoding.decode(name), let decodedValue = PercentEncoding.decode(raw) else {
        throw .invalidParameterEncoding(source: .authorizationHeader, parameter: name)
      }
      fields.parameters.append(OAuthParameter(decodedName, decodedValue))
      fields.rawParameters.append(OAuthParameter(name, raw))
    }
    return fields
  }
}
