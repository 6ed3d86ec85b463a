internal import COpenSSL

/// Comparison of secrets in time that depends only on their length, so that how long a
/// comparison takes does not tell how many leading bytes matched.
package enum ConstantTime {
  /// Whether `a` and `b` hold the same bytes.
  package static func equals(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    guard a.count == b.count else { return false }
    guard !a.isEmpty else { return true }
    // Invariant: both buffers hold `a.count` bytes (checked above).
    return CRYPTO_memcmp(a.baseAddress, b.baseAddress, a.count) == 0
  }

  /// Whether `a` is the UTF-8 of `b`.
  package static func equals(_ a: UnsafeBufferPointer<UInt8>, _ b: String) -> Bool {
    withContiguousBytes(b.utf8) { b in equals(a, b) }
  }

  /// Whether `a` is the UTF-8 of `b`.
  package static func equals(_ a: [UInt8], _ b: String) -> Bool {
    a.withUnsafeBufferPointer { a in equals(a, b) }
  }
}
