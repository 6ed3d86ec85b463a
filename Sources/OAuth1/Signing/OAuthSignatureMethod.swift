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
    switch self {
    case .rsaSHA1, .rsaSHA256, .rsaSHA512: return true
    case .hmacSHA1, .hmacSHA256, .hmacSHA512, .plaintext: return false
    }
  }

  /// The digest behind an HMAC or RSA method; `nil` for PLAINTEXT.
  public var digest: OAuthDigestAlgorithm? {
    switch self {
    case .hmacSHA1, .rsaSHA1: return .sha1
    case .hmacSHA256, .rsaSHA256: return .sha256
    case .hmacSHA512, .rsaSHA512: return .sha512
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
