import PercentEncoding

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
    var consumerSecret = consumerSecret, tokenSecret = tokenSecret ?? ""
    let room = 3 * (consumerSecret.utf8.count + tokenSecret.utf8.count) + 1
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: room) { buffer in
      var key = ByteWriter(buffer.baseAddress!, capacity: room)
      OAuthSigningKey.write(&consumerSecret, &tokenSecret, to: &key)
      defer { Crypto.wipe(UnsafeMutableBufferPointer(mutating: key.written)) }  // the key does not outlive this call
      return PreparedHMACKey(digest, key: key.written)
    }
  }

  /// Room for the largest HMAC digest (SHA-512) and its base64, percent-encoded or not.
  static let hmacRoom = 64 + Base64.capacity(64, .header)

  /// Appends `oauth_signature` for `baseString`: base64 of the MAC or RSA signature, or the
  /// signing key for PLAINTEXT; percent-encoded as a header or base string carries it when
  /// `encoded`. `out` needs ``hmacRoom`` bytes for HMAC and room for the key or the RSA
  /// signature otherwise (``room``).
  func appendSignature(of baseString: UnsafeBufferPointer<UInt8>, encoded: Bool, to out: inout ByteWriter) throws(OAuthError) {
    switch self {
    case .hmac(let prepared):
      // The digest goes first, then its base64 right after it; the digest is then dropped.
      try out.appendInPlace(room: Self.hmacRoom) { place throws(OAuthError) in
        prepared.sign(baseString, into: place)
        let digest = UnsafeBufferPointer(start: UnsafePointer(place), count: prepared.length)
        let base64 = Base64.encode(digest, encoded ? .header : .standard, into: place + prepared.length)
        (place).update(from: place + prepared.length, count: base64)
        return base64
      }
    case .plaintext(let signingKey):
      try withUTF8Bytes(signingKey) { key throws(OAuthError) in encoded ? out.appendEncoded(key) : out.append(key) }
    case .rsa(let privateKey, let digest):
      let signature = try privateKey.sign(baseString, digest: digest)
      try out.appendInPlace(room: Base64.capacity(signature.count, .header)) { place throws(OAuthError) in
        signature.withUnsafeBufferPointer { Base64.encode($0, encoded ? .header : .standard, into: place) }
      }
    }
  }

  /// The signature's raw bytes before base64: the MAC, the RSA signature, or for PLAINTEXT the
  /// signing key's UTF-8 (``OAuthSignature/digest(baseString:method:signingKey:privateKey:)``).
  func digest(of baseString: UnsafeBufferPointer<UInt8>) throws(OAuthError) -> [UInt8] {
    switch self {
    case .hmac(let prepared):
      return [UInt8](unsafeUninitializedCapacity: prepared.length) { out, count in
        prepared.sign(baseString, into: out.baseAddress!)
        count = prepared.length
      }
    case .plaintext(let signingKey): return Array(signingKey.utf8)
    case .rsa(let privateKey, let digest): return try privateKey.sign(baseString, digest: digest)
    }
  }

  /// The room ``appendSignature(of:encoded:to:)`` needs.
  var room: Int {
    switch self {
    case .hmac: Self.hmacRoom
    case .plaintext(let signingKey): 3 * signingKey.utf8.count
    case .rsa(let privateKey, _): Base64.capacity(privateKey.bits / 8 + 1, .header)
    }
  }
}
