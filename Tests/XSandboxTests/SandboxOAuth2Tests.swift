import Foundation
import NetworkClient
import OAuth1
import OAuth1Testing
import OAuth2
import Testing
import XAPI
import XSandbox

/// The sandbox's OAuth 2.0 endpoints, driven by the `OAuth2` client in process: the
/// authorization code with PKCE, single-use refresh tokens, the exchange of a 1.0a token, expiry
/// and revoke, as X documents them.
@Suite("XSandbox: OAuth 2.0 as X does it")
struct SandboxOAuth2Tests {
  static let api = URL(string: "https://api.x.com")!
  static let client = OAuth2Client.x(
    clientID: "sandbox-client-id", apiBaseURL: api, authorizeURL: URL(string: "https://api.x.com/i/oauth2/authorize")!)

  /// The sandbox's clock, held at this moment: a code lives 30 s, as X's does, and a test run
  /// on a busy machine may take that long between the consent and the exchange.
  static func now() -> FixedClock { FixedClock(seconds: Int64(Date().timeIntervalSince1970)) }

  /// Plays the browser: opens the authorize URL and returns where the sandbox redirects.
  static func consent(_ sandbox: XSandbox, _ url: URL) async throws -> String {
    let page = try await sandbox.send(HTTPRequest(method: .get, url: url))
    #expect(page.statusCode == 302, "\(page.text)")
    return try #require(page.headers["Location"])
  }

  @Test func authorizationCodeWithPKCEThenTheAPI() async throws {
    let sandbox = XSandbox(clock: Self.now())
    let login = try AuthorizationRequest(
      client: Self.client, redirectURI: "http://127.0.0.1:8976/callback", scopes: ["tweet.read", "users.read", "offline.access"])
    let redirect = try await Self.consent(sandbox, login.url)
    #expect(redirect.hasPrefix("http://127.0.0.1:8976/callback?state=\(login.state)&code="))
    let endpoint = TokenEndpoint(client: Self.client, transport: sandbox)
    let token = try await endpoint.exchange(code: try login.code(fromRedirect: redirect), for: login)
    #expect(token.refreshToken != nil && token.lifetime == 7200 && token.scopes == ["tweet.read", "users.read", "offline.access"])

    let x = XClient(authentication: .oauth2(store: InMemoryBearerTokenStore(token), refresher: endpoint), transport: sandbox, retry: nil)
    #expect(try await x.v2.me().username == "sandbox_user")
    // A code is single-use.
    await #expect(throws: OAuth2Error.self) { _ = try await endpoint.exchange(code: try login.code(fromRedirect: redirect), for: login) }
  }

