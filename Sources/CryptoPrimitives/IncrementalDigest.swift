internal import COpenSSL

/// A digest fed in pieces, for data too large to hold at once (a downloaded video hashed as its
/// chunks arrive): the same result as ``DigestAlgorithm/digest(of:)`` over the pieces joined.
///
/// Invariant: `context` is an `EVP_MD_CTX` this object owns, initialised for `algorithm`,
/// freed once in `deinit`; after ``finish()`` it is not fed again (``update(_:)`` then throws).
///
/// ```swift
/// let digest = try IncrementalDigest(.sha256)
/// try digest.update(Array("hello ".utf8))
/// try digest.update(Array("world".utf8))
/// let sum = try digest.finish()  // == try DigestAlgorithm.sha256.digest(of: Array("hello world".utf8))
/// ```
package final class IncrementalDigest {
  private let context: OpaquePointer
  private var finished = false

  /// A digest of `algorithm` with nothing fed yet.
  package init(_ algorithm: DigestAlgorithm) throws(CryptoError) {
    guard let context = EVP_MD_CTX_new() else { throw OpenSSLErrors.failure("digest context") }
    guard EVP_DigestInit_ex(context, algorithm.evp, nil) == 1 else {
      EVP_MD_CTX_free(context)
      throw OpenSSLErrors.failure("digest init")
    }
    self.context = context
  }

  deinit { EVP_MD_CTX_free(context) }

  /// Feeds `data`, the next piece.
  package func update(_ data: some Collection<UInt8>) throws(CryptoError) {
    guard !finished else { throw .libraryFailure(operation: "digest update", reason: "the digest was already finished") }
    let ok = withContiguousBytes(data) { buffer in EVP_DigestUpdate(context, buffer.baseAddress, buffer.count) == 1 }
    guard ok else { throw OpenSSLErrors.failure("digest update") }
  }

  /// The digest of everything fed; the object is then spent.
  package func finish() throws(CryptoError) -> [UInt8] {
    guard !finished else { throw .libraryFailure(operation: "digest final", reason: "the digest was already finished") }
    finished = true
    var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
    var length: UInt32 = 0
    // Invariant: `output` holds EVP_MAX_MD_SIZE bytes, the most any digest writes.
    guard EVP_DigestFinal_ex(context, &output, &length) == 1 else { throw OpenSSLErrors.failure("digest final") }
    return Array(output.prefix(Int(length)))
  }
}
