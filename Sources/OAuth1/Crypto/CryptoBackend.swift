/// The primitives the signer needs from a crypto library. Only the `_openssl` files
/// implement it and import `COpenSSL`; nothing of OpenSSL reaches the public API, so another
/// backend (CommonCrypto, say) could replace it without a visible change.
protocol CryptoBackend {
  /// The digest of `data`.
  static func digest(_ algorithm: OAuthDigestAlgorithm, data: some Collection<UInt8>) throws(OAuthError) -> [UInt8]
  /// `count` bytes from a cryptographically secure generator.
  static func randomBytes(count: Int) throws(OAuthError) -> [UInt8]
  /// Fills `buffer` from the same generator, without an allocation.
  static func fillRandom(_ buffer: UnsafeMutableBufferPointer<UInt8>) throws(OAuthError)
  /// Whether `a` and `b` are equal, in time that depends only on their length.
  static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool
}

/// The backend in use.
typealias Crypto = OpenSSLBackend
