import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Signs requests for one set of credentials: prepare it once, sign every request with it.
///
/// The signer encodes the credentials and hashes the HMAC key's pad states once, then signs
/// each request through the signing engine on bytes, with a fresh nonce and timestamp every
/// time, so a long-lived signer never sends the same nonce twice. Immutable and thread-safe.
/// To see every intermediate value of one signature, use ``OAuthSignatureGenerator``, which
/// runs the same engine and records what it computes.
///
/// ```swift
/// let signer = try OAuthSigner(
///   consumer: Credentials(key: consumerKey, secret: consumerSecret),
///   token: Credentials(key: accessToken, secret: accessTokenSecret))
/// var request = URLRequest(url: URL(string: "https://api.x.com/2/users/me")!)
/// try signer.sign(&request)  // sets Authorization: OAuth oauth_consumer_key="…", …
/// ```
public struct OAuthSigner: Sendable {
  /// How a signer signs: everything that stays the same from one request to the next.
  ///
  /// Nonce and timestamp are not here: they are made per request, from `nonceSource` (192
  /// random bits by default) and `clock`, or given to one call.
  ///
  /// ```swift
  /// // NetSuite token-based authentication: HMAC-SHA256 and the account id as realm.
  /// let configuration = OAuthSigner.Configuration(signatureMethod: .hmacSHA256, realm: "123456_SB1")
  /// ```
  public struct Configuration: Sendable {
    /// The signature method; HMAC-SHA1 unless the provider asks for another.
    public var signatureMethod: OAuthSignatureMethod
    /// The RSA private key, required by the RSA methods and ignored by the others.
    public var privateKey: RSAPrivateKey?
    /// The `realm` of the Authorization header; never signed.
    public var realm: String?
    /// `oauth_callback`, for the temporary-credentials request (`"oob"` for PIN flows).
    public var callback: String?
    /// `oauth_verifier`, for the token-credentials request.
    public var verifier: String?
    /// Whether to send `oauth_version="1.0"` (optional in the protocol, expected by most).
    public var includeVersion: Bool
    /// Adds `oauth_body_hash` with this digest to a request whose body is not a form.
    public var bodyHash: OAuthDigestAlgorithm?
    /// Where `oauth_timestamp` comes from.
    public var clock: any OAuthClock
    /// Where `oauth_nonce` comes from; `nil` (the default) for 192 random bits per request.
    public var nonceSource: (any OAuthNonceSource)?
    /// Computes the signature outside the process (a KMS, an HSM, the Keychain) instead of
    /// `privateKey` or the secrets: sign with ``OAuthSigner/sign(_:nonce:timestamp:)``, which
    /// awaits it. `nil` (the default) signs in process.
    public var externalSigner: OAuthExternalSigner?
    /// Whether a request signed without token credentials still sends `oauth_token=""`, as
    /// Schoology's two-legged requests must; `false` (the default) sends no `oauth_token` then.
    public var sendsEmptyToken = false

    /// Creates a configuration; the defaults sign with HMAC-SHA1, send `oauth_version="1.0"`, and take the time from the
    /// system clock and a fresh random nonce for every request.
    /// - Parameters:
    ///   - signatureMethod: The signature method, `.hmacSHA1` by default.
    ///   - privateKey: The RSA private key: required by the RSA methods (``OAuthSigner/init(consumer:token:configuration:)`` throws
    ///     ``OAuthError/missingPrivateKey(_:)`` without it), ignored by the others.
    ///   - realm: The `realm` of the Authorization header, never signed; `nil` (the default) sends none.
    ///   - callback: `oauth_callback`, for the temporary-credentials request (`"oob"` for PIN flows); `nil` by default.
    ///   - verifier: `oauth_verifier`, for the token-credentials request; `nil` by default.
    ///   - includeVersion: Whether to send `oauth_version="1.0"`; `true` by default.
    ///   - bodyHash: The digest of an `oauth_body_hash` added to every request whose body is not a form; `nil` (the default) for none.
    ///   - clock: Where `oauth_timestamp` comes from; the system clock by default.
    ///   - nonceSource: Where `oauth_nonce` comes from; `nil` (the default) for 192 random bits per request.
    ///   - externalSigner: Computes the signature outside the process, awaited by ``OAuthSigner/sign(_:nonce:timestamp:)``
    ///     (the RSA methods then need no `privateKey`); `nil` (the default) signs in process.
    public init(
      signatureMethod: OAuthSignatureMethod = .hmacSHA1,
      privateKey: RSAPrivateKey? = nil,
      realm: String? = nil,
      callback: String? = nil,
      verifier: String? = nil,
      includeVersion: Bool = true,
      bodyHash: OAuthDigestAlgorithm? = nil,
      clock: any OAuthClock = SystemClock(),
      nonceSource: (any OAuthNonceSource)? = nil,
      externalSigner: OAuthExternalSigner? = nil
    ) {
      self.signatureMethod = signatureMethod
      self.privateKey = privateKey
      self.realm = realm
      self.callback = callback
      self.verifier = verifier
      self.includeVersion = includeVersion
      self.bodyHash = bodyHash
      self.clock = clock
      self.nonceSource = nonceSource
      self.externalSigner = externalSigner
    }
  }

