import PercentEncoding

/// Collects the parameters that a signature covers (RFC 5849, section 3.4.1.3.1).
///
/// Three sources are signed: the query component of the URL, an
/// `application/x-www-form-urlencoded` body (no other body), and the protocol parameters
/// (`oauth_*`, wherever they are sent). `oauth_signature` is never signed, nor is the
/// `realm` of an Authorization header. Every value is fully decoded, and `+` in a query or
/// form body is a space.
///
/// ```swift
/// let parameters = try OAuthParameterCollection.collect(
///   query: "b5=%3D%253D&a3=a&c%40=&a2=r%20b",
///   formBody: Array("c2&a3=2+q".utf8),
///   protocolParameters: [OAuthParameter("oauth_consumer_key", "9djdj82h48djs9d2")])
/// // [b5: "=%3D", a3: "a", c@: "", a2: "r b", c2: "", a3: "2 q", oauth_consumer_key: ...]
/// ```
public enum OAuthParameterCollection {
  /// Returns the signed parameters in source order: query, then form body, then protocol
  /// parameters. Order does not matter to the signature; it is kept for display.
  public static func collect(
    query: String?,
    formBody: [UInt8]?,
    protocolParameters: [OAuthParameter]
  ) throws(OAuthError) -> [OAuthParameter] {
    let signed = protocolParameters.filter { isSigned(protocolParameter: $0.name) }
    let query = query ?? ""
    let raw = query.utf8.count + (formBody?.count ?? 0)
    try CanonicalParameters.checkSize(raw)
    return try ScratchArena.with(EncodedPair.self) { bytes, pairs throws(OAuthError) in
      let queryRange = bytes.append(contentsOf: query)
      try CanonicalParameters.appendForm(queryRange, from: .query, &bytes, &pairs)
      if let formBody {
        let formRange = bytes.append(contentsOf: formBody)
        try CanonicalParameters.appendForm(formRange, from: .formBody, &bytes, &pairs)
      }
      for parameter in signed { CanonicalParameters.append(decoded: parameter, &bytes, &pairs) }
      return CanonicalParameters.decoded(0..<pairs.count, includingProtocol: true, bytes, pairs)
    }
  }

  /// Parses an `application/x-www-form-urlencoded` string (a query or a form body) into
  /// decoded pairs, dropping `oauth_signature`.
  ///
  /// Empty segments (`a=1&&b=2`) are skipped; a segment without `=` is a name with an empty
  /// value. Throws ``OAuthError/invalidParameterEncoding(source:parameter:)`` when a name or
  /// value does not decode to UTF-8.
  public static func parseForm(
    _ form: some Collection<UInt8>,
    source: OAuthParameterSource
  ) throws(OAuthError) -> [OAuthParameter] {
    let form = Array(form)
    try CanonicalParameters.checkSize(form.count)
    return try ScratchArena.with(EncodedPair.self) { bytes, pairs throws(OAuthError) in
      let formRange = bytes.append(contentsOf: form)
      try CanonicalParameters.appendForm(formRange, from: source, &bytes, &pairs)
      return CanonicalParameters.decoded(0..<pairs.count, includingProtocol: true, bytes, pairs)
    }
  }

  /// Whether a protocol parameter (from the Authorization header or the signer's own
  /// `oauth_*` set) is signed: everything but `oauth_signature` and `realm`.
  public static func isSigned(protocolParameter name: String) -> Bool {
    name != "oauth_signature" && name != "realm"
  }
}
