import Foundation
import NetworkClient
import OAuth1

/// The three-legged OAuth 1.0a flow (RFC 5849, section 2): temporary credentials, the user's
/// authorization in a browser, token credentials. With the callback `oob` the provider shows
/// the user a PIN to type back: the flow for command-line and desktop programs. Steps 1 and 3
/// follow no redirect (``OAuthFlowError/network(_:)`` with `RedirectFailure.Reason.refused`):
/// their requests carry the consumer's signature, the request token and the verifier, for the
/// provider's endpoint only.
///
/// ```swift
/// let flow = OAuthFlow(baseURL: URL(string: "https://api.x.com")!, consumer: consumer)
/// let temporary = try await flow.requestToken(callback: "oob")
/// print("Open", flow.authorizeURL(for: temporary))
/// let pin = readLine() ?? ""
/// let tokens = try await flow.accessToken(for: temporary, verifier: pin)
/// ```
public struct OAuthFlow: Sendable {
  /// The provider's endpoints: paths relative to the base URL, or absolute URLs for a provider
  /// whose steps live on different hosts (Discogs authorizes on `www.discogs.com` and issues
  /// tokens on `api.discogs.com`).
  public struct Endpoints: Sendable, Hashable {
    /// The temporary-credentials endpoint, POSTed in step 1 (``OAuthFlow/requestToken(callback:parameters:)``);
    /// X's is `oauth/request_token`.
    public var requestToken: String
    /// The page where the user approves the application in step 2 (``OAuthFlow/authorizeURL(for:forceLogin:screenName:)``);
    /// X's is `oauth/authorize`.
    public var authorize: String
    /// The "Sign in with ..." page of step 2 (``OAuthFlow/authenticateURL(for:forceLogin:screenName:)``), which skips the
    /// approval for a user who already approved the application; X's is `oauth/authenticate`.
    public var authenticate: String
    /// The token-credentials endpoint, POSTed in step 3 (``OAuthFlow/accessToken(for:verifier:)``); X's is `oauth/access_token`.
    public var accessToken: String

    /// The provider's paths, relative to ``OAuthFlow/baseURL``, or absolute `https://` URLs. Every default is X's, so
    /// pass only the ones another provider names differently.
    public init(
      requestToken: String = "oauth/request_token", authorize: String = "oauth/authorize",
      authenticate: String = "oauth/authenticate", accessToken: String = "oauth/access_token"
    ) {
      self.requestToken = requestToken
      self.authorize = authorize
      self.authenticate = authenticate
      self.accessToken = accessToken
    }
  }

  /// Where the provider is, such as `https://api.x.com`; the ``OAuthFlow/endpoints`` are resolved against it, for the
  /// requests and the browser URLs alike.
  public let baseURL: URL
  /// The application's consumer key and secret, which sign every step. The secret is secret: keep it out of logs and
  /// source control.
  public let consumer: Credentials
  /// The provider's path for each step; X's by default.
  public let endpoints: Endpoints
  /// How the flow's requests are signed; its `callback` and `verifier` are set per step.
  public let configuration: OAuthSigner.Configuration
  /// Query parameters every authorize and authenticate URL carries besides `oauth_token`:
  /// Trello's `name`, `scope` and `expiration`, SmugMug's `Access` and `Permissions`.
  public let authorizeParameters: [(name: String, value: String)]
  /// Behaviors applied to the flow's requests besides signing: the `User-Agent` Discogs requires, say.
  public let behavior: any RequestBehavior
  /// The name the authorize URL gives the request token: `oauth_token` (RFC 5849), E*TRADE's `token`.
  public var authorizeTokenParameter = "oauth_token"
  let transport: any HTTPTransport

  /// A flow with a provider; nothing is sent until ``OAuthFlow/requestToken(callback:parameters:)``.
  ///
  /// - Parameters:
  ///   - baseURL: where the provider is, such as `https://api.x.com`.
  ///   - consumer: the application's consumer key and secret (the secret is secret).
  ///   - endpoints: the provider's paths; X's by default.
  ///   - configuration: how requests are signed (signature method, realm, body hash ...); HMAC-SHA1 by default. Its
  ///     `callback` and `verifier` are set by the steps that send them.
  ///   - authorizeParameters: query parameters the provider's authorize page needs besides `oauth_token`; none by default.
  ///   - behavior: what else to do to the flow's requests (headers, logging); nothing by default.
  ///   - transport: how requests travel; `URLSessionTransport` by default, a stub in tests.
  public init(
    baseURL: URL, consumer: Credentials, endpoints: Endpoints = Endpoints(),
    configuration: OAuthSigner.Configuration = .init(), authorizeParameters: [(name: String, value: String)] = [],
    behavior: any RequestBehavior = EmptyRequestBehavior(), transport: any HTTPTransport = DefaultTransport()
  ) {
    self.baseURL = baseURL
    self.consumer = consumer
    self.endpoints = endpoints
    self.configuration = configuration
    self.authorizeParameters = authorizeParameters
    self.behavior = behavior
    self.transport = transport
  }

  /// Step 1: temporary credentials, signed with the consumer credentials alone.
  public func requestToken(callback: String = "oob", parameters: [(String, String?)] = []) async throws(OAuthFlowError) -> TemporaryCredentials {
    var configuration = self.configuration
    configuration.callback = callback
    let fields = try await post(endpoints.requestToken, query: parameters, token: nil, configuration: configuration)
    guard let token = fields["oauth_token"], let secret = fields["oauth_token_secret"] else {
      throw .malformedResponse(step: "request token", reason: "no oauth_token and oauth_token_secret in the response")
    }
    guard fields["oauth_callback_confirmed"] == "true" else { throw .callbackNotConfirmed }
    return TemporaryCredentials(credentials: Credentials(key: token, secret: secret))
  }

