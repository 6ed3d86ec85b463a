import Foundation

/// Signs one request with OAuth 1.0a and shows every intermediate value: the tool that
/// explains a signature.
///
/// The generator runs the engine of ``OAuthSigner`` with a trace, so each value it shows (the
/// collected parameters, the normalized string, the base string URI, the base string, the
/// signing key, the signature, the header) is what was signed, ready to compare with a
/// provider's documentation when a request is refused. Each stage is also public on its own
/// (``OAuthParameterCollection``, ``OAuthParameterNormalization``, ``OAuthBaseStringURI``,
/// ``OAuthSignatureBaseString``, ``OAuthSigningKey``, ``OAuthSignature``,
/// ``OAuthAuthorizationHeader``), each a front on the engine's routine for that stage.
///
/// ```swift
/// let generator = try OAuthSignatureGenerator(
///   consumerCredentials: Credentials(key: "xvz1evFS4wEEPTGEFPHBog", secret: consumerSecret),
///   credentials: Credentials(key: "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb", secret: tokenSecret),
///   request: OAuthRequest(method: "POST", url: "https://api.x.com/1.1/statuses/update.json"))
/// print(generator.signatureBaseString)
/// print(generator.authorizationHeader)
/// ```
///
/// To sign many requests, keep an ``OAuthSigner``: it prepares the key once. Sign the final
/// request: anything that changes the URL, the query or a form body after signing breaks the
/// signature.
public struct OAuthSignatureGenerator: Sendable {
  /// A signer's ``OAuthSigner/Configuration`` plus, for this one signature, a fixed nonce
  /// and timestamp (to reproduce a documented example or a captured request).
  ///
  /// The configuration's properties read and write through the options
  /// (`options.realm = "Photos"`): one list of settings, kept by ``OAuthSigner/Configuration``.
  @dynamicMemberLookup
  public struct Options: Sendable {
    /// What a signer with these options is configured with; its clock gives the timestamp
    /// when none is fixed.
    public var configuration: OAuthSigner.Configuration
    /// A fixed `oauth_nonce`; when `nil`, the configuration's nonce source gives one, or
    /// without a source (the default) 192 fresh random bits do.
    public var nonce: String?
    /// A fixed `oauth_timestamp`; read from the configuration's clock when `nil`.
    public var timestamp: Int64?

    /// Creates options; the defaults sign like a default ``OAuthSigner/Configuration``, with a fresh nonce and the current time.
    /// - Parameters:
    ///   - signatureMethod: The signature method, `.hmacSHA1` by default.
    ///   - privateKey: The RSA private key: required by the RSA methods (the generator throws
    ///     ``OAuthError/missingPrivateKey(_:)`` without it), ignored by the others.
    ///   - nonce: A fixed `oauth_nonce`; `nil` (the default) for a fresh one of 192 random bits.
    ///   - timestamp: A fixed `oauth_timestamp`, in seconds since 1970; `nil` (the default) reads `clock`.
    ///   - clock: The clock for the timestamp when none is fixed; the system clock by default.
    ///   - realm: The `realm` of the Authorization header, never signed; `nil` (the default) sends none.
    ///   - callback: `oauth_callback`, for the temporary-credentials request (`"oob"` for PIN flows); `nil` by default.
    ///   - verifier: `oauth_verifier`, for the token-credentials request; `nil` by default.
    ///   - includeVersion: Whether to send `oauth_version="1.0"`; `true` by default.
    ///   - bodyHash: The digest of an `oauth_body_hash` added to a request whose body is not a form; `nil` (the default) for none.
    public init(
      signatureMethod: OAuthSignatureMethod = .hmacSHA1,
      privateKey: RSAPrivateKey? = nil,
      nonce: String? = nil,
      timestamp: Int64? = nil,
      clock: any OAuthClock = SystemClock(),
      realm: String? = nil,
      callback: String? = nil,
      verifier: String? = nil,
      includeVersion: Bool = true,
      bodyHash: OAuthDigestAlgorithm? = nil
    ) {
      let configuration = OAuthSigner.Configuration(
        signatureMethod: signatureMethod, privateKey: privateKey, realm: realm, callback: callback, verifier: verifier,
        includeVersion: includeVersion, bodyHash: bodyHash, clock: clock)
      self.init(configuration: configuration, nonce: nonce, timestamp: timestamp)
    }

    /// The options of a signer's `configuration`, with this call's nonce and timestamp: to explain
    /// what an ``OAuthSigner`` (or a provider profile's configuration) signs.
    ///
    /// The configuration's nonce source is left out: explaining a live signer's request must
    /// not take a nonce from the source that signer uses. Without `nonce`, the generator uses
    /// 192 fresh random bits.
    ///
    /// ```swift
    /// let options = OAuthSignatureGenerator.Options(configuration: signer.configuration, nonce: "n", timestamp: 1_700_000_000)
    /// ```
    public init(configuration: OAuthSigner.Configuration, nonce: String? = nil, timestamp: Int64? = nil) {
      self.configuration = configuration
      self.configuration.nonceSource = nil
      self.nonce = nonce
      self.timestamp = timestamp
    }

