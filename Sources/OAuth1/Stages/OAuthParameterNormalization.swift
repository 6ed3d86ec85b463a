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
    withSorted(parameters) { order, bytes, pairs in order.normalized(request: bytes, protocol: bytes, pairs) }
  }

  /// `parameters` in signing order, still decoded, for display.
  public static func sorted(_ parameters: [OAuthParameter]) -> [OAuthParameter] {
    withSorted(parameters) { order, bytes, pairs in CanonicalParameters.decoded(order.request, includingProtocol: true, bytes, pairs) }
  }

  /// The engine's stage 3 (``CanonicalParameters``): encoded, then sorted by encoded name and
  /// value, comparing bytes.
  private static func withSorted<R>(
    _ parameters: [OAuthParameter], _ body: (SigningOrder, borrowing ByteWriter, borrowing ScratchArena.List<EncodedPair>) -> R
  ) -> R {
    ScratchArena.with(EncodedPair.self) { bytes, pairs in
      for parameter in parameters { CanonicalParameters.append(decoded: parameter, &bytes, &pairs) }
      let order = SigningOrder(request: 0..<pairs.count)
      CanonicalParameters.sort(order.request, bytes, &pairs)
      return body(order, bytes, pairs)
    }
  }
}
