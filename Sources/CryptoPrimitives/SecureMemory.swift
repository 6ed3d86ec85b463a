internal import COpenSSL

/// The wiping of secrets (keys, pads, hash states), in a way the optimizer does not remove, so
/// that no copy outlives its use.
package enum SecureMemory {
  /// Overwrites the bytes of `buffer`.
  package static func wipe(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
    // Invariant: the shim writes exactly `buffer.count` bytes from its base address.
    if let base = buffer.baseAddress { oauth1_wipe(base, buffer.count) }
  }

  /// Overwrites the bytes of `bytes` (their count stays).
  package static func wipe(_ bytes: inout [UInt8]) {
    bytes.withUnsafeMutableBufferPointer { wipe($0) }
  }
}
