/// The primitives the signer needs from a crypto library. Only the `_openssl` files
/// implement it and import `COpenSSL`; nothing of OpenSSL reaches the public API, so another
/// backend (CommonCrypto, say) could replace it without a visible change.
protocol CryptoBackend {
  /// The backend's RSA key, immutable and safe to share (behind ``RSAPrivateKey`` and
  /// ``RSAPublicKey``).
  associatedtype RSAKey: Sendable
  /// Reads an unencrypted PEM private key (PKCS #1 or #8), refusing an inconsistent one.
  static func readRSAPrivateKey(pem: String) throws(OAuthError) -> RSAKey
  /// Reads a PEM public key or X.509 certificate.
  static func readRSAPublicKey(pem: String) throws(OAuthError) -> RSAKey
  static func bits(of key: RSAKey) -> Int
  /// RSASSA-PKCS1-v1_5 over `digest`.
  static func sign(_ message: some Collection<UInt8>, digest: OAuthDigestAlgorithm, with key: RSAKey) throws(OAuthError) -> [UInt8]
  static func isValidSignature(_ signature: [UInt8], for message: some Collection<UInt8>, digest: OAuthDigestAlgorithm, with key: RSAKey)
    throws(OAuthError) -> Bool
  /// The backend's prepared HMAC key (behind ``PreparedHMACKey``), immutable and safe to share.
  associatedtype HMACKey: Sendable
  /// Hashes the pad states of `key` for `digest` once.
  static func prepareHMAC(_ digest: OAuthDigestAlgorithm, key: UnsafeBufferPointer<UInt8>) -> HMACKey
  /// Writes the MAC of `message` to `out`, which holds at least the digest's length.
  static func mac(_ message: UnsafeBufferPointer<UInt8>, with key: HMACKey, into out: UnsafeMutablePointer<UInt8>)
  /// Overwrites key material in a way the optimizer does not remove.
  static func wipe(_ buffer: UnsafeMutableBufferPointer<UInt8>)
  /// The digest of `data`.
  static func digest(_ algorithm: OAuthDigestAlgorithm, data: some Collection<UInt8>) throws(OAuthError) -> [UInt8]
  /// Fills `buffer` from a cryptographically secure generator, without an allocation.
  static func fillRandom(_ buffer: UnsafeMutableBufferPointer<UInt8>) throws(OAuthError)
  /// Whether `a` and `b` are equal, in time that depends only on their length.
  static func constantTimeEquals(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool
}

/// The backend in use.
typealias Crypto = OpenSSLBackend
