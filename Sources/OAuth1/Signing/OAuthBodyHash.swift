/// `oauth_body_hash` (OAuth Request Body Hash draft): `base64(digest(body))`, which lets a
/// signature cover a body that is not a form, such as JSON or XML.
///
/// The draft uses SHA-1; some providers (Mastercard) ask for SHA-256. A request without a
/// body hashes the empty string. Form-encoded bodies never carry a body hash: their
/// parameters are signed directly.
///
/// ```swift
/// try OAuthBodyHash.compute(body: Array("Hello World!".utf8))  // "Lve95gjOVATpfV8EL5X4nxwjKHE="
/// ```
public enum OAuthBodyHash {
  public static func compute(body: some Collection<UInt8>, algorithm: OAuthDigestAlgorithm = .sha1) throws(OAuthError) -> String {
    OAuthBase64.encode(try Crypto.digest(algorithm, data: body))
  }
}
