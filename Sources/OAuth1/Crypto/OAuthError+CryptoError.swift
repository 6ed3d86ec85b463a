internal import CryptoPrimitives

extension OAuthError {
  /// The error that tells a user of OAuth1 what `error` means for their key or request.
  init(_ error: CryptoError) {
    switch error {
    case .libraryFailure(let operation, let reason):
      self = .cryptoFailure(operation: operation, reason: reason)
    case .unreadablePEM(let kind, let reason):
      self = .invalidKey(reason: "no \(kind) in PEM form could be read (\(reason))")
    case .inconsistentRSAKey(let reason):
      self = .invalidKey(reason: "the RSA private key is inconsistent: its numbers do not belong together (\(reason)). The file may be damaged")
    case .unreadablePKCS12(let reason):
      self = .invalidPKCS12(reason: reason)
    case .wrongPKCS12Password:
      self = .wrongKeyPassword
    case .noPrivateKeyInPKCS12:
      self = .noPrivateKeyInPKCS12
    case .notRSA(let found):
      self = .wrongKeyType(found: found)
    }
  }

  /// The result of `body`, or its `CryptoError` thrown as an ``OAuthError``.
  static func mapping<R>(_ body: () throws(CryptoError) -> R) throws(OAuthError) -> R {
    do { return try body() } catch { throw OAuthError(error) }
  }
}
