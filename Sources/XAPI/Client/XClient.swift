import Foundation
import NetworkClient
import OAuth1
import OAuthNetworking

/// A client for the X (Twitter) API, v2 and v1.1, over one base URL.
///
/// How requests are authenticated is a behavior chosen by ``XAuthentication``: OAuth 1.0a user
/// context or an app-only bearer token; the endpoints do not care which.
///
/// ```swift
/// let client = XClient(authentication: .oauth1(
///   consumer: Credentials(key: consumerKey, secret: consumerSecret),
///   token: Credentials(key: accessToken, secret: accessTokenSecret)))
/// let me = try await client.v2.me()
/// for try await tweet in client.v2.userTweets(userID: me.id).tweets(limit: 20) {
///   print(tweet.createdAt ?? Date(), tweet.text)
/// }
/// ```
public struct XClient: Sendable {
  /// `https://api.x.com`, where ``XClient`` and ``XLogin`` go unless given another base URL.
  public static let defaultBaseURL = URL(string: "https://api.x.com")!

  /// Where the API is; endpoint paths such as `2/users/me` and `1.1/statuses/show.json` are resolved against it.
  public let baseURL: URL
  /// How every request is authenticated (OAuth 1.0a user context or an app-only bearer token), as given to the initializer.
  public let authentication: XAuthentication
  /// The rate-limit state after every call.
  public let rateLimits: RateLimitTracker
  let network: NetworkClient
  /// What a request to another origin runs (``handedOut(_:)``): the retry policy, no credential.
  let plainBehavior: any RequestBehavior
  /// The transport, when it can hand a body over as it arrives: what the filtered stream needs.
  let streamingTransport: (any HTTPStreamingTransport)?

  /// A client of the X API.
  ///
  /// - Parameters:
  ///   - authentication: OAuth 1.0a user context, or an app-only bearer token.
  ///   - baseURL: where the API is; `https://api.x.com` unless you point it at a proxy or a fake.
  ///   - transport: how requests travel; `URLSession` by default, `XSandbox` or a stub in tests.
  ///   - retry: retries 429, 5xx and transport failures (waiting out `x-rate-limit-reset` up to
  ///     its `maxTotalWait`); `nil` for none. X's billing refusals are never retried (see
  ///     ``retryPolicy(_:)``).
  ///   - behaviors: more behaviors (logging, metrics ...), run before authentication.
  ///   - timeout: seconds to wait for each response.
  ///   - onSign: told the signature base string of every OAuth 1.0a request (it holds no
  ///     secret), for `--verbose` output.
  public init(
    authentication: XAuthentication,
    baseURL: URL = XClient.defaultBaseURL,
    transport: any HTTPTransport = DefaultTransport(),
    retry: RetryBehavior? = RetryBehavior(),
    behaviors: [any RequestBehavior] = [],
    timeout: TimeInterval = 30,
    onSign: (@Sendable (_ baseString: String) -> Void)? = nil
  ) {
    self.baseURL = baseURL
    self.authentication = authentication
    let tracker = RateLimitTracker()
    rateLimits = tracker
    streamingTransport = transport as? any HTTPStreamingTransport
    let retrying: any RequestBehavior = retry.map(Self.retryPolicy) ?? EmptyRequestBehavior()
    plainBehavior = retrying
    let chain: [any RequestBehavior] = [retrying, tracker] + behaviors + [authentication.behavior(onSign: onSign)]
    network = NetworkClient(
      configuration: RequestConfiguration(
        baseURL: baseURL, defaultBehavior: CombinedRequestBehavior(chain), transport: transport, decoder: PostSpelling.decoder(),
        timeout: timeout))
  }

  /// `retry`, refusing also to repeat X's billing refusals: a 429 `usage-capped` (the monthly
  /// cap) and a 402 `CreditsDepleted`. Waiting lifts neither, though X sends its rate-limit
  /// headers on them, so a fetch that met one would otherwise wait out a window for nothing.
  ///
  /// ```swift
  /// let retry = XClient.retryPolicy(RetryBehavior(maxAttempts: 4))
  /// ```
  public static func retryPolicy(_ retry: RetryBehavior) -> RetryBehavior {
    var policy = retry
    let callerSaysFinal = retry.isFinal
    policy.isFinal = { XError.isBillingRefusal($0) || callerSaysFinal($0) }
    return policy
  }

  /// The v2 endpoints.
  public var v2: V2 { V2(client: self) }

  /// The v1.1 endpoints.
  public var v1: V1 { V1(client: self) }

  /// Sends a request and maps any failure to ``XError``.
  func send<Output>(_ request: Request<Output>) async throws(XError) -> Response<Output> {
    do {
      return try await network.response(for: request)
    } catch {
      throw XError(error)
    }
  }

  /// Any endpoint, signed like the others: for what the typed API does not cover.
  ///
  /// ```swift
  /// let response = try await client.raw(Request<HTTPResponse>(path: "2/users/me", query: [("user.fields", "created_at")]))
  /// ```
  public func raw(_ request: Request<HTTPResponse>) async throws(XError) -> HTTPResponse {
    try await send(request).value
  }

  /// Any of X's operations by its row (``XEndpoint``), its answer decoded as `Output`: for the
  /// operations the typed API does not cover, without writing their method and path again.
  /// `path` fills the row's `{…}` segments in order (each encoded to stay one segment);
  /// budgets and the ledger bill the request by the same row.
  ///
  /// ```swift
  /// struct User: Decodable, Sendable { let id: String; let username: String }
  /// struct Users: Decodable, Sendable { let data: [User]? }
  /// let likers = try await client.call(.getPostsLikingUsers, path: ["20"], query: [("max_results", "10")], as: Users.self)
  /// ```
  ///
  /// - Precondition: `path` has one value per `{…}` segment of the row's template.
  public func call<Output: Decodable & Sendable>(
    _ endpoint: XEndpoint, path: [String] = [], query: [QueryItem] = [], body: RequestBody = .none, as output: Output.Type = Output.self
  ) async throws(XError) -> Output {
    try await send(Request<Output>(method: endpoint.method, path: endpoint.filled(path), query: query, body: body)).value
  }

  /// Like ``raw(_:)``, but a failure keeps the whole `NetworkError` (with the response's
  /// status, headers and body), for tools that show the body of an error response.
  public func rawResponse(_ request: Request<HTTPResponse>) async throws(NetworkError) -> HTTPResponse {
    try await network.send(request)
  }
}

/// How an ``XClient`` authenticates.
public enum XAuthentication: Sendable {
  /// OAuth 1.0a: the app's consumer credentials and, for user context, the user's access token.
  case oauth1(consumer: Credentials, token: Credentials?, configuration: OAuthSigner.Configuration = .init())
  /// App-only: an OAuth 2.0 bearer token (public data only).
  case bearer(String)
  /// OAuth 2.0 user context: the token `store` holds, renewed through `refresher` (an
  /// `OAuth2.TokenEndpoint`) before it expires and after a 401. X's v2 endpoints take it;
  /// v1.1's do not.
  case oauth2(store: any BearerTokenStore, refresher: any BearerTokenRefresher)

  func behavior(onSign: (@Sendable (String) -> Void)?) -> any RequestBehavior {
    switch self {
    case .oauth1(let consumer, let token, let configuration):
      return OAuthRequestBehavior(consumer: consumer, token: token, configuration: configuration, onSign: onSign)
    case .bearer(let token):
      return BearerTokenBehavior(token: token)
    case .oauth2(let store, let refresher):
      return RefreshingBearerBehavior(store: store, refresher: refresher)
    }
  }
}
