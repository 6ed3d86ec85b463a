/// Why a primitive failed. The library's own text of its error is kept in `reason`, so that a
/// caller can say what went wrong in its own words and still show OpenSSL's.
package enum CryptoError: Error, Equatable, Sendable {
  /// The library failed at `operation` ("digest", "random generation", "RSA signing",
  /// "RSA verification", "RSA key check").
  case libraryFailure(operation: String, reason: String)
  /// No `kind` ("private key", "public key", "certificate") in PEM form could be read.
  case unreadablePEM(kind: String, reason: String)
  /// A private key whose numbers do not belong together (a damaged file, say): it would sign
  /// what nobody can verify.
  case inconsistentRSAKey(reason: String)
  /// A key that is not RSA; `found` is its type's short name (`id-ecPublicKey`, say).
  case notRSA(found: String)
}
