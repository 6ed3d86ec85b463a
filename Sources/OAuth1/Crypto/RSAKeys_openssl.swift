internal import COpenSSL

/// An RSA private key for the RSA-SHA1, RSA-SHA256 and RSA-SHA512 methods, read from PEM.
///
/// Both PEM forms are accepted: PKCS#8 (`-----BEGIN PRIVATE KEY-----`) and PKCS#1
/// (`-----BEGIN RSA PRIVATE KEY-----`). Encrypted keys are refused rather than prompting for
/// a passphrase. The key is immutable and safe to share between threads.
///
/// ```swift
/// let key = try RSAPrivateKey(pem: String(contentsOfFile: "consumer.pem", encoding: .utf8))
/// let options = OAuthSignatureGenerator.Options(signatureMethod: .rsaSHA256, privateKey: key)
/// ```
public struct RSAPrivateKey: Sendable {
  let key: EVPKey

  /// Reads a PEM private key. Throws ``OAuthError/invalidKey(reason:)`` for anything that is
  /// not an unencrypted PEM private key and ``OAuthError/wrongKeyType(found:)`` for a key
  /// that is not RSA.
  public init(pem: String) throws(OAuthError) {
    key = try EVPKey.read(pem: pem, kind: "private key") { bio in
      PEM_read_bio_PrivateKey(bio, nil, refusePassphrase, nil)
    }
    // OpenSSL reads a key whose numbers do not fit together (a damaged file, say) without a
    // word, and such a key makes signatures nobody can verify: check it once, here.
    guard let context = EVP_PKEY_CTX_new(key.pointer, nil) else { throw OpenSSLBackend.failure("RSA key check") }
    defer { EVP_PKEY_CTX_free(context) }
    guard EVP_PKEY_check(context) == 1 else {
      throw .invalidKey(reason: "the RSA private key is inconsistent: its numbers do not belong together (\(OpenSSLBackend.lastErrorReason())). The file may be damaged")
    }
  }

  /// The key size in bits.
  public var bits: Int { Int(EVP_PKEY_get_bits(key.pointer)) }

  /// The matching public key, to verify what this key signs.
  public var publicKey: RSAPublicKey { RSAPublicKey(key: key) }

  /// Signs `message` with RSASSA-PKCS1-v1_5 over `digest`.
  func sign(_ message: some Collection<UInt8>, digest: OAuthDigestAlgorithm) throws(OAuthError) -> [UInt8] {
    guard let context = EVP_MD_CTX_new() else { throw OpenSSLBackend.failure("RSA signing") }
    defer { EVP_MD_CTX_free(context) }
    guard EVP_DigestSignInit(context, nil, OpenSSLBackend.md(digest), nil, key.pointer) == 1 else {
      throw OpenSSLBackend.failure("RSA signing")
    }
    var length = 0
    let signature: [UInt8]? = withContiguousBytes(message) { buffer in
      guard EVP_DigestSign(context, nil, &length, buffer.baseAddress, buffer.count) == 1 else { return nil }
      var output = [UInt8](repeating: 0, count: length)
      let ok = output.withUnsafeMutableBufferPointer { EVP_DigestSign(context, $0.baseAddress, &length, buffer.baseAddress, buffer.count) == 1 }
      return ok ? Array(output.prefix(length)) : nil
    }
    guard let signature else { throw OpenSSLBackend.failure("RSA signing") }
    return signature
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
  let key: EVPKey

  init(key: EVPKey) { self.key = key }

  public init(pem: String) throws(OAuthError) {
    if pem.contains("-----BEGIN CERTIFICATE-----") {
      key = try EVPKey.read(pem: pem, kind: "certificate") { bio in
        guard let certificate = PEM_read_bio_X509(bio, nil, refusePassphrase, nil) else { return nil }
        defer { X509_free(certificate) }
        return X509_get_pubkey(certificate)
      }
    } else {
      key = try EVPKey.read(pem: pem, kind: "public key") { bio in
        PEM_read_bio_PUBKEY(bio, nil, refusePassphrase, nil)
      }
    }
  }

  /// Whether `signature` is a valid RSASSA-PKCS1-v1_5 signature of `message` over `digest`.
  public func isValidSignature(_ signature: [UInt8], for message: some Collection<UInt8>, digest: OAuthDigestAlgorithm) throws(OAuthError) -> Bool {
    guard let context = EVP_MD_CTX_new() else { throw OpenSSLBackend.failure("RSA verification") }
    defer { EVP_MD_CTX_free(context); ERR_clear_error() }
    guard EVP_DigestVerifyInit(context, nil, OpenSSLBackend.md(digest), nil, key.pointer) == 1 else {
      throw OpenSSLBackend.failure("RSA verification")
    }
    return withContiguousBytes(message) { buffer in
      signature.withUnsafeBufferPointer { sig in
        EVP_DigestVerify(context, sig.baseAddress, sig.count, buffer.baseAddress, buffer.count) == 1
      }
    }
  }
}

/// Owns an `EVP_PKEY`. OpenSSL allows concurrent signing and verification with one key
/// (each call uses its own `EVP_MD_CTX`), and the pointer never changes, hence `@unchecked`.
final class EVPKey: @unchecked Sendable {
  let pointer: OpaquePointer

  private init(_ pointer: OpaquePointer) { self.pointer = pointer }
  deinit { EVP_PKEY_free(pointer) }

  static func read(pem: String, kind: String, _ reader: (OpaquePointer) -> OpaquePointer?) throws(OAuthError) -> EVPKey {
    var pem = pem
    let parsed: OpaquePointer? = pem.withUTF8 { utf8 in
      guard let bio = BIO_new_mem_buf(utf8.baseAddress, Int32(utf8.count)) else { return nil }
      defer { BIO_free(bio) }
      return reader(bio)
    }
    guard let parsed else {
      let reason = OpenSSLBackend.lastErrorReason()
      throw .invalidKey(reason: "no \(kind) in PEM form could be read (\(reason))")
    }
    let key = EVPKey(parsed)
    let type = EVP_PKEY_get_base_id(parsed)
    guard type == EVP_PKEY_RSA else {
      let name = OBJ_nid2sn(type).map { String(cString: $0) } ?? "type \(type)"
      throw .wrongKeyType(found: name)
    }
    return key
  }
}

/// A passphrase callback that supplies none, so an encrypted key fails instead of
/// prompting on the terminal.
private func refusePassphrase(_ buffer: UnsafeMutablePointer<CChar>?, _ size: Int32, _ writing: Int32, _ userData: UnsafeMutableRawPointer?) -> Int32 {
  0
}
