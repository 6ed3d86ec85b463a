internal import COpenSSL

/// An HMAC key whose pad states were hashed once (see `shim.h`), so each signature costs only
/// the hashing of the message. Immutable after `init`, so it is shared across threads; the key
/// material is wiped when it is freed.
final class PreparedHMACKey: @unchecked Sendable {
  let algorithm: OAuthDigestAlgorithm
  private let state: UnsafeMutableRawPointer
  private let size: Int

  init(_ algorithm: OAuthDigestAlgorithm, key: some Collection<UInt8>) {
    self.algorithm = algorithm
    let keyBytes = Array(key)
    switch algorithm {
    case .sha1:
      size = MemoryLayout<oauth1_hmac_sha1_key>.size
      let pointer = UnsafeMutablePointer<oauth1_hmac_sha1_key>.allocate(capacity: 1)
      keyBytes.withUnsafeBufferPointer { oauth1_hmac_sha1_prepare(pointer, $0.baseAddress, $0.count) }
      state = UnsafeMutableRawPointer(pointer)
    case .sha256:
      size = MemoryLayout<oauth1_hmac_sha256_key>.size
      let pointer = UnsafeMutablePointer<oauth1_hmac_sha256_key>.allocate(capacity: 1)
      keyBytes.withUnsafeBufferPointer { oauth1_hmac_sha256_prepare(pointer, $0.baseAddress, $0.count) }
      state = UnsafeMutableRawPointer(pointer)
    case .sha512:
      size = MemoryLayout<oauth1_hmac_sha512_key>.size
      let pointer = UnsafeMutablePointer<oauth1_hmac_sha512_key>.allocate(capacity: 1)
      keyBytes.withUnsafeBufferPointer { oauth1_hmac_sha512_prepare(pointer, $0.baseAddress, $0.count) }
      state = UnsafeMutableRawPointer(pointer)
    }
  }

  deinit {
    OPENSSL_cleanse(state, size)
    state.deallocate()
  }

  /// The digest length in bytes: 20, 32 or 64.
  var length: Int { algorithm.byteCount }

  /// The MAC of `message`, as a new array (the String-level stages and the verifier).
  func mac(_ message: some Collection<UInt8>) -> [UInt8] {
    [UInt8](unsafeUninitializedCapacity: length) { out, count in
      withContiguousBytes(message) { sign($0, into: out.baseAddress!) }
      count = length
    }
  }

  /// Writes the MAC of `message` to `out`, which holds at least ``length`` bytes.
  func sign(_ message: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) {
    switch algorithm {
    case .sha1: oauth1_hmac_sha1_sign(state.assumingMemoryBound(to: oauth1_hmac_sha1_key.self), message.baseAddress, message.count, out)
    case .sha256: oauth1_hmac_sha256_sign(state.assumingMemoryBound(to: oauth1_hmac_sha256_key.self), message.baseAddress, message.count, out)
    case .sha512: oauth1_hmac_sha512_sign(state.assumingMemoryBound(to: oauth1_hmac_sha512_key.self), message.baseAddress, message.count, out)
    }
  }
}
