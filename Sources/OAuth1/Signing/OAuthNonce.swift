/// The default `oauth_nonce`: 192 bits from the system CSPRNG (OpenSSL's `RAND_bytes`) written in the
/// URL-safe base64 alphabet without padding: 32 characters that need no encoding anywhere.
///
/// ```swift
/// let nonce = try OAuthNonce.random()  // e.g. "q3Ad0-4bVJ2lWq9gN7yZ_1u8xQm5JcS2"
/// ```
public enum OAuthNonce {
  /// A fresh random nonce.
  public static func random() throws(OAuthError) -> String {
    try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length) { out throws(OAuthError) in
      String(decoding: UnsafeBufferPointer(rebasing: out[..<(try write(into: out.baseAddress!))]), as: UTF8.self)
    }
  }

  /// The length of a random nonce.
  static let length = 32

  /// Writes a fresh random nonce (``length`` bytes) at `out`, without a String: the signer's path.
  static func write(into out: UnsafeMutablePointer<UInt8>) throws(OAuthError) -> Int {
    try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { random throws(OAuthError) in
      try Crypto.fillRandom(random)
      return Base64.encode(UnsafeBufferPointer(random), .urlSafeUnpadded, into: out)
    }
  }
}
