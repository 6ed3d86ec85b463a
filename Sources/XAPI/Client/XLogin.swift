import Foundation
import NetworkClient
import OAuth1
import OAuthNetworking

/// Logging in to X with a PIN (OAuth 1.0a, `oauth_callback=oob`): get a request token, send
/// the user to the authorize page, exchange the PIN they read there for an access token.
///
/// ```swift
/// let login = XLogin(consumer: consumer)
/// let request = try await login.start()
/// print("Open \(request.authorizeURL) and type the PIN:")
/// let account = try await login.finish(request, pin: readLine() ?? "")
/// print("Logged in as @\(account.screenName ?? "?")")
/// ```
public struct XLogin: Sendable {
  /// The OAuth flow underneath, for what ``XLogin/start()`` does not offer: a callback URL other than `oob`, the
  /// "Sign in with X" page (`authenticateURL(for:forceLogin:screenName:)`) or `forceLogin`.
  public let flow: OAuthFlow

  /// A PIN login for an application; nothing is sent until ``XLogin/start()``.
  ///
  /// - Parameters:
  ///   - consumer: the application's consumer key and secret (the secret is secret).
  ///   - baseURL: where the OAuth endpoints are; ``XClient/defaultBaseURL`` unless you point it at a proxy or a fake.
  ///   - transport: how requests travel; `URLSession` by default, `XSandbox` or a stub in tests.
  public init(consumer: Credentials, baseURL: URL = XClient.defaultBaseURL, transport: any HTTPTransport = DefaultTransport()) {
    flow = OAuthFlow(baseURL: baseURL, consumer: consumer, transport: transport)
  }

  /// A started login: the request token and where the user authorizes it.
  public struct Pending: Sendable {
    /// The request token and its secret (which is secret), for ``XLogin/finish(_:pin:)``; good for one exchange, within
    /// minutes.
    public let temporary: TemporaryCredentials
    /// The page to send the user to (`oauth/authorize?oauth_token=...`); once they approve the application, X shows them the PIN.
    public let authorizeURL: URL
  }

  /// Step 1: asks X for a request token with `oauth_callback=oob` and builds the page where the user authorizes it.
  ///
  /// - Throws: `OAuthFlowError` when X refuses the consumer credentials, does not confirm the callback, or cannot be reached.
  public func start() async throws(OAuthFlowError) -> Pending {
    let temporary = try await flow.requestToken(callback: "oob")
    return Pending(temporary: temporary, authorizeURL: flow.authorizeURL(for: temporary))
  }

  /// Step 3: exchanges the PIN the user read on the authorize page for their access token and secret.
  ///
  /// - Parameters:
  ///   - pending: what ``XLogin/start()`` returned for this login.
  ///   - pin: the PIN as the user typed it; surrounding whitespace is ignored. It is valid once, for a few minutes.
  /// - Returns: the access token and its secret (which is secret: store it like a password), with the user's id and
  ///   screen name.
  /// - Throws: `OAuthFlowError`; `.rejected` when the PIN is wrong, used or expired.
  public func finish(_ pending: Pending, pin: String) async throws(OAuthFlowError) -> TokenCredentials {
    try await flow.accessToken(for: pending.temporary, verifier: pin)
  }
}
