import PercentEncoding

/// Normalizes collected parameters into the string that the signature base string carries
/// (RFC 5849, section 3.4.1.3.2).
///
/// Names and values are percent-encoded first, then sorted by encoded name and, for equal
/// names, by encoded value, comparing bytes; then joined as `name=value` with `&`. Sorting
/// the encoded strings, not the decoded ones and not whole `name=value` strings, is what
/// makes `a3=2%20q` come before `a3=a` and `id_1` before `id_10`.
///
/// ```swift
/// OAuthParameterNormalization.normalize([OAuthParameter("b", "2"), OAuthParameter("a", "x y")])
/// // "a=x%20y&b=2"
/// ```
public enum OAuthParameterNormalization {
  /// Returns `parameters` encoded, sorted and joined.
  public static func normalize(_ parameters: [OAuthParameter]) -> String {
    encodedInSigningOrder(parameters).map { $0.name + "=" + $0.value }.joined(separator: "&")
  }

  /// `parameters` in signing order, still decoded, for display.
  public static func sorted(_ parameters: [OAuthParameter]) -> [OAuthParameter] {
    zip(parameters, parameters.map(encode))
      .sorted { inSigningOrder($0.1, $1.1) }
      .map(\.0)
  }

  /// The encoded pairs in signing order.
  public static func encodedInSigningOrder(_ parameters: [OAuthParameter]) -> [OAuthParameter] {
    parameters.map(encode).sorted(by: inSigningOrder)
  }

  private static func encode(_ parameter: OAuthParameter) -> OAuthParameter {
    OAuthParameter(PercentEncoding.encode(parameter.name), PercentEncoding.encode(parameter.value))
  }

  /// Byte order on encoded name, then encoded value. Encoded strings are ASCII, so their
  /// UTF-8 bytes are the octets RFC 5849 compares.
  private static func inSigningOrder(_ lhs: OAuthParameter, _ rhs: OAuthParameter) -> Bool {
    if lhs.name != rhs.name { return lhs.name.utf8.lexicographicallyPrecedes(rhs.name.utf8) }
    return lhs.value.utf8.lexicographicallyPrecedes(rhs.value.utf8)
  }
}
