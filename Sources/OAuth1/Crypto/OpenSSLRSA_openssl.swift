internal import COpenSSL

/// RSA keys on OpenSSL's `EVP_PKEY`: what ``RSAPrivateKey`` and ``RSAPublicKey`` stand on.
extension OpenSSLBackend {
  static func readRSAPrivateKey(pem: String) throws(OAuthError) -> EVPKey {
    let key = try EVPKey.read(pem: pem, kind: "private key") { bio in
      PEM_read_bio_PrivateKey(bio, nil, refusePassphrase, nil)
    }
    // OpenSSL reads a key whose numbers do not fit together (a damaged file, say) without a
    // word, and such a key makes signatures nobody can verify: check it once, here.
    guard let context = EVP_PKEY_CTX_new(key.pointer, nil) else { throw failure("RSA key check") }
    defer { EVP_PKEY_CTX_free(context) }
    guard EVP_PKEY_check(context) == 1 else {
      throw .invalidKey(
        reason: "the RSA private key is inconsistent: its numbers do not belong together (\(lastErrorReason())). The file may be damaged")
    }
    return key
  }

  static func readRSAPublicKey(pem: String) throws(OAuthError) -> EVPKey {
    if pem.contains("-----BEGIN CERTIFICATE-----") {
      return try EVPKey.read(pem: pem, kind: "certificate") { bio in
        guard let certificate = PEM_read_bio_X509(bio, nil, refusePassphrase, nil) else { return nil }
        defer { X509_free(certificate) }
        return X509_get_pubkey(certificate)
      }
    }
    return try EVPKey.read(pem: pem, kind: "public key") { bio in
      PEM_read_bio_PUBKEY(bio, nil, refusePassphrase, nil)
    }
  }

  static func bits(of key: EVPKey) -> Int { Int(EVP_PKEY_get_bits(key.pointer)) }

  static func sign(_ message: some Collection<UInt8>, digest: OAuthDigestAlgorithm, with key: EVPKey) throws(OAuthError) -> [UInt8] {
    guard let context = EVP_MD_CTX_new() else { throw failure("RSA signing") }
    defer { EVP_MD_CTX_free(context) }
    guard EVP_DigestSignInit(context, nil, md(digest), nil, key.pointer) == 1 else { throw failure("RSA signing") }
    var length = 0
    let signature: [UInt8]? = withContiguousBytes(message) { buffer in
      guard EVP_DigestSign(context, nil, &length, buffer.baseAddress, buffer.count) == 1 else { return nil }
      var output = [UInt8](repeating: 0, count: length)
      let ok = output.withUnsafeMutableBufferPointer { EVP_DigestSign(context, $0.baseAddress, &length, buffer.baseAddress, buffer.count) == 1 }
      return ok ? Array(output.prefix(length)) : nil
    }
    guard let signature else { throw failure("RSA signing") }
    return signature
  }

  static func isValidSignature(
    _ signature: [UInt8], for message: some Collection<UInt8>, digest: OAuthDigestAlgorithm, with key: EVPKey
  ) throws(OAuthError) -> Bool {
    guard let context = EVP_MD_CTX_new() else { throw failure("RSA verification") }
    defer {
      EVP_MD_CTX_free(context)
      ERR_clear_error()
    }
    guard EVP_DigestVerifyInit(context, nil, md(digest), nil, key.pointer) == 1 else { throw failure("RSA verification") }
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
private func refusePassphrase(_ buffer: UnsafeMutablePointer<CChar>?, _ size: Int32, _ writing: Int32, _ userData: UnsafeMutableRawPointer?) -> Int32
{
  0
}
