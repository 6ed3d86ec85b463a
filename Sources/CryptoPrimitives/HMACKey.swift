// `public`: `sign` below is inlined into the signer down to the shim's C functions.
public import COpenSSL

/// An HMAC (RFC 2104) key whose inner and outer pad states were hashed once, kept in the
/// object's own storage (one allocation): each MAC then costs only the hashing of the message
/// and of the inner digest. What a signer keeps for its credentials and a verifier caches.
///
/// `shim.h` keeps OpenSSL 3's deprecated low-level `SHA*_Init/Update/Final` on purpose: a hashed
/// state is a plain struct that is copied per MAC, with no allocation and no digest fetched,
/// where OpenSSL's one-shot `HMAC()` derives the pads and fetches the digest on every call.
/// Immutable after it is made, so it is shared across threads; the key material is wiped when
/// it is freed.
///
/// The type, `algorithm` and `sign` are `public` (in a module that is no product, so nothing
/// outside the package sees them) and `sign` is `@inlinable`: the compiler serializes the body of
/// a public inlinable function for other modules, not that of a `package` one, and the MAC is
/// the signer's hot path. Everything else here is `package`.
public struct HMACKey: @unchecked Sendable {
  /// The digest the MAC is made with.
  public let algorithm: DigestAlgorithm
  @usableFromInline let state: HMACState

  /// Hashes the pad states of `key` for `algorithm`. `key` may be wiped once this returns.
  package init(_ algorithm: DigestAlgorithm, key: UnsafeBufferPointer<UInt8>) {
    self.algorithm = algorithm
    state = HMACState.make(algorithm, key: key)
  }

  /// Hashes the pad states of `key` for `algorithm`.
  package init(_ algorithm: DigestAlgorithm, key: some Collection<UInt8>) {
    self = withContiguousBytes(key) { HMACKey(algorithm, key: $0) }
  }

  /// Writes the MAC of `message` to the start of `out`, which holds at least
  /// `algorithm.byteCount` bytes (checked).
  @inlinable
  public func sign(_ message: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>) {
    precondition(out.count >= algorithm.byteCount, "HMACKey: no room for the MAC")
    state.sign(message, into: out.baseAddress!)
  }

  /// The MAC of `message`.
  package func mac(of message: some Collection<UInt8>) -> [UInt8] {
    [UInt8](unsafeUninitializedCapacity: algorithm.byteCount) { out, initialized in
      withContiguousBytes(message) { sign($0, into: out) }
      initialized = algorithm.byteCount
    }
  }
}

/// The storage of an ``HMACKey`` (the standard library's `ManagedBuffer` is not `Sendable`,
/// the key that wraps it is).
///
/// Invariants: the storage holds at least ``stateSize(_:)`` bytes for the header's algorithm
/// (8-byte words, so aligned for the C structs), bound to that algorithm's state type when it is
/// made and written only then; `sign` reads it, and writes `algorithm.byteCount` bytes to `out`.
@usableFromInline
final class HMACState: ManagedBuffer<DigestAlgorithm, UInt64> {
  static func make(_ algorithm: DigestAlgorithm, key: UnsafeBufferPointer<UInt8>) -> HMACState {
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

  private static func stateSize(_ algorithm: DigestAlgorithm) -> Int {
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
  @inlinable
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
