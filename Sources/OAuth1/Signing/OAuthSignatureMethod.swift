/// The signature methods: the three of RFC 5849 (HMAC-SHA1, RSA-SHA1, PLAINTEXT) and the
/// SHA-256 and SHA-512 variants that providers such as NetSuite and Mastercard require.
///
/// ```swift
/// let method = try OAuthSignatureMethod(name: "hmac-sha256")  // .hmacSHA256
/// method.rawValue  // "HMAC-SHA256", the value of oauth_signature_method
/// ```
public enum OAuthSignatureMethod: String, CaseIterable, Sendable, Hashable {
  /// HMAC-SHA1 (RFC 5849, section 3.4.2), keyed with `enc(consumer secret)&enc(token secret)`: the default, and what X (Twitter) uses.
  case hmacSHA1 = "HMAC-SHA1"
  /// HMAC-SHA1 with SHA-256 instead, for providers that require it, such as NetSuite's token-based authentication.
  case hmacSHA256 = "HMAC-SHA256"
  /// HMAC-SHA1 with SHA-512 instead, for providers that ask for `HMAC-SHA512` by name; not part of RFC 5849.
  case hmacSHA512 = "HMAC-SHA512"
  /// RSA-SHA1 (RFC 5849, section 3.4.3): a PKCS #1 v1.5 signature with the consumer's RSA private key, which the provider checks
  /// with the matching public key; the shared secrets are not used.
  case rsaSHA1 = "RSA-SHA1"
  /// RSA-SHA1 with SHA-256 instead, for providers that require it, such as Mastercard (with a SHA-256 `oauth_body_hash`).
  case rsaSHA256 = "RSA-SHA256"
  /// RSA-SHA1 with SHA-512 instead, for providers that ask for `RSA-SHA512` by name; not part of RFC 5849.
  case rsaSHA512 = "RSA-SHA512"
  /// PLAINTEXT (RFC 5849, section 3.4.4): the signature is the signing key itself, so it proves nothing about the request and
  /// exposes both secrets; use it over https only (``OAuthVerifier`` refuses it over http unless allowed).
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

  /// Hashes the case rather than its name: a raw-value enum would hash the `String`, and a
  /// verifier looks its method up in a `Set` on every request.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(Self.allCases.firstIndex(of: self) ?? 0)
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

  /// The method's name without an allocation, as the signer writes `oauth_signature_method`.
  var staticName: StaticString {
    switch self {
    case .hmacSHA1: "HMAC-SHA1"
    case .hmacSHA256: "HMAC-SHA256"
    case .hmacSHA512: "HMAC-SHA512"
    case .rsaSHA1: "RSA-SHA1"
    case .rsaSHA256: "RSA-SHA256"
    case .rsaSHA512: "RSA-SHA512"
    case .plaintext: "PLAINTEXT"
    }
  }

  /// What this method computes, with its digest: the value to `switch` on instead of the seven cases.
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
  /// SHA-1: for HMAC-SHA1 and RSA-SHA1, and the `oauth_body_hash` digest of the draft (the default of ``OAuthBodyHash``).
  case sha1 = "SHA-1"
  /// SHA-256: for HMAC-SHA256 and RSA-SHA256, and the `oauth_body_hash` digest some providers (Mastercard) ask for.
  case sha256 = "SHA-256"
  /// SHA-512: for HMAC-SHA512 and RSA-SHA512, and for an `oauth_body_hash` where a provider asks for it.
  case sha512 = "SHA-512"

  /// Hashes the case rather than its name (a raw-value enum would hash the `String`).
  public func hash(into hasher: inout Hasher) {
    hasher.combine(Self.allCases.firstIndex(of: self) ?? 0)
  }

  /// The length of a digest, in bytes.
  var byteCount: Int {
    switch self {
    case .sha1: return 20
    case .sha256: return 32
    case .sha512: return 64
    }
  }
}
