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
    var fields = Fields(realm: nil, parameters: [], rawParameters: [])
    // The header, then its values with their quoted-pairs unescaped.
    try ScratchArena.withBytes { bytes throws(OAuthError) in
      let range = bytes.append(contentsOf: header)
      try AuthorizationHeaderScanner.scan(range, in: &bytes) { name, value, bytes throws(OAuthError) in
        let name = bytes.string(name), raw = bytes.string(value)
        if name == "realm" {
          fields.realm = raw
          return
        }
        guard let decodedName = PercentEncoding.decode(name), let decodedValue = PercentEncoding.decode(raw) else {
          throw .invalidParameterEncoding(source: .authorizationHeader, parameter: name)
        }
        fields.parameters.append(OAuthParameter(decodedName, decodedValue))
        fields.rawParameters.append(OAuthParameter(name, raw))
      }
    }
    return fields
  }
}
