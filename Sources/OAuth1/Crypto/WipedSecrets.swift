/// A consumer secret and a token secret kept as bytes in memory of their own, compared in
/// constant time and wiped (``CryptoBackend/wipe(_:)``) when freed: what a cache keeps instead
/// of `String`s, whose bytes no one wipes. Immutable after `init`, so it is shared across
/// threads.
///
/// The two secrets are compared each on its own, so that moving bytes from one to the other
/// (`ab` and `c`, then `a` and `bc`) is a change. A `nil` token secret is stored, and so
/// compared, as empty: both make the same signing key.
final class WipedSecrets: @unchecked Sendable {
  /// The consumer secret's bytes, then the token secret's.
  private let bytes: UnsafeMutableBufferPointer<UInt8>
  /// Where the consumer secret ends and the token secret starts in `bytes`.
  private let split: Int

  init(consumerSecret: String, tokenSecret: String?) {
    let consumer = consumerSecret.utf8, token = (tokenSecret ?? "").utf8
    split = consumer.count
    // One byte at least: an allocation of none may have no address to wipe.
    let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: max(consumer.count + token.count, 1))
    bytes = UnsafeMutableBufferPointer(start: storage, count: consumer.count + token.count)
    _ = UnsafeMutableBufferPointer(rebasing: bytes[..<split]).initialize(fromContentsOf: consumer)
    _ = UnsafeMutableBufferPointer(rebasing: bytes[split...]).initialize(fromContentsOf: token)
  }

  deinit {
    Crypto.wipe(bytes)
    bytes.baseAddress?.deallocate()
  }

  /// Whether these are the secrets stored: each compared in time that depends only on its
  /// length (``CryptoBackend/constantTimeEquals(_:_:)``), the second even when the first differs.
  func equals(consumerSecret: String, tokenSecret: String?) -> Bool {
    let consumerEqual = Self.equals(consumerSecret, UnsafeBufferPointer(rebasing: bytes[..<split]))
    let tokenEqual = Self.equals(tokenSecret ?? "", UnsafeBufferPointer(rebasing: bytes[split...]))
    return consumerEqual && tokenEqual
  }

  private static func equals(_ text: String, _ stored: UnsafeBufferPointer<UInt8>) -> Bool {
    // A native String's bytes are read in place; any other is copied once, for this call.
    text.utf8.withContiguousStorageIfAvailable { Crypto.constantTimeEquals(stored, $0) }
      ?? Array(text.utf8).withUnsafeBufferPointer { Crypto.constantTimeEquals(stored, $0) }
  }
}
