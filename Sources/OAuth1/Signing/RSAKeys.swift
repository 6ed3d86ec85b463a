internal import CryptoPrimitives

/// An RSA private key for the RSA-SHA1, RSA-SHA256 and RSA-SHA512 methods, read from PEM or
/// from a password-protected PKCS#12 file.
///
/// Both PEM forms are accepted: PKCS#8 (`-----BEGIN PRIVATE KEY-----`) and PKCS#1
/// (`-----BEGIN RSA PRIVATE KEY-----`). Encrypted keys are refused rather than prompting for
/// a passphrase, and a key whose numbers do not belong together (a damaged file) is refused
/// when it is read, since it would sign what nobody can verify. The key is immutable and safe
/// to share between threads; `CryptoPrimitives`' key type stays behind it.
///
/// ```swift
/// let key = try RSAPrivateKey(pem: String(contentsOfFile: "consumer.pem", encoding: .utf8))
/// let options = OAuthSignatureGenerator.Options(signatureMethod: .rsaSHA256, privateKey: key)
/// ```
///
/// Providers such as Mastercard issue the key as a PKCS#12 file (`.p12`) with a password;
/// ``init(pkcs12:password:)`` reads it as it came, without converting it to an unencrypted PEM
/// file that would then lie on disk:
///
/// ```swift
/// let p12 = try Data(contentsOf: URL(fileURLWithPath: "consumer-sandbox.p12"))
/// let key = try RSAPrivateKey(pkcs12: p12, password: ProcessInfo.processInfo.environment["KEY_PASSWORD"] ?? "")
/// ```
public struct RSAPrivateKey: Sendable {
  let key: RSAKey

  /// Reads a PEM private key. Throws ``OAuthError/invalidKey(reason:)`` for anything that is
  /// not an unencrypted, consistent PEM private key and ``OAuthError/wrongKeyType(found:)`` for
  /// a key that is not RSA.
  public init(pem: String) throws(OAuthError) {
    key = try OAuthError.mapping { () throws(CryptoError) in try RSAKey.readPrivateKey(pem: pem) }
  }

  /// Reads the RSA private key of a PKCS#12 file (`.p12`, `.pfx`; its DER bytes) that
  /// `password` opens. The password appears in no error and its copy is wiped after use.
  ///
  /// Throws ``OAuthError/wrongKeyPassword`` when the password does not open the file,
  /// ``OAuthError/noPrivateKeyInPKCS12`` for a file of certificates only,
  /// ``OAuthError/invalidPKCS12(reason:)`` for bytes that are not PKCS#12 (or a cipher OpenSSL
  /// no longer decrypts), ``OAuthError/wrongKeyType(found:)`` for a key that is not RSA and
  /// ``OAuthError/invalidKey(reason:)`` for an inconsistent key.
  public init(pkcs12 der: some Collection<UInt8>, password: String) throws(OAuthError) {
    let bytes = Array(der)
    key = try OAuthError.mapping { () throws(CryptoError) in try RSAKey.readPrivateKey(pkcs12: bytes, password: password) }
  }

  /// The key size in bits.
  public var bits: Int { key.bits }

  /// The matching public key, to verify what this key signs.
  public var publicKey: RSAPublicKey { RSAPublicKey(key: key) }

  /// Signs `message` with RSASSA-PKCS1-v1_5 over `digest`. Never inlined: it shares
  /// `SignatureKey.appendRawSignature` with the HMAC methods, whose signatures are the hot path,
  /// and its copy and error mapping would make that function too large to inline in turn.
  @inline(never)
  func sign(_ message: some Collection<UInt8>, digest: OAuthDigestAlgorithm) throws(OAuthError) -> [UInt8] {
    try OAuthError.mapping { () throws(CryptoError) in try key.sign(Array(message), digest: digest.primitive) }
  }
}

/// An RSA public key, to verify RSA signatures: read from a PEM public key
/// (`-----BEGIN PUBLIC KEY-----`) or an X.509 certificate (`-----BEGIN CERTIFICATE-----`).
///
/// ```swift
/// let key = try RSAPublicKey(pem: certificatePEM)
/// let valid = try key.isValidSignature(signature, for: Array(baseString.utf8), digest: .sha1)
/// ```
public struct RSAPublicKey: Sendable {
  let key: RSAKey

  init(key: RSAKey) { self.key = key }

  /// Reads a PEM public key or certificate; throws like ``RSAPrivateKey/init(pem:)``.
  public init(pem: String) throws(OAuthError) {
    key = try OAuthError.mapping { () throws(CryptoError) in try RSAKey.readPublicKey(pem: pem) }
  }

  /// Whether `signature` is a valid RSASSA-PKCS1-v1_5 signature of `message` over `digest`.
  public func isValidSignature(_ signature: [UInt8], for message: some Collection<UInt8>, digest: OAuthDigestAlgorithm) throws(OAuthError) -> Bool {
    try OAuthError.mapping { () throws(CryptoError) in try key.isValidSignature(signature, for: Array(message), digest: digest.primitive) }
  }
}