  /// The consumer credentials every request is signed with: the key is sent as `oauth_consumer_key`, the secret is in the signing key.
  public var consumer: Credentials { engine.consumer }
  /// The token credentials every request is signed with, sent as `oauth_token`; `nil` for the temporary-credentials request and
  /// one-legged APIs.
  public var token: Credentials? { engine.token }
  /// The configuration the signer was created with; it cannot change, so make a new signer to sign differently.
  public var configuration: Configuration { engine.configuration }
  let engine: SigningEngine

  /// Prepares the signer for the consumer credentials and, for user context, the token
  /// credentials (`nil` for the temporary-credentials request and one-legged APIs).
  /// - Throws: ``OAuthError/missingPrivateKey(_:)`` when an RSA method has no private key.
  public init(consumer: consuming Credentials, token: consuming Credentials? = nil, configuration: consuming Configuration = Configuration())
    throws(OAuthError)
  {
    engine = try SigningEngine(consumer: consumer, token: token, configuration: configuration)
  }

  /// Signs `request` in place: sets its `Authorization` header.
  ///
  /// Sign the final request: anything that changes the URL, the query or a form body after
  /// signing breaks the signature.
  /// - Throws: ``OAuthError`` for a request without an absolute http(s) URL or with a form
  ///   body that is not UTF-8.
  public func sign(_ request: inout URLRequest) throws(OAuthError) {
    request.setValue(try authorizationHeader(for: OAuthRequest(request)), forHTTPHeaderField: "Authorization")
  }

  /// The value of the `Authorization` header for `request`. `nonce` and `timestamp` replace
  /// the configured source and clock for this call (to reproduce a documented example).
  public func authorizationHeader(for request: OAuthRequest, nonce: String? = nil, timestamp: Int64? = nil) throws(OAuthError) -> String {
    try engine.sign(request, nonce: nonce, timestamp: timestamp) { bytes, pairs, _, signed in signed.authorizationHeader(bytes, pairs) }
  }

  /// The protocol parameters with `oauth_signature`, decoded, in name order: for the query or
  /// form-body transmission forms.
  public func signedProtocolParameters(for request: OAuthRequest, nonce: String? = nil, timestamp: Int64? = nil) throws(OAuthError)
    -> [OAuthParameter]
  {
    try engine.sign(request, nonce: nonce, timestamp: timestamp) { bytes, pairs, _, signed in signed.decodedProtocolParameters(bytes, pairs) }
  }

  /// Signs `request` once and keeps what a caller may want to see: the header, the protocol
  /// parameters and the signature base string (for `--verbose` and debugging; it holds no secret).
  public func signedRequest(for request: OAuthRequest, nonce: String? = nil, timestamp: Int64? = nil) throws(OAuthError) -> OAuthSignedRequest {
    try engine.sign(request, nonce: nonce, timestamp: timestamp) { bytes, pairs, baseString, signed in
      OAuthSignedRequest(
        authorizationHeader: signed.authorizationHeader(bytes, pairs),
        signedProtocolParameters: signed.decodedProtocolParameters(bytes, pairs),
        signatureBaseString: baseString.string)
    }
  }
}

/// One request signed by ``OAuthSigner``.
public struct OAuthSignedRequest: Sendable, Hashable {
  /// The value of the `Authorization` header.
  public let authorizationHeader: String
  /// The protocol parameters with `oauth_signature`, decoded, in name order.
  public let signedProtocolParameters: [OAuthParameter]
  /// The string that was signed.
  public let signatureBaseString: String
}
