/// The default `oauth_nonce`: 192 bits from the system CSPRNG (OpenSSL's `RAND_bytes`) written in the
/// URL-safe base64 alphabet without padding: 32 characters that need no encoding anywhere.
///
/// ```swift
/// let nonce = try OAuthNonce.random()  // e.g. "q3Ad0-4bVJ2lWq9gN7yZ_1u8xQm5JcS2"
/// ```
public enum OAuthNonce {
  /// A fresh random nonce.
  public static func random() throws(OAuthError) -> String {
    try ScratchArena.withBytes { out throws(OAuthError) in
      let random = try Crypto.appendRandom(randomBytes, to: &out)
      let nonce = OAuthBase64.append(random, .urlSafeUnpadded, in: &out)
      return out.string(nonce)
    }
  }

  /// How many random bytes a nonce holds: 192 bits.
  static let randomBytes = 24
}
