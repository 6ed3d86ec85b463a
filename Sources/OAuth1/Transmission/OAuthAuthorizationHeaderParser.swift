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
    var scanner = Substring(header)
    scanner = scanner.drop { $0.isWhitespace }
    guard scanner.prefix(5).lowercased() == "oauth", scanner.dropFirst(5).first?.isWhitespace ?? true else {
      let scheme = scanner.prefix { !$0.isWhitespace }
      throw .malformedAuthorizationHeader(reason: "the scheme is \"\(scheme)\", not OAuth")
    }
    scanner = scanner.dropFirst(5)

    var fields = Fields(realm: nil, parameters: [], rawParameters: [])
    while true {
      scanner = scanner.drop { $0.isWhitespace || $0 == "," }
      if scanner.isEmpty { break }
      let name = scanner.prefix { $0 != "=" && $0 != "," && !$0.isWhitespace }
      scanner = scanner[name.endIndex...].drop { $0.isWhitespace }
      guard !name.isEmpty, scanner.first == "=" else {
        throw .malformedAuthorizationHeader(reason: "the field \"\(name)\" has no =\"value\"")
      }
      scanner = scanner.dropFirst().drop { $0.isWhitespace }
      guard scanner.first == "\"" else {
        throw .malformedAuthorizationHeader(reason: "the value of \"\(name)\" does not start with a quote")
      }
      scanner = scanner.dropFirst()
      var value = ""
      var closed = false
      while let character = scanner.first {
        scanner = scanner.dropFirst()
        if character == "\\", let escaped = scanner.first {
          value.append(escaped)
          scanner = scanner.dropFirst()
        } else if character == "\"" {
          closed = true
          break
        } else {
          value.append(character)
        }
      }
      guard closed else {
        throw .malformedAuthorizationHeader(reason: "the value of \"\(name)\" has no closing quote")
      }
      if let next = scanner.first, next != ",", !next.isWhitespace {
        throw .malformedAuthorizationHeader(reason: "expected a comma after the value of \"\(name)\"")
      }
      if name == "realm" {
        fields.realm = value
        continue
      }
      guard let decodedName = PercentEncoding.decode(name), let decodedValue = PercentEncoding.decode(value) else {
        throw .invalidParameterEncoding(source: .authorizationHeader, parameter: String(name))
      }
      fields.parameters.append(OAuthParameter(decodedName, decodedValue))
      fields.rawParameters.append(OAuthParameter(String(name), value))
    }
    return fields
  }
}
