internal import COpenSSL

/// The OpenSSL backend's prepared HMAC key: the inner and outer pad states hashed once.
///
/// `shim.h` keeps OpenSSL 3's deprecated low-level `SHA*_Init/Update/Final` on purpose, because
/// it is measurably faster: a hashed state is a plain struct that is copied per MAC, so a MAC
/// costs only the message's blocks. For Twitter's 300-byte base string that is about 7,800
/// instructions, against 24,800 for OpenSSL's one-shot `HMAC()` (EVP underneath), which derives
/// the pads and fetches the digest on every call (`oauth1-bench --callgrind`, the first two rows).
/// Immutable after `init`, so it is shared across threads; the key material is wiped when it is
/// freed.
final class OpenSSLHMACKey: @unchecked Sendable {
  let algorithm: OAuthDigestAlgorithm
  private let state: UnsafeMutableRawPointer
  private let size: Int

  init(_ algorithm: OAuthDigestAlgorithm, key: UnsafeBufferPointer<UInt8>) {
    self.algorithm = algorithm
    switch algorithm {
    case .sha1:
      size = MemoryLayout<oauth1_hmac_sha1_key>.size
      let pointer = UnsafeMutablePointer<oauth1_hmac_sha1_key>.allocate(capacity: 1)
      oauth1_hmac_sha1_prepare(pointer, key.baseAddress, key.count)
      state = UnsafeMutableRawPointer(pointer)
    case .sha256:
      size = MemoryLayout<oauth1_hmac_sha256_key>.size
      let pointer = UnsafeMutablePointer<oauth1_hmac_sha256_key>.allocate(capacity: 1)
      oauth1_hmac_sha256_prepare(pointer, key.baseAddress, key.count)
      state = UnsafeMutableRawPointer(pointer)
    case .sha512:
      size = MemoryLayout<oauth1_hmac_sha512_key>.size
      let pointer = UnsafeMutablePointer<oauth1_hmac_sha512_key>.allocate(capacity: 1)
      oauth1_hmac_sha512_prepare(pointer, key.baseAddress, key.count)
      state = UnsafeMutableRawPointer(pointer)
    }
  }

  deinit {
    oauth1_wipe(state, size)
    state.deallocate()
  }

  /// Writes the MAC of `message` to `out`, which holds at least the digest's length.
  func sign(_ message: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) {
    switch algorithm {
    case .sha1: oauth1_hmac_sha1_sign(state.assumingMemoryBound(to: oauth1_hmac_sha1_key.self), message.baseAddress, message.count, out)
    case .sha256: oauth1_hmac_sha256_sign(state.assumingMemoryBound(to: oauth1_hmac_sha256_key.self), message.baseAddress, message.count, out)
    case .sha512: oauth1_hmac_sha512_sign(state.assumingMemoryBound(to: oauth1_hmac_sha512_key.self), message.baseAddress, message.count, out)
    }
  }
}

extension OpenSSLBackend {
  static func prepareHMAC(_ digest: OAuthDigestAlgorithm, key: UnsafeBufferPointer<UInt8>) -> OpenSSLHMACKey {
    OpenSSLHMACKey(digest, key: key)
  }

  static func mac(_ message: UnsafeBufferPointer<UInt8>, with key: OpenSSLHMACKey, into out: UnsafeMutablePointer<UInt8>) {
    key.sign(message, into: out)
  }

  static func wipe(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
    if let base = buffer.baseAddress { oauth1_wipe(base, buffer.count) }
  }
}
