internal import COpenSSL

/// The OpenSSL backend's prepared HMAC key: the inner and outer pad states hashed once, kept
/// in the object's own storage (one allocation).
///
/// `shim.h` keeps OpenSSL 3's deprecated low-level `SHA*_Init/Update/Final` on purpose, because
/// it is measurably faster: a hashed state is a plain struct that is copied per MAC, so a MAC
/// costs only the message's blocks. For Twitter's 300-byte base string that is about 7,800
/// instructions, against 24,800 for OpenSSL's one-shot `HMAC()` (EVP underneath), which derives
/// the pads and fetches the digest on every call (`oauth1-bench --callgrind`, the first two rows).
/// Immutable after it is made, so it is shared across threads; the key material is wiped when it
/// is freed.
///
/// Invariants: the storage holds at least ``stateSize(_:)`` bytes for the header's algorithm
/// (8-byte words, so aligned for the C structs), bound to that algorithm's state type when it is
/// made and written only then.
struct OpenSSLHMACKey: @unchecked Sendable {
  let algorithm: OAuthDigestAlgorithm
  private let state: HMACState

  /// Hashes the pad states of `key` for `algorithm`.
  init(_ algorithm: OAuthDigestAlgorithm, key: UnsafeBufferPointer<UInt8>) {
    self.algorithm = algorithm
    state = HMACState.make(algorithm, key: key)
  }

  /// Writes the MAC of `message` to `out`, which holds at least the digest's length.
  func sign(_ message: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) {
    state.sign(message, into: out)
  }
}

/// The storage of an ``OpenSSLHMACKey`` (the standard library's `ManagedBuffer` is not
/// `Sendable`, the key that wraps it is).
private final class HMACState: ManagedBuffer<OAuthDigestAlgorithm, UInt64> {
  static func make(_ algorithm: OAuthDigestAlgorithm, key: UnsafeBufferPointer<UInt8>) -> HMACState {
    let words = (stateSize(algorithm) + 7) / 8
    let made = unsafeDowncast(create(minimumCapacity: words) { _ in algorithm }, to: HMACState.self)
    precondition(made.capacity * 8 >= stateSize(algorithm), "HMACState: storage too small")
    made.withUnsafeMutablePointerToElements { words in
      let state = UnsafeMutableRawPointer(words)
      switch algorithm {
      case .sha1: oauth1_hmac_sha1_prepare(state.bindMemory(to: oauth1_hmac_sha1_key.self, capacity: 1), key.baseAddress, key.count)
      case .sha256: oauth1_hmac_sha256_prepare(state.bindMemory(to: oauth1_hmac_sha256_key.self, capacity: 1), key.baseAddress, key.count)
      case .sha512: oauth1_hmac_sha512_prepare(state.bindMemory(to: oauth1_hmac_sha512_key.self, capacity: 1), key.baseAddress, key.count)
      }
    }
    return made
  }

  private static func stateSize(_ algorithm: OAuthDigestAlgorithm) -> Int {
    switch algorithm {
    case .sha1: MemoryLayout<oauth1_hmac_sha1_key>.size
    case .sha256: MemoryLayout<oauth1_hmac_sha256_key>.size
    case .sha512: MemoryLayout<oauth1_hmac_sha512_key>.size
    }
  }

  deinit {
    withUnsafeMutablePointers { algorithm, words in oauth1_wipe(words, Self.stateSize(algorithm.pointee)) }
  }

  /// Writes the MAC of `message` to `out`, which holds at least the digest's length.
  func sign(_ message: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) {
    withUnsafeMutablePointers { algorithm, words in
      let state = UnsafeRawPointer(words)
      switch algorithm.pointee {
      case .sha1: oauth1_hmac_sha1_sign(state.assumingMemoryBound(to: oauth1_hmac_sha1_key.self), message.baseAddress, message.count, out)
      case .sha256:
        oauth1_hmac_sha256_sign(state.assumingMemoryBound(to: oauth1_hmac_sha256_key.self), message.baseAddress, message.count, out)
      case .sha512:
        oauth1_hmac_sha512_sign(state.assumingMemoryBound(to: oauth1_hmac_sha512_key.self), message.baseAddress, message.count, out)
      }
    }
  }
}

extension OpenSSLBackend {
  static func prepareHMAC(_ digest: OAuthDigestAlgorithm, key: borrowing ByteWriter, _ range: Range<Int>) -> OpenSSLHMACKey {
    key.withUnsafeBytes(range) { OpenSSLHMACKey(digest, key: $0) }
  }

  static func appendMAC(of message: borrowing ByteWriter, _ range: Range<Int>, with key: OpenSSLHMACKey, to out: inout ByteWriter) -> Range<Int> {
    let start = out.count, length = key.algorithm.byteCount
    out.appendUnsafe(room: length, reading: message, range) { message, room in
      key.sign(message, into: room.baseAddress!)
      return length
    }
    return start..<out.count
  }
}