    /// A setting of ``configuration``, read or written through the options
    /// (`options.signatureMethod`, `options.realm`, …).
    public subscript<Value>(dynamicMember setting: WritableKeyPath<OAuthSigner.Configuration, Value>) -> Value {
      get { configuration[keyPath: setting] }
      set { configuration[keyPath: setting] = newValue }
    }
  }

  /// The consumer credentials the request was signed with: the key is sent as `oauth_consumer_key`, the secret is in the signing key.
  public let consumerCredentials: Credentials
  /// The token credentials the request was signed with, sent as `oauth_token`; `nil` for a request signed with consumer credentials
  /// only (the temporary-credentials request, one-legged APIs).
  public let credentials: Credentials?
  /// The request as given, without its protocol parameters; ``signedURL`` and ``signedFormBody`` add them to it.
  public let request: OAuthRequest
  /// The options as given; the nonce and timestamp actually used, fixed or not, are in ``protocolParameters``.
  public let options: Options

  /// The `oauth_*` parameters that are signed, in name order, without `oauth_signature`.
  public let protocolParameters: [OAuthParameter]
  /// Every signed parameter, decoded, in source order: query, form body, protocol.
  public let parameters: [OAuthParameter]
  /// Stage 3: the parameters encoded, sorted and joined.
  public let normalizedParameters: String
  /// Stage 4: the normalized URL.
  public let baseStringURI: String
  /// Stage 5: the string that is signed.
  public let signatureBaseString: String
  /// Stage 6: `enc(consumer secret)&enc(token secret)`; `nil` for the RSA methods, which
  /// sign with the private key instead.
  public let signingKey: String?
  /// Stages 7 and 8: the value of `oauth_signature`.
  public let signature: String
  /// The protocol parameters with `oauth_signature`, in name order: what is transmitted.
  public let signedProtocolParameters: [OAuthParameter]
  /// The value of the `Authorization` header (RFC 5849, section 3.5.1).
  public let authorizationHeader: String

  /// Signs `request`, the design's original spelling of ``init(consumer:token:request:options:)``.
  /// - Throws: ``OAuthError`` for a URL that is not absolute http(s), a form body that does
  ///   not decode to UTF-8, or an RSA method without a usable key.
  public init(
    consumerCredentials: Credentials,
    credentials: Credentials? = nil,
    request: OAuthRequest,
    options: Options = Options()
  ) throws(OAuthError) {
    try self.init(consumer: consumerCredentials, token: credentials, request: request, options: options)
  }

  /// Signs `request` with the consumer and, for user context, the token credentials.
  /// - Throws: ``OAuthError`` for a URL that is not absolute http(s), a form body that does
  ///   not decode to UTF-8, or an RSA method without a usable key.
  public init(consumer: Credentials, token: Credentials? = nil, request: OAuthRequest, options: Options = Options()) throws(OAuthError) {
    consumerCredentials = consumer
    credentials = token
    self.request = request
    self.options = options

    let engine = try SigningEngine(consumer: consumer, token: token, configuration: options.configuration)
    let trace = SigningTrace()
    try engine.sign(request, nonce: options.nonce, timestamp: options.timestamp, trace: trace) { _, _, _, _ in }
    protocolParameters = trace.protocolParameters
    parameters = trace.parameters
    normalizedParameters = trace.normalizedParameters
    baseStringURI = trace.baseStringURI
    signatureBaseString = trace.signatureBaseString
    signingKey = options.signatureMethod.usesRSA ? nil : OAuthSigningKey.make(consumerSecret: consumer.secret, tokenSecret: token?.secret)
    signature = trace.signature
    signedProtocolParameters = trace.signedProtocolParameters
    authorizationHeader = trace.authorizationHeader
  }

  /// The signed parameters in signing order, decoded, for display.
  public var sortedParameters: [OAuthParameter] { OAuthParameterNormalization.sorted(parameters) }

  /// The request URL with the protocol parameters appended to its query (section 3.5.3),
  /// for providers that take them there instead of in a header.
  public var signedURL: String {
    OAuthFormEncoding.appending(signedProtocolParameters, toQueryOf: request.url)
  }

  /// The form body with the protocol parameters appended (section 3.5.2). Only a request
  /// with an `application/x-www-form-urlencoded` body (or none) can carry them there.
  public var signedFormBody: Data? {
    guard request.hasFormBody || request.body == nil else { return nil }
    var body = request.body ?? Data()
    if !body.isEmpty && body.last != UInt8(ascii: "&") { body.append(UInt8(ascii: "&")) }
    body.append(contentsOf: OAuthFormEncoding.encode(signedProtocolParameters).utf8)
    return body
  }
}
