/// An HMAC key whose pad states were hashed once, so each MAC costs only the hashing of the
/// message: what a signer keeps for its credentials and a verifier caches per (consumer,
/// token). The backend's key type stays behind it. Immutable and safe to share.
struct PreparedHMACKey: Sendable {
  let algorithm: OAuthDigestAlgorithm
  private let key: Crypto.HMACKey

  /// Prepares `key` (the signing key's bytes) for `algorithm`.
  init(_ algorithm: OAuthDigestAlgorithm, key: UnsafeBufferPointer<UInt8>) {
    self.algorithm = algorithm
    self.key = Crypto.prepareHMAC(algorithm, key: key)
  }

  /// Prepares a signing key held as text (``OAuthSigningKey/make(consumerSecret:tokenSecret:)``).
  init(_ algorithm: OAuthDigestAlgorithm, key: String) {
    var key = key
    self = key.withUTF8 { PreparedHMACKey(algorithm, key: $0) }
  }

  /// The digest length in bytes: 20, 32 or 64.
  var length: Int { algorithm.byteCount }

  /// Writes the MAC of `message` to `out`, which holds at least ``length`` bytes.
  func sign(_ message: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) {
    Crypto.mac(message, with: key, into: out)
  }
}
