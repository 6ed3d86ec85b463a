internal import CryptoPrimitives

/// A consumer secret and a token secret kept as bytes of their own, compared in constant time
/// and wiped when freed (by `CryptoPrimitives`): what a cache keeps
/// instead of `String`s, whose bytes no one wipes. Immutable after `init` (the arrays are
/// never copied out, so no other copy of their bytes exists), so it is shared across threads.
///
/// The two secrets are compared each on its own, so that moving bytes from one to the other
/// (`ab` and `c`, then `a` and `bc`) is a change. A `nil` token secret is stored, and so
/// compared, as empty: both make the same signing key.
final class WipedSecrets: @unchecked Sendable {
  private var consumerSecret: [UInt8]
  private var tokenSecret: [UInt8]

  init(consumerSecret: String, tokenSecret: String?) {
    self.consumerSecret = Array(consumerSecret.utf8)
    self.tokenSecret = Array((tokenSecret ?? "").utf8)
  }

  deinit {
    SecureMemory.wipe(&consumerSecret)
    SecureMemory.wipe(&tokenSecret)
  }

  /// Whether these are the secrets stored: each compared in time that depends only on its
  /// length, the second even when the first differs.
  func equals(consumerSecret: String, tokenSecret: String?) -> Bool {
    let consumerEqual = ConstantTime.equals(self.consumerSecret, consumerSecret)
    let tokenEqual = ConstantTime.equals(self.tokenSecret, tokenSecret ?? "")
    return consumerEqual && tokenEqual
  }
}
