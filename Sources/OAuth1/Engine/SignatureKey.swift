/// Stages 6 and 7 made ready once: what a signature method signs with, and the one routine
/// that turns a base string into `oauth_signature`. ``OAuthSigner`` keeps one for its
/// credentials, ``OAuthSignature`` makes one per call, the verifier makes one per
/// (consumer, token) and caches it.
enum SignatureKey: Sendable {
  /// HMAC with the signing key's pad states hashed once.
  case hmac(PreparedHMACKey)
  /// PLAINTEXT: the signing key itself is the signature.
  case plaintext(String)
  /// RSASSA-PKCS1-v1_5 with the private key over the digest.
  case rsa(RSAPrivateKey, OAuthDigestAlgorithm)
  /// An ``OAuthExternalSigner``'s, not known yet: signing synchronously throws
  /// ``OAuthError/externalSignerNeedsAwait``.
  case external
  /// The raw signature an ``OAuthExternalSigner`` returned for this very base string.
  case precomputed([UInt8])

  /// Prepares `method` with the signing key (``OAuthSigningKey``) or, for the RSA methods,
  /// the private key. Throws ``OAuthError/missingPrivateKey(_:)`` for an RSA method without one.
  init(_ method: OAuthSignatureMethod, signingKey: String, privateKey: RSAPrivateKey?) throws(OAuthError) {
    switch method.kind {
    case .hmac(let digest):
      self = .hmac(PreparedHMACKey(digest, key: signingKey))
    case .plaintext:
      self = .plaintext(signingKey)
    case .rsa(let digest):
      guard let privateKey else { throw .missingPrivateKey(method) }
      self = .rsa(privateKey, digest)
    }
  }

  /// Prepares `method` for these credentials: for HMAC, the signing key is written into scratch
  /// memory (no String) and its pad states hashed.
  init(_ method: OAuthSignatureMethod, consumerSecret: String, tokenSecret: String?, privateKey: RSAPrivateKey?) throws(OAuthError) {
    guard case .hmac(let digest) = method.kind else {
      try self.init(method, signingKey: OAuthSigningKey.make(consumerSecret: consumerSecret, tokenSecret: tokenSecret), privateKey: privateKey)
      return
    }
    self = .hmac(Self.preparedHMAC(digest, consumerSecret: consumerSecret, tokenSecret: tokenSecret))
  }

  /// The HMAC key of these credentials, its signing key written into scratch memory (no
  /// String) and wiped once its pad states are hashed: the signer's key and the verifier's.
  static func preparedHMAC(_ digest: OAuthDigestAlgorithm, consumerSecret: String, tokenSecret: String?) -> PreparedHMACKey {
    let tokenSecret = tokenSecret ?? ""
    return ScratchArena.withBytes { key in
      OAuthSigningKey.write(consumerSecret, tokenSecret, to: &key)
      defer { Crypto.wipe(&key) }  // the key does not outlive this call
      return PreparedHMACKey(digest, key: key)
    }
  }

  /// Appends the signature's raw bytes for the whole of `baseString` (the MAC or the RSA
  /// signature) and returns where they are; `nil` for PLAINTEXT, which has none.
  func appendRawSignature(of baseString: borrowing ByteWriter, to out: inout ByteWriter) throws(OAuthError) -> Range<Int>? {
    switch self {
    case .hmac(let prepared): return prepared.appendMAC(of: baseString, 0..<baseString.count, to: &out)
    case .plaintext: return nil
    case .rsa(let privateKey, let digest): return out.append(contentsOf: try privateKey.sign(baseString.bytes(0..<baseString.count), digest: digest))
    case .external: throw .externalSignerNeedsAwait
    case .precomputed(let raw): return out.append(contentsOf: raw)
    }
  }

  /// Appends `oauth_signature`: base64 of the `raw` bytes, or the signing key for PLAINTEXT;
  /// percent-encoded as a header or base string carries it when `encoded`.
  func appendValue(raw: Range<Int>?, encoded: Bool, to out: inout ByteWriter) {
    if let raw {
      OAuthBase64.append(raw, encoded ? .header : .standard, in: &out)
    } else if case .plaintext(let signingKey) = self {
      if encoded { out.appendEncoded(signingKey) } else { out.append(contentsOf: signingKey) }
    }
  }

  /// Appends `oauth_signature` for `baseString` (its raw bytes, then the value) and returns
  /// where the value is.
  func appendSignature(of baseString: borrowing ByteWriter, encoded: Bool, to out: inout ByteWriter) throws(OAuthError) -> Range<Int> {
    let raw = try appendRawSignature(of: baseString, to: &out)
    let start = out.count
    appendValue(raw: raw, encoded: encoded, to: &out)
    return start..<out.count
  }

  /// The signature's raw bytes before base64: the MAC, the RSA signature, or for PLAINTEXT the
  /// signing key's UTF-8 (``OAuthSignature/digest(baseString:method:signingKey:privateKey:)``).
  func digest(of baseString: borrowing ByteWriter) throws(OAuthError) -> [UInt8] {
    switch self {
    case .hmac(let prepared):
      return ScratchArena.withBytes { out in
        prepared.appendMAC(of: baseString, 0..<baseString.count, to: &out)
        return out.bytes(0..<out.count)
      }
    case .plaintext(let signingKey): return Array(signingKey.utf8)
    case .rsa(let privateKey, let digest): return try privateKey.sign(baseString.bytes(0..<baseString.count), digest: digest)
    case .external: throw .externalSignerNeedsAwait
    case .precomputed(let raw): return raw
    }
  }
}
