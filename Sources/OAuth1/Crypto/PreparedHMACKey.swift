internal import CryptoPrimitives

/// An HMAC key whose pad states were hashed once, so each MAC costs only the hashing of the
/// message: what a signer keeps for its credentials and a verifier caches per (consumer,
/// token). `CryptoPrimitives`' key stays behind it. Immutable and safe to share.
struct PreparedHMACKey: Sendable {
  let algorithm: OAuthDigestAlgorithm
  private let key: HMACKey

  /// Prepares the signing key written in `key` for `algorithm`.
  init(_ algorithm: OAuthDigestAlgorithm, key: borrowing ByteWriter) {
    self.algorithm = algorithm
    self.key = key.withUnsafeBytes(0..<key.count) { HMACKey(algorithm.primitive, key: $0) }
  }

  /// Prepares a signing key held as text (``OAuthSigningKey/make(consumerSecret:tokenSecret:)``).
  init(_ algorithm: OAuthDigestAlgorithm, key: String) {
    self = ScratchArena.withBytes { bytes in
      bytes.append(contentsOf: key)
      defer { Crypto.wipe(&bytes) }
      return PreparedHMACKey(algorithm, key: bytes)
    }
  }

  /// The digest length in bytes: 20, 32 or 64.
  var length: Int { algorithm.byteCount }

  /// Appends the MAC of the bytes of `message` in `range` to `out` (``length`` bytes) and
  /// returns where it is.
  @discardableResult
  func appendMAC(of message: borrowing ByteWriter, _ range: Range<Int>, to out: inout ByteWriter) -> Range<Int> {
    let start = out.count, length = length
    out.appendUnsafe(upTo: length, reading: message, range) { message, mac in
      key.sign(message, into: mac)
      return length
    }
    return start..<out.count
  }
}
