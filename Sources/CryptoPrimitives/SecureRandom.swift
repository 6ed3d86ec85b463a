internal import COpenSSL

/// Bytes from a cryptographically secure generator (OpenSSL's `RAND_bytes`, seeded by the
/// operating system).
package enum SecureRandom {
  /// Fills `buffer` with random bytes.
  package static func fill(_ buffer: UnsafeMutableBufferPointer<UInt8>) throws(CryptoError) {
    // Invariant: RAND_bytes writes exactly `buffer.count` bytes from its base address.
    guard buffer.isEmpty || RAND_bytes(buffer.baseAddress, Int32(buffer.count)) == 1 else {
      throw OpenSSLErrors.failure("random generation")
    }
  }
}
