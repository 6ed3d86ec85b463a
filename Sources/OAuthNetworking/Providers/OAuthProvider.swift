import Foundation
import NetworkClient
import OAuth1

/// An OAuth 1.0a provider's rules as data: where its three-legged flow lives, what its
/// authorize page needs, how it wants requests signed (method, realm, body hash, header or
/// query) and which headers it requires.
///
/// Every provider bends RFC 5849 somewhere, and each bend costs its users a day of `401`s.
/// A profile states the bends once, with the documentation that says so, and gives a ready
/// ``OAuthFlow`` and a ready signing behavior for `NetworkClient`. The known providers are
/// static members (``x``, ``discogs``, ``netSuite(accountID:)``...); a custom provider is the
/// same type with your own values.
///
/// ```swift
/// let provider = OAuthProvider.netSuite(accountID: "123456_SB1")
/// let client = NetworkClient(
///   baseURL: provider.baseURL,
///   behavior: provider.behavior(consumer: consumer, token: token))
///
/// let custom = OAuthProvider(
///   name: "Example", baseURL: URL(string: "https://api.example.com")!,
///   endpoints: .init(requestToken: "oauth/request", authorize: "oauth/authorize", accessToken: "oauth/access"),
///   signatureMethod: .hmacSHA256)
/// ```
public struct OAuthProvider: Sendable, Hashable {
  /// A short name, as `oauth1 login --provider` takes it (`"netsuite"`).
  public var name: String
  /// Where the API is; relative endpoints resolve against it.
  public var baseURL: URL
  /// The three-legged flow's endpoints, `nil` for an API signed with the consumer alone
  /// (one-legged: WooCommerce, Mastercard, LTI launches).
  public var endpoints: OAuthFlow.Endpoints?
  /// Query parameters the authorize page needs besides `oauth_token`.
  public var authorizeParameters: [AuthorizeParameter]
  /// The signature method requests are signed with.
  public var signatureMethod: OAuthSignatureMethod
  /// Every method the provider accepts, ``signatureMethod`` first.
  public var acceptedSignatureMethods: [OAuthSignatureMethod]
  /// The `realm` of the `Authorization` header, where the provider requires one.
  public var realm: String?
  /// The digest of an `oauth_body_hash` sent with every request whose body is not a form
  /// (an empty body included), where the provider requires one.
  public var bodyHash: OAuthDigestAlgorithm?
  /// Where the protocol parameters go: the `Authorization` header or the query.
  public var placement: OAuthRequestBehavior.Placement
  /// Headers every request must carry (Discogs refuses requests without a `User-Agent`).
  public var headers: HTTPHeaders
  /// What else to know: limits, retirement dates, known traps. Shown by `oauth1 login`.
  public var notes: [String]
  /// Whether a multipart body's text fields are signed (Flickr's uploads); RFC 5849 signs none.
  public var signsMultipartTextFields = false
  /// Whether a request signed with the consumer alone still sends `oauth_token=""` (Schoology's
  /// two-legged requests); RFC 5849 sends no `oauth_token` then.
  public var sendsEmptyToken = false
  /// The name under which the authorize URL carries the consumer key, `nil` for none:
  /// MediaWiki's `Special:OAuth/authorize` wants `oauth_consumer_key`, E*TRADE's `key`.
  public var authorizeConsumerKeyParameter: String?
  /// The name the authorize URL gives the request token: `oauth_token`, E*TRADE's `token`.
  public var authorizeTokenParameter = "oauth_token"

  /// A query parameter of the authorize URL: Trello's `scope`, SmugMug's `Permissions`.
  public struct AuthorizeParameter: Sendable, Hashable {
    /// The parameter's name, as the provider spells it.
    public var name: String
    /// The value sent.
    public var value: String
    /// What the parameter means, and its other values.
    public var help: String

    /// A parameter named `name` with `value`.
    public init(_ name: String, _ value: String, help: String = "") {
      self.name = name
      self.value = value
      self.help = help
    }
  }

  /// A provider with your own values; only `name`, `baseURL` and `signatureMethod` have no default.
  public init(
    name: String, baseURL: URL, endpoints: OAuthFlow.Endpoints? = nil, authorizeParameters: [AuthorizeParameter] = [],
    signatureMethod: OAuthSignatureMethod, acceptedSignatureMethods: [OAuthSignatureMethod]? = nil, realm: String? = nil,
    bodyHash: OAuthDigestAlgorithm? = nil, placement: OAuthRequestBehavior.Placement = .header, headers: HTTPHeaders = [:],
    notes: [String] = []
  ) {
    self.name = name
    self.baseURL = baseURL
    self.endpoints = endpoints
    self.authorizeParameters = authorizeParameters
    self.signatureMethod = signatureMethod
    self.acceptedSignatureMethods = acceptedSignatureMethods ?? [signatureMethod]
    self.realm = realm
    self.bodyHash = bodyHash
    self.placement = placement
    self.headers = headers
    self.notes = notes
  }

  /// How requests to this provider are signed: its method, realm and body hash, with
  /// `privateKey` for the RSA methods.
  public func configuration(privateKey: RSAPrivateKey? = nil) -> OAuthSigner.Configuration {
    var configuration = OAuthSigner.Configuration(signatureMethod: signatureMethod, privateKey: privateKey, realm: realm, bodyHash: bodyHash)
    configuration.sendsEmptyToken = sendsEmptyToken
    return configuration
  }

  /// The three-legged flow with this provider, `nil` when it has none (a one-legged API).
  public func flow(consumer: Credentials, privateKey: RSAPrivateKey? = nil, transport: any HTTPTransport = DefaultTransport()) -> OAuthFlow? {
    guard let endpoints else { return nil }
    let consumerKey = authorizeConsumerKeyParameter.map { [($0, consumer.key)] } ?? []
    var flow = OAuthFlow(
      baseURL: baseURL, consumer: consumer, endpoints: endpoints, configuration: configuration(privateKey: privateKey),
      authorizeParameters: consumerKey + authorizeParameters.map { ($0.name, $0.value) }, behavior: HeadersBehavior(headers), transport: transport)
    flow.authorizeTokenParameter = authorizeTokenParameter
    return flow
  }

  /// The behavior that signs every request of a `NetworkClient` as this provider wants
  /// (with the token, or one-legged without), and adds its required headers.
  public func behavior(consumer: Credentials, token: Credentials? = nil, privateKey: RSAPrivateKey? = nil) -> any RequestBehavior {
    var signer = OAuthRequestBehavior(consumer: consumer, token: token, configuration: configuration(privateKey: privateKey), placement: placement)
    signer.signsMultipartTextFields = signsMultipartTextFields
    return headers.isEmpty ? signer : CombinedRequestBehavior([HeadersBehavior(headers), signer])
  }
}
