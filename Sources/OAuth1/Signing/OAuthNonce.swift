/// The default `oauth_nonce`: 192 bits from the system CSPRNG (OpenSSL's `RAND_bytes`) written in the
/// URL-safe base64 alphabet without padding: 32 characters that need no encoding anywhere.
///
/// ```swift
/// let nonce = try OAuthNonce.random()  // e.g. "q3Ad0-4bVJ2lWq9gN7yZ_1u8xQm5JcS2"
/// ```
public enum OAuthNonce {
  /// A fresh random nonce.
  public static func random() throws(OAuthError) -> String {
    let bytes = try Crypto.randomBytes(count: 24)
    return String(OAuthBase64.encode(bytes).map { character -> Character in
      switch character {
      case "+": return "-"
      case "/": return "_"
      default: return character
      }
    }.filter { $0 != "=" })
  }
}
