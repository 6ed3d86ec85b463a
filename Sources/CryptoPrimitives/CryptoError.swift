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
  /// The bytes are not a PKCS#12 file, or a part of it cannot be decrypted (`reason`, OpenSSL's).
  case unreadablePKCS12(reason: String)
  /// The password does not open the PKCS#12 file (its integrity check fails). The password is
  /// never carried.
  case wrongPKCS12Password
  /// The PKCS#12 file opens but holds certificates only.
  case noPrivateKeyInPKCS12
  /// A key that is not RSA; `found` is its type's short name (`id-ecPublicKey`, say).
  case notRSA(found: String)
}
