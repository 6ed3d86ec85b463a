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
  /// Returns the value of `oauth_body_hash`, `base64(digest(body))`, not yet percent-encoded.
  /// - Parameters:
  ///   - body: The body exactly as sent; an empty collection for a request without a body.
  ///   - algorithm: The digest; `.sha1` (the draft's) by default, `.sha256` for providers such as Mastercard.
  /// - Throws: ``OAuthError/cryptoFailure(operation:reason:)`` when OpenSSL fails to compute the digest.
  public static func compute(body: some Collection<UInt8>, algorithm: OAuthDigestAlgorithm = .sha1) throws(OAuthError) -> String {
    OAuthBase64.encode(try Crypto.digest(algorithm, data: body))
  }
}
