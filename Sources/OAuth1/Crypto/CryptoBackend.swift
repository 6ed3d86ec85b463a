/// The primitives the signer needs from a crypto library. Only the `_openssl` files
/// implement it and import `COpenSSL`; nothing of OpenSSL reaches the public API, so another
/// backend (CommonCrypto, say) could replace it without a visible change.
///
/// Bytes come and go through the engine's ``ByteWriter`` (ranges of what it wrote, room it
/// checks) or as arrays: the backend is, with the writer and ``ScratchArena``, the only code
/// that touches memory through pointers, and it reaches the writer's memory only through the
/// writer's checked hooks.
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
  /// Hashes the pad states of the key in `range` of `key` for `digest` once.
  static func prepareHMAC(_ digest: OAuthDigestAlgorithm, key: borrowing ByteWriter, _ range: Range<Int>) -> HMACKey
  /// Appends the MAC of the bytes of `message` in `range` to `out` and returns where it is.
  static func appendMAC(of message: borrowing ByteWriter, _ range: Range<Int>, with key: HMACKey, to out: inout ByteWriter) -> Range<Int>
  /// Overwrites what `writer` wrote (key material) in a way the optimizer does not remove.
  static func wipe(_ writer: inout ByteWriter)
  /// Overwrites `bytes` (key material) in a way the optimizer does not remove.
  static func wipe(_ bytes: inout [UInt8])
  /// The digest of `data`.
  static func digest(_ algorithm: OAuthDigestAlgorithm, data: some Collection<UInt8>) throws(OAuthError) -> [UInt8]
  /// Appends `count` bytes from a cryptographically secure generator and returns where they are.
  static func appendRandom(_ count: Int, to out: inout ByteWriter) throws(OAuthError) -> Range<Int>
  /// Whether the bytes of `range` of `a` are the UTF-8 of `b`, in time that depends only on their length.
  static func constantTimeEquals(_ a: borrowing ByteWriter, _ range: Range<Int>, _ b: String) -> Bool
  /// Whether `a` is the UTF-8 of `b`, in time that depends only on their length.
  static func constantTimeEquals(_ a: [UInt8], _ b: String) -> Bool
}

/// The backend in use.
typealias Crypto = OpenSSLBackend
