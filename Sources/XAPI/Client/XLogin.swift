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
  public let flow: OAuthFlow

  public init(consumer: Credentials, baseURL: URL = XClient.defaultBaseURL, transport: any HTTPTransport = URLSessionTransport()) {
    flow = OAuthFlow(baseURL: baseURL, consumer: consumer, transport: transport)
  }

  /// A started login: the request token and where the user authorizes it.
  public struct Pending: Sendable {
    public let temporary: TemporaryCredentials
    public let authorizeURL: URL
  }

  public func start() async throws(OAuthFlowError) -> Pending {
    let temporary = try await flow.requestToken(callback: "oob")
    return Pending(temporary: temporary, authorizeURL: flow.authorizeURL(for: temporary))
  }

  public func finish(_ pending: Pending, pin: String) async throws(OAuthFlowError) -> TokenCredentials {
    try await flow.accessToken(for: pending.temporary, verifier: pin)
  }
}
