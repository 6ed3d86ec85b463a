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

  /// The length of a random nonce.
  static let length = 32

  /// Writes a fresh random nonce (``length`` bytes) at `out`, without a String: the signer's path.
  static func write(into out: UnsafeMutablePointer<UInt8>) throws(OAuthError) -> Int {
    try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { random throws(OAuthError) in
      try Crypto.fillRandom(random)
      let alphabet: StaticString = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
      let symbols = alphabet.utf8Start
      var written = 0
      for group in stride(from: 0, to: 24, by: 3) {
        let value = UInt32(random[group]) << 16 | UInt32(random[group + 1]) << 8 | UInt32(random[group + 2])
        out[written] = symbols[Int(value >> 18 & 0x3F)]
        out[written + 1] = symbols[Int(value >> 12 & 0x3F)]
        out[written + 2] = symbols[Int(value >> 6 & 0x3F)]
        out[written + 3] = symbols[Int(value & 0x3F)]
        written += 4
      }
      return written
    }
  }
}
