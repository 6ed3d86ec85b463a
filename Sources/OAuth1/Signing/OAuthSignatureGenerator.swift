import Foundation

/// Signs one request with OAuth 1.0a and exposes every intermediate value.
///
/// The generator only composes the public stages (``OAuthParameterCollection``,
/// ``OAuthParameterNormalization``, ``OAuthBaseStringURI``, ``OAuthSignatureBaseString``,
/// ``OAuthSigningKey``, ``OAuthSignature``, ``OAuthAuthorizationHeader``), so each value it
/// shows can be compared with a provider's documentation when a request is refused.
///
/// ```swift
/// let generator = try OAuthSignatureGenerator(
///   consumerCredentials: Credentials(key: "xvz1evFS4wEEPTGEFPHBog", secret: consumerSecret),
///   credentials: Credentials(key: "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb", secret: tokenSecret),
///   request: OAuthRequest(method: "POST", url: "https://api.x.com/1.1/statuses/update.json"))
/// urlRequest.setValue(generator.authorizationHeader, forHTTPHeaderField: "Authorization")
/// ```
///
/// Sign the final request: anything that changes the URL, the query or a form body after
/// signing breaks the signature.
public struct OAuthSignatureGenerator: Sendable {
  /// What the generator adds to the request besides the credentials.
  public struct Options: Sendable {
    /// The signature method; HMAC-SHA1 unless the provider asks for another.
    public var signatureMethod: OAuthSignatureMethod
    /// The RSA private key, required by the RSA methods and ignored by the others.
    public var privateKey: RSAPrivateKey?
    /// A fixed `oauth_nonce`; a fresh random one when `nil`.
    public var nonce: String?
    /// A fixed `oauth_timestamp`; read from `clock` when `nil`.
    public var timestamp: Int64?
    /// The clock for the default timestamp.
    public var clock: any OAuthClock
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
      self.signatureMethod = signatureMethod
      self.privateKey = privateKey
      self.nonce = nonce
      self.timestamp = timestamp
      self.clock = clock
      self.realm = realm
      self.callback = callback
      self.verifier = verifier
      self.includeVersion = includeVersion
      self.bodyHash = bodyHash
    }
  }

  public let consumerCredentials: Credentials
  public let credentials: Credentials?
  public let request: OAuthRequest
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

  /// Signs `request`. Throws an ``OAuthError`` for a URL that is not absolute http(s), a
  /// form body that does not decode to UTF-8, or an RSA method without a usable key.
  public init(
    consumerCredentials: Credentials,
    credentials: Credentials? = nil,
    request: OAuthRequest,
    options: Options = Options()
  ) throws(OAuthError) {
    self.consumerCredentials = consumerCredentials
    self.credentials = credentials
    self.request = request
    self.options = options

    var components = try OAuthURLComponents(request.url, requireHTTP: true)
    if let host = request.host { try components.override(hostHeader: host) }
    let isForm = request.hasFormBody
    let formBody = isForm ? request.body.map { [UInt8]($0) } : nil

    let nonce: String
    if let fixed = options.nonce { nonce = fixed } else { nonce = try OAuthNonce.random() }
    var oauth: [OAuthParameter] = [
      OAuthParameter("oauth_consumer_key", consumerCredentials.key),
      OAuthParameter("oauth_nonce", nonce),
      OAuthParameter("oauth_signature_method", options.signatureMethod.rawValue),
      OAuthParameter("oauth_timestamp", String(options.timestamp ?? options.clock.secondsSince1970())),
    ]
    if let credentials, !credentials.key.isEmpty { oauth.append(OAuthParameter("oauth_token", credentials.key)) }
    if options.includeVersion { oauth.append(OAuthParameter("oauth_version", "1.0")) }
    if let callback = options.callback { oauth.append(OAuthParameter("oauth_callback", callback)) }
    if let verifier = options.verifier { oauth.append(OAuthParameter("oauth_verifier", verifier)) }
    if let algorithm = options.bodyHash, !isForm {
      let hash = try OAuthBodyHash.compute(body: request.body.map { [UInt8]($0) } ?? [], algorithm: algorithm)
      oauth.append(OAuthParameter("oauth_body_hash", hash))
    }
    oauth.sort { $0.name < $1.name }
    protocolParameters = oauth

    parameters = try OAuthParameterCollection.collect(query: components.query, formBody: formBody, protocolParameters: oauth)
    normalizedParameters = OAuthParameterNormalization.normalize(parameters)
    baseStringURI = OAuthBaseStringURI.make(components)
    signatureBaseString = OAuthSignatureBaseString.make(
      method: request.method, baseStringURI: baseStringURI, normalizedParameters: normalizedParameters)
    let key = OAuthSigningKey.make(consumerSecret: consumerCredentials.secret, tokenSecret: credentials?.secret)
    signingKey = options.signatureMethod.usesRSA ? nil : key
    signature = try OAuthSignature.sign(
      baseString: signatureBaseString, method: options.signatureMethod, signingKey: key, privateKey: options.privateKey)
  }

  /// The signed parameters in signing order, decoded, for display.
  public var sortedParameters: [OAuthParameter] { OAuthParameterNormalization.sorted(parameters) }

  /// The protocol parameters with `oauth_signature`, in name order: what is transmitted.
  public var signedProtocolParameters: [OAuthParameter] {
    var signed = protocolParameters
    let index = signed.firstIndex { $0.name > "oauth_signature" } ?? signed.endIndex
    signed.insert(OAuthParameter("oauth_signature", signature), at: index)
    return signed
  }

  /// The value of the `Authorization` header (RFC 5849, section 3.5.1).
  public var authorizationHeader: String {
    OAuthAuthorizationHeader.make(parameters: signedProtocolParameters, realm: options.realm)
  }

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
