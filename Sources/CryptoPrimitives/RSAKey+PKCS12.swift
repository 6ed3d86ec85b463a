internal import COpenSSL

extension RSAKey {
  /// Reads the RSA private key of a PKCS#12 file (`.p12`, `.pfx`: DER bytes) that `password`
  /// opens, as providers such as Mastercard issue signing keys. The password is copied into a
  /// buffer that is wiped after use, and appears in no error.
  package static func readPrivateKey(pkcs12 der: [UInt8], password: String) throws(CryptoError) -> RSAKey {
    var secret = Array(password.utf8CString)
    defer { secret.withUnsafeMutableBytes { oauth1_wipe($0.baseAddress, $0.count) } }
    var parsed: OpaquePointer?
    let status = der.withUnsafeBufferPointer { bytes in
      secret.withUnsafeBufferPointer { oauth1_pkcs12_private_key(bytes.baseAddress, bytes.count, $0.baseAddress, &parsed) }
    }
    switch status {
    case OAUTH1_P12_OK: break
    case OAUTH1_P12_WRONG_PASSWORD: throw .wrongPKCS12Password
    case OAUTH1_P12_NO_KEY: throw .noPrivateKeyInPKCS12
    case OAUTH1_P12_NOT_PKCS12: throw .unreadablePKCS12(reason: "not a PKCS#12 file (\(OpenSSLErrors.lastReason()))")
    default: throw .unreadablePKCS12(reason: OpenSSLErrors.lastReason())
    }
    guard let parsed else { throw .noPrivateKeyInPKCS12 }
    let key = RSAKey(parsed)
    try key.checkIsRSA()
    try key.checkConsistency()
    return key
  }
}
