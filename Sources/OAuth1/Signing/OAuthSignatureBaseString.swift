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