  @Test func theServerChecksTheVerifierAgainstTheChallenge() async throws {
    let sandbox = XSandbox(clock: Self.now())
    let login = try AuthorizationRequest(client: Self.client, redirectURI: "http://127.0.0.1:8976/callback", scopes: ["tweet.read"])
    let impostor = try AuthorizationRequest(
      client: Self.client, redirectURI: login.redirectURI, scopes: login.scopes, state: login.state, pkce: try PKCE())
    let code = try login.code(fromRedirect: try await Self.consent(sandbox, login.url))
    await #expect(throws: OAuth2Error.invalidRequest("Value passed for the code verifier did not match the code challenge.")) {
      _ = try await TokenEndpoint(client: Self.client, transport: sandbox).exchange(code: code, for: impostor)
    }
    // PKCE is required, and the authorize page says what is wrong.
    let plain = login.url.absoluteString.replacingOccurrences(of: "code_challenge_method=S256", with: "code_challenge_method=plain")
    let refused = try await sandbox.send(HTTPRequest(method: .get, url: URL(string: plain)!))
    #expect(refused.statusCode == 400 && refused.text.contains("PKCE is required"))
  }

  @Test func refreshTokensAreSingleUse() async throws {
    let sandbox = XSandbox()
    let endpoint = TokenEndpoint(client: Self.client, transport: sandbox)
    let first = try await endpoint.exchangeOAuth1(token: XSandbox.demoAccessToken.key, secret: XSandbox.demoAccessToken.secret)
    let second = try await endpoint.renew(first)
    #expect(second.refreshToken != first.refreshToken && second.accessToken != first.accessToken)
    do {
      _ = try await endpoint.renew(first)
      Issue.record("a spent refresh token was accepted")
    } catch {
      // As X is reported to answer it: invalid_request, which is final all the same.
      #expect(error.code == "invalid_request" && error.isFinal)
    }
    _ = try await endpoint.renew(second)
  }

  @Test func anExchangeInvalidatesThePairBeforeIt() async throws {
    let sandbox = XSandbox()
    let endpoint = TokenEndpoint(client: Self.client, transport: sandbox)
    let old = try await endpoint.exchangeOAuth1(token: XSandbox.demoAccessToken.key, secret: XSandbox.demoAccessToken.secret)
    let new = try await endpoint.exchangeOAuth1(
      token: XSandbox.demoAccessToken.key, secret: XSandbox.demoAccessToken.secret, scopes: ["tweet.read", "users.read", "offline.access"])
    #expect(new.scopes == ["tweet.read", "users.read", "offline.access"])
    let stale = try await sandbox.raw(.get, "https://api.x.com/2/users/me", authorization: "Bearer \(old.accessToken)")
    #expect(stale.statusCode == 401)
    await #expect(throws: OAuth2Error.self) { _ = try await endpoint.renew(old) }
    let fresh = try await sandbox.raw(.get, "https://api.x.com/2/users/me", authorization: "Bearer \(new.accessToken)")
    #expect(fresh.statusCode == 200)
    // The 1.0a token still works, and a wrong secret is invalid_grant.
    #expect(try await sandbox.client().v2.me().username == "sandbox_user")
    await #expect(throws: OAuth2Error.invalidGrant("The OAuth 1.0a token or its secret is invalid or revoked.")) {
      _ = try await endpoint.exchangeOAuth1(token: XSandbox.demoAccessToken.key, secret: "wrong")
    }
  }

  @Test func anExpiredTokenIsRenewedOnceAndTheRequestReplayed() async throws {
    let clock = ManualClock(seconds: 1_900_000_000)
    let sandbox = XSandbox(clock: clock, oauth2Lifetime: 2)
    let endpoint = TokenEndpoint(client: Self.client, transport: sandbox)
    let token = try await endpoint.exchangeOAuth1(token: XSandbox.demoAccessToken.key, secret: XSandbox.demoAccessToken.secret)
    let store = InMemoryBearerTokenStore(token)
    let x = XClient(authentication: .oauth2(store: store, refresher: endpoint), transport: sandbox, retry: nil)
    #expect(try await x.v2.me().username == "sandbox_user")
    clock.advance(by: 3)  // the sandbox's clock: the client still believes its token valid
    #expect(try await x.v2.me().username == "sandbox_user")
    let renewed = await store.load()
    #expect(renewed.accessToken != token.accessToken && renewed.refreshToken != token.refreshToken)
  }

  @Test func revokeEndsAToken() async throws {
    let sandbox = XSandbox()
    let endpoint = TokenEndpoint(client: Self.client, transport: sandbox)
    let token = try await endpoint.exchangeOAuth1(token: XSandbox.demoAccessToken.key, secret: XSandbox.demoAccessToken.secret)
    try await endpoint.revoke(token.accessToken, hint: "access_token")
    try await endpoint.revoke(try #require(token.refreshToken), hint: "refresh_token")
    #expect(try await sandbox.raw(.get, "https://api.x.com/2/users/me", authorization: "Bearer \(token.accessToken)").statusCode == 401)
    await #expect(throws: OAuth2Error.self) { _ = try await endpoint.renew(token) }
    // OAuth 2.0 user tokens are for v2: v1.1 refuses them.
    let fresh = try await endpoint.exchangeOAuth1(token: XSandbox.demoAccessToken.key, secret: XSandbox.demoAccessToken.secret)
    let v1 = try await sandbox.raw(.get, "https://api.x.com/1.1/account/verify_credentials.json", authorization: "Bearer \(fresh.accessToken)")
    #expect(v1.statusCode == 403)
  }
}
