/// The signature methods: the three of RFC 5849 (HMAC-SHA1, RSA-SHA1, PLAINTEXT) and the
/// SHA-256 and SHA-512 variants that providers such as NetSuite and Mastercard require.
///
/// ```swift
/// let method = try OAuthSignatureMethod(name: "hmac-sha256")  // .hmacSHA256
/// method.rawValue  // "HMAC-SHA256", the value of oauth_signature_method
/// ```
public enum OAuthSignatureMethod: String, CaseIterable, Sendable, Hashable {
  case hmacSHA1 = "HMAC-SHA1"
  case hmacSHA256 = "HMAC-SHA256"
  case hmacSHA512 = "HMAC-SHA512"
  case rsaSHA1 = "RSA-SHA1"
  case rsaSHA256 = "RSA-SHA256"
  case rsaSHA512 = "RSA-SHA512"
  case plaintext = "PLAINTEXT"

  /// Looks a method up by its `oauth_signature_method` name, ignoring case.
  public init(name: String) throws(OAuthError) {
    // The exact spelling is the common case and needs no case folding.
    if let exact = Self(rawValue: name) {
      self = exact
      return
    }
    guard let method = Self(rawValue: name.uppercased()) else {
      throw .unknownSignatureMethod(name)
    }
    self = method
  }

  /// Whether this method signs with an RSA private key instead of the shared secrets.
  public var usesRSA: Bool {
    if case .rsa = kind { return true }
    return false
  }

  /// What the method computes, with its digest: the one place signers and the verifier
  /// dispatch on, so none of them unwraps a digest.
  public enum Kind: Sendable, Hashable {
    /// A MAC keyed with `enc(consumer secret)&enc(token secret)`.
    case hmac(OAuthDigestAlgorithm)
    /// A PKCS #1 v1.5 signature with the consumer's RSA private key.
    case rsa(OAuthDigestAlgorithm)
    /// The signing key itself, in clear.
    case plaintext
  }

  public var kind: Kind {
    switch self {
    case .hmacSHA1: return .hmac(.sha1)
    case .hmacSHA256: return .hmac(.sha256)
    case .hmacSHA512: return .hmac(.sha512)
    case .rsaSHA1: return .rsa(.sha1)
    case .rsaSHA256: return .rsa(.sha256)
    case .rsaSHA512: return .rsa(.sha512)
    case .plaintext: return .plaintext
    }
  }

  /// The digest behind an HMAC or RSA method; `nil` for PLAINTEXT.
  public var digest: OAuthDigestAlgorithm? {
    switch kind {
    case .hmac(let digest), .rsa(let digest): return digest
    case .plaintext: return nil
    }
  }
}

/// A hash function, for HMAC and RSA signatures and for `oauth_body_hash`.
public enum OAuthDigestAlgorithm: String, CaseIterable, Sendable, Hashable {
  case sha1 = "SHA-1"
  case sha256 = "SHA-256"
  case sha512 = "SHA-512"

  /// The length of a digest, in bytes.
  var byteCount: Int {
    switch self {
    case .sha1: return 20
    case .sha256: return 32
    case .sha512: return 64
    }
  }
}