  /// Step 2: where the user authorizes the request (and, with `oob`, reads the PIN).
  public func authorizeURL(for temporary: TemporaryCredentials, forceLogin: Bool = false, screenName: String? = nil) -> URL {
    browserURL(endpoints.authorize, temporary, forceLogin: forceLogin, screenName: screenName)
  }

  /// Step 2, "Sign in with ...": like ``authorizeURL(for:forceLogin:screenName:)`` but skips
  /// the approval page for a user who already approved the application.
  public func authenticateURL(for temporary: TemporaryCredentials, forceLogin: Bool = false, screenName: String? = nil) -> URL {
    browserURL(endpoints.authenticate, temporary, forceLogin: forceLogin, screenName: screenName)
  }

  /// Step 3: token credentials, signed with the temporary ones and the verifier (the PIN).
  public func accessToken(for temporary: TemporaryCredentials, verifier: String) async throws(OAuthFlowError) -> TokenCredentials {
    var configuration = self.configuration
    configuration.verifier = verifier.trimmingCharacters(in: .whitespacesAndNewlines)
    let fields = try await post(endpoints.accessToken, query: [], token: temporary.credentials, configuration: configuration)
    guard let token = fields["oauth_token"], let secret = fields["oauth_token_secret"] else {
      throw .malformedResponse(step: "access token", reason: "no oauth_token and oauth_token_secret in the response")
    }
    return TokenCredentials(
      credentials: Credentials(key: token, secret: secret), userID: fields["user_id"], screenName: fields["screen_name"],
      fields: fields)
  }

  private func browserURL(_ path: String, _ temporary: TemporaryCredentials, forceLogin: Bool, screenName: String?) -> URL {
    var query: [QueryItem] = [(authorizeTokenParameter, temporary.credentials.key)]
    if forceLogin { query.append(("force_login", "true")) }
    if let screenName { query.append(("screen_name", screenName)) }
    query += authorizeParameters.map { QueryItem($0.name, $0.value) }
    let (base, path) = target(path)
    let client = NetworkClient(baseURL: base, transport: transport)
    // Building a URL from a valid base and these values cannot fail; fall back to the base.
    return (try? client.prepare(Request<Data>(path: path, query: query)).url) ?? base
  }

  /// An endpoint as a base URL and a path: an absolute endpoint is its own base.
  private func target(_ endpoint: String) -> (base: URL, path: String) {
    guard (try? OAuthURLComponents(endpoint, requireHTTP: true)) != nil, let url = URL(string: endpoint) else { return (baseURL, endpoint) }
    return (url, "")
  }

  private func post(_ path: String, query: [(String, String?)], token: Credentials?, configuration: OAuthSigner.Configuration)
    async throws(OAuthFlowError) -> [String: String]
  {
    // The base string signed, kept to be compared with one the provider may send back.
    let signed = Locked<String?>(nil)
    let signer = OAuthRequestBehavior(consumer: consumer, token: token, configuration: configuration) { baseString in
      signed.withLock { $0 = baseString }
    }
    let (base, endpointPath) = target(path)
    // No redirect is followed: the steps carry the consumer's signature, the request token and
    // the verifier, for the provider's endpoint only (a redirect is OAuthFlowError.network with
    // RedirectFailure.Reason.refused, naming the status and the origin only).
    let client = NetworkClient(
      configuration: RequestConfiguration(
        baseURL: base, defaultBehavior: CombinedRequestBehavior([behavior, signer]), transport: transport, redirects: .refuse))
    let step = path.split(separator: "/").last.map(String.init) ?? path
    do {
      let response = try await client.send(Request<HTTPResponse>(method: .post, path: endpointPath, query: query.map { QueryItem($0.0, $0.1) }))
      return FormResponse.fields(response.body)
    } catch .httpStatus(let failure) {
      let explanation = OAuthRejection(failure, signatureBaseString: signed.withLock { $0 })
      throw .rejected(step: step, status: failure.statusCode, message: FormResponse.message(failure.body), explanation: explanation)
    } catch {
      throw .network(error)
    }
  }
}

/// Credentials for step 2 and 3 of the flow (a request token and its secret).
public struct TemporaryCredentials: Sendable, Hashable, CustomStringConvertible {
  /// The request token (`oauth_token`) and its secret (`oauth_token_secret`). The secret is secret, and both are short-lived:
  /// they serve one exchange for token credentials in step 3.
  public let credentials: Credentials
  /// Wraps a request token and its secret, such as one stored between step 1 and step 3 when they run in different
  /// processes or requests.
  public init(credentials: Credentials) { self.credentials = credentials }
  public var description: String { "TemporaryCredentials(token: \"\(credentials.key)\", secret: <redacted>)" }
}

/// The result of the flow: token credentials, with the identity the provider returned.
public struct TokenCredentials: Sendable, Hashable, CustomStringConvertible {
  /// The access token (`oauth_token`) and its secret (`oauth_token_secret`), which sign requests on the user's behalf until
  /// the user revokes them. The secret is secret: store it like a password.
  public let credentials: Credentials
  /// The user's id (a decimal number as a string), from the response's `user_id` field; `nil` when the provider sends none
  /// (X sends it).
  public let userID: String?
  /// The user's handle without the `@`, from the response's `screen_name` field; `nil` when the provider sends none
  /// (X sends it).
  public let screenName: String?
  /// Every field of the response, secrets included: handle with care.
  public let fields: [String: String]

  public var description: String {
    "TokenCredentials(token: \"\(credentials.key)\", secret: <redacted>, user: \(screenName.map { "@" + $0 } ?? "?"))"
  }
}
