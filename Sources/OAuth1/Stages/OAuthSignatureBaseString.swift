/// The signature base string (RFC 5849, section 3.4.1.1): the one string that is signed.
///
/// `METHOD&enc(base string URI)&enc(normalized parameters)`, with the method uppercased.
///
/// ```swift
/// OAuthSignatureBaseString.make(
///   method: "post", baseStringURI: "https://api.x.com/2/tweets", normalizedParameters: "a=1")
/// // "POST&https%3A%2F%2Fapi.x.com%2F2%2Ftweets&a%3D1"
/// ```
public enum OAuthSignatureBaseString {
  /// Returns `METHOD&enc(baseStringURI)&enc(normalizedParameters)`, uppercasing `method`. Pass the outputs of
  /// ``OAuthBaseStringURI`` and ``OAuthParameterNormalization`` as they are: this function encodes them once more.
  public static func make(method: String, baseStringURI: String, normalizedParameters: String) -> String {
    BaseString.make(method: method, baseStringURI: baseStringURI, normalizedParameters: normalizedParameters)
  }
}

extension OAuthSignatureBaseString {
  /// The base string of a request as it was sent or received, its protocol parameters read
  /// from the `Authorization` header, the query or the form body, as a provider reads them.
  ///
  /// This is the verifier's own routine: use it to compare what a client sent with what a
  /// provider says it computed (see ``OAuthBaseStringDiff``). A request past `limits` (the
  /// verifier's defaults unless given) is refused as the verifier refuses it.
  ///
  /// ```swift
  /// let ours = try OAuthSignatureBaseString.make(
  ///   received: OAuthRequest(method: "GET", url: "https://api.example.com/items?page=2"),
  ///   authorization: sentAuthorizationHeader)
  /// ```
  public static func make(
    received request: OAuthRequest, authorization: String?, limits: OAuthVerifier.Limits = OAuthVerifier.Limits()
  ) throws(OAuthVerificationError) -> String {
    let located = try ProtocolParameters.locate(request: request, authorization: authorization, limits: limits)
    do {
      return try located.withBaseString(of: request) { _, baseString in baseString.string }
    } catch {
      throw OAuthVerificationError(.parameterRejected, advice: "the request's base string cannot be built: \(error)")
    }
  }
}
