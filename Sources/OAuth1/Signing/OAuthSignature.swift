/// Computes `oauth_signature` from the signature base string (RFC 5849, sections 3.4.2–3.4.4).
///
/// HMAC methods key the MAC with the signing key; RSA methods sign with the private key
/// (PKCS#1 v1.5) and ignore the signing key; PLAINTEXT is the signing key itself. An RSA
/// method without a key throws: nothing is ever sent unsigned.
///
/// ```swift
/// let signature = try OAuthSignature.sign(
///   baseString: baseString, method: .hmacSHA1, signingKey: "kAcSOq...&LswwdoU...")
/// // "hCtSmYh+iHYCEqBWrE7C7hYmtUk="
/// ```
public enum OAuthSignature {
  /// The signature as transmitted in `oauth_signature` (before the transmission's own
  /// percent-encoding): base64 of the digest, or the signing key for PLAINTEXT.
  public static func sign(
    baseString: String,
    method: OAuthSignatureMethod,
    signingKey: String,
    privateKey: RSAPrivateKey? = nil
  ) throws(OAuthError) -> String {
    if method == .plaintext { return signingKey }
    return OAuthBase64.encode(try digest(baseString: baseString, method: method, signingKey: signingKey, privateKey: privateKey))
  }

  /// The raw signature bytes of an HMAC or RSA method, before base64; for PLAINTEXT the
  /// UTF-8 bytes of the signing key.
  public static func digest(
    baseString: String,
    method: OAuthSignatureMethod,
    signingKey: String,
    privateKey: RSAPrivateKey? = nil
  ) throws(OAuthError) -> [UInt8] {
    switch method.kind {
    case .hmac(let digest):
      return PreparedHMACKey(digest, key: signingKey.utf8).mac(baseString.utf8)
    case .rsa(let digest):
      guard let privateKey else { throw .missingPrivateKey(method) }
      return try privateKey.sign(baseString.utf8, digest: digest)
    case .plaintext:
      return Array(signingKey.utf8)
    }
  }
}
