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
    withSorted(parameters) { sorted in
      ByteWriter.string(capacity: sorted.length(forBaseString: false)) { sorted.append(to: &$0, forBaseString: false) }
    }
  }

  /// `parameters` in signing order, still decoded, for display.
  public static func sorted(_ parameters: [OAuthParameter]) -> [OAuthParameter] {
    withSorted(parameters) { $0.decoded(includingProtocol: true) }
  }

  /// The encoded pairs in signing order.
  public static func encodedInSigningOrder(_ parameters: [OAuthParameter]) -> [OAuthParameter] {
    withSorted(parameters) { $0.encoded }
  }

  /// The engine's stage 3 (``CanonicalParameters``): encoded, then sorted by encoded name and
  /// value, comparing bytes.
  private static func withSorted<R>(_ parameters: [OAuthParameter], _ body: (CanonicalParameters) -> R) -> R {
    let empty = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    // Only a request larger than 512 MiB can throw here, and these parameters are in memory already.
    let result = try? CanonicalParameters.withScratch(
      query: empty, formBody: nil, encodedBytes: OAuthParameterCollection.encodedRoom(parameters), extraEntries: parameters.count
    ) { collected throws(OAuthError) in
      for parameter in parameters { collected.append(decoded: parameter) }
      collected.sort()
      return body(collected)
    }
    return result!
  }
}
