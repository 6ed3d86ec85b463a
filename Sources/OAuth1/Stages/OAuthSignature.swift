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
    let key = try SignatureKey(method, signingKey: signingKey, privateKey: privateKey)
    return try withBaseString(baseString) { baseString, out throws(OAuthError) in
      let signature = try key.appendSignature(of: baseString, encoded: false, to: &out)
      return out.string(signature)
    }
  }

  /// The raw signature bytes of an HMAC or RSA method, before base64; for PLAINTEXT the
  /// UTF-8 bytes of the signing key.
  public static func digest(
    baseString: String,
    method: OAuthSignatureMethod,
    signingKey: String,
    privateKey: RSAPrivateKey? = nil
  ) throws(OAuthError) -> [UInt8] {
    let key = try SignatureKey(method, signingKey: signingKey, privateKey: privateKey)
    return try withBaseString(baseString) { baseString, _ throws(OAuthError) in try key.digest(of: baseString) }
  }

  /// Lends `body` a writer holding `baseString` and an empty one.
  private static func withBaseString<R>(
    _ baseString: String, _ body: (borrowing ByteWriter, inout ByteWriter) throws(OAuthError) -> R
  ) throws(OAuthError) -> R {
    try ScratchArena.withBytes { bytes throws(OAuthError) in
      bytes.append(contentsOf: baseString)
      return try ScratchArena.withBytes { out throws(OAuthError) in try body(bytes, &out) }
    }
  }
}
