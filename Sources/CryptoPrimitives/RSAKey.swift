internal import COpenSSL

/// An RSA key (private, or public only) on OpenSSL's `EVP_PKEY`, read from PEM (or PKCS#12, in
/// `RSAKey+PKCS12.swift`), for RSASSA-PKCS1-v1_5 signatures.
///
/// Invariants: `pointer` is an RSA `EVP_PKEY` this object owns, never changes and is freed
/// once, with the object. OpenSSL allows concurrent signing and verification with one key
/// (each call uses its own `EVP_MD_CTX`), hence `@unchecked Sendable`.
package final class RSAKey: @unchecked Sendable {
  private let pointer: OpaquePointer

  /// Takes ownership of `pointer`, which it frees.
  init(_ pointer: OpaquePointer) { self.pointer = pointer }
  deinit { EVP_PKEY_free(pointer) }

  /// Reads an unencrypted PEM private key (PKCS #1 or #8), refusing an encrypted or an
  /// inconsistent one.
  package static func readPrivateKey(pem: String) throws(CryptoError) -> RSAKey {
    let key = try read(pem: pem, kind: "private key") { bio in
      PEM_read_bio_PrivateKey(bio, nil, refusePassphrase, nil)
    }
    try key.checkConsistency()
    return key
  }

  /// Refuses a private key whose numbers do not fit together. OpenSSL reads such a key (a
  /// damaged file, say) without a word, and it makes signatures nobody can verify.
  func checkConsistency() throws(CryptoError) {
    guard let context = EVP_PKEY_CTX_new(pointer, nil) else { throw OpenSSLErrors.failure("RSA key check") }
    defer { EVP_PKEY_CTX_free(context) }
    guard EVP_PKEY_check(context) == 1 else { throw .inconsistentRSAKey(reason: OpenSSLErrors.lastReason()) }
  }

  /// Refuses a key that is not RSA, naming its type.
  func checkIsRSA() throws(CryptoError) {
    let type = EVP_PKEY_get_base_id(pointer)
    guard type == EVP_PKEY_RSA else {
      let name = OBJ_nid2sn(type).map { String(cString: $0) } ?? "type \(type)"
      throw .notRSA(found: name)
    }
  }

  /// Reads a PEM public key or X.509 certificate.
  package static func readPublicKey(pem: String) throws(CryptoError) -> RSAKey {
    if pem.contains("-----BEGIN CERTIFICATE-----") {
      return try read(pem: pem, kind: "certificate") { bio in
        guard let certificate = PEM_read_bio_X509(bio, nil, refusePassphrase, nil) else { return nil }
        defer { X509_free(certificate) }
        return X509_get_pubkey(certificate)
      }
    }
    return try read(pem: pem, kind: "public key") { bio in
      PEM_read_bio_PUBKEY(bio, nil, refusePassphrase, nil)
    }
  }

  /// The key size in bits.
  package var bits: Int { Int(EVP_PKEY_get_bits(pointer)) }

  /// Signs `message` with RSASSA-PKCS1-v1_5 over `digest` (a private key only).
  package func sign(_ message: [UInt8], digest: DigestAlgorithm) throws(CryptoError) -> [UInt8] {
    guard let context = EVP_MD_CTX_new() else { throw OpenSSLErrors.failure("RSA signing") }
    defer { EVP_MD_CTX_free(context) }
    guard EVP_DigestSignInit(context, nil, digest.evp, nil, pointer) == 1 else { throw OpenSSLErrors.failure("RSA signing") }
    var length = 0
    // Invariant: the first call sets `length` to the most the signature takes, and the second
    // writes at most `length` bytes to `output`, which holds that many, and sets `length` to
    // what it wrote.
    let signature: [UInt8]? = message.withUnsafeBufferPointer { buffer in
      guard EVP_DigestSign(context, nil, &length, buffer.baseAddress, buffer.count) == 1 else { return nil }
      var output = [UInt8](repeating: 0, count: length)
      let ok = output.withUnsafeMutableBufferPointer { EVP_DigestSign(context, $0.baseAddress, &length, buffer.baseAddress, buffer.count) == 1 }
      return ok ? Array(output.prefix(length)) : nil
    }
    guard let signature else { throw OpenSSLErrors.failure("RSA signing") }
    return signature
  }

  /// Whether `signature` is a valid RSASSA-PKCS1-v1_5 signature of `message` over `digest`.
  package func isValidSignature(_ signature: [UInt8], for message: [UInt8], digest: DigestAlgorithm) throws(CryptoError) -> Bool {
    guard let context = EVP_MD_CTX_new() else { throw OpenSSLErrors.failure("RSA verification") }
    defer {
      EVP_MD_CTX_free(context)
      ERR_clear_error()
    }
    guard EVP_DigestVerifyInit(context, nil, digest.evp, nil, pointer) == 1 else { throw OpenSSLErrors.failure("RSA verification") }
    return message.withUnsafeBufferPointer { buffer in
      signature.withUnsafeBufferPointer { sig in
        EVP_DigestVerify(context, sig.baseAddress, sig.count, buffer.baseAddress, buffer.count) == 1
      }
    }
  }

  /// Reads a key of `kind` with `reader` from a memory BIO over the PEM text (valid only during
  /// the call), and refuses a key that is not RSA.
  private static func read(pem: String, kind: String, _ reader: (OpaquePointer) -> OpaquePointer?) throws(CryptoError) -> RSAKey {
    var pem = pem
    let parsed: OpaquePointer? = pem.withUTF8 { utf8 in
      guard let bio = BIO_new_mem_buf(utf8.baseAddress, Int32(utf8.count)) else { return nil }
      defer { BIO_free(bio) }
      return reader(bio)
    }
    guard let parsed else { throw .unreadablePEM(kind: kind, reason: OpenSSLErrors.lastReason()) }
    let key = RSAKey(parsed)
    try key.checkIsRSA()
    return key
  }
}

/// A passphrase callback that supplies none, so an encrypted key fails instead of
/// prompting on the terminal.
private func refusePassphrase(_ buffer: UnsafeMutablePointer<CChar>?, _ size: Int32, _ writing: Int32, _ userData: UnsafeMutableRawPointer?) -> Int32
{
  0
}
