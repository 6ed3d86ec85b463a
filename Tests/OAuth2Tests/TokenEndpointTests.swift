import Foundation
import NetworkClient
import NetworkClientTesting
import OAuth2
import PercentEncoding
import Testing

/// The token and revoke endpoints on a stub transport: each grant's parameters as X documents
/// them, client authentication for both kinds of client, and every documented error.
@Suite("TokenEndpoint")
struct TokenEndpointTests {
  static let tokenJSON =
    #"{"token_type":"bearer","expires_in":7200,"access_token":"AAA","scope":"tweet.read users.read offline.access","refresh_token":"RRR"}"#

  /// A stub that answers `json` (or `status`) and keeps the form fields and headers it got.
  static func endpoint(status: Int = 200, json: String = tokenJSON, secret: String? = nil, headers: HTTPHeaders = [:]) -> (
    TokenEndpoint, StubTransport
  ) {
    let stub = StubTransport(fallback: .json(json, status: status, headers: headers))
    let client = OAuth2Client.x(clientID: "client-1", clientSecret: secret, apiBaseURL: URL(string: "https://api.example.test")!)
    return (TokenEndpoint(client: client, transport: stub, now: { Date(timeIntervalSince1970: 1_000_000) }), stub)
  }

  static func form(_ request: HTTPRequest) -> [String: String] {
    var fields: [String: String] = [:]
    for pair in PercentEncoding.decodeForm(String(decoding: request.body ?? Data(), as: UTF8.self)) { fields[pair.name] = pair.value }
    return fields
  }

  @Test func theAuthorizationCodeGrant() async throws {
    let (endpoint, stub) = Self.endpoint()
    let login = try AuthorizationRequest(client: endpoint.client, redirectURI: "http://127.0.0.1:8976/callback", scopes: ["tweet.read"])
    let token = try await endpoint.exchange(code: "the-code", for: login)
    #expect(token.accessToken == "AAA" && token.refreshToken == "RRR" && token.scopes == ["tweet.read", "users.read", "offline.access"])
    #expect(token.expiresAt == Date(timeIntervalSince1970: 1_007_200) && token.lifetime == 7200)
    let request = try #require(stub.requests.first)
    #expect(request.method == .post && request.url.absoluteString == "https://api.example.test/2/oauth2/token")
    #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
    #expect(
      Self.form(request) == [
        "grant_type": "authorization_code", "code": "the-code", "redirect_uri": "http://127.0.0.1:8976/callback",
        "code_verifier": login.pkce.verifier, "client_id": "client-1",
      ])
    #expect(request.headers["Authorization"] == nil, "a public client sends its id in the body")
  }

  @Test func aConfidentialClientAuthenticatesWithBasic() async throws {
    let (endpoint, stub) = Self.endpoint(secret: "s3cret")
    _ = try await endpoint.renew(BearerToken(accessToken: "old", refreshToken: "R0"))
    let request = try #require(stub.requests.first)
    #expect(request.headers["Authorization"] == "Basic " + Data("client-1:s3cret".utf8).base64EncodedString())
    #expect(Self.form(request) == ["grant_type": "refresh_token", "refresh_token": "R0"])
    #expect(!endpoint.client.description.contains("s3cret"))
  }

  @Test("X's app-only bearer token: the client credentials grant with X's published example credentials and Basic value")
  func theClientCredentialsGrant() async throws {
    // X's example (fundamentals/authentication/oauth-2-0/bearer-tokens.mdx, and the older
    // "Application-only authentication" page, which publishes the encoded Basic credentials).
    let stub = StubTransport(fallback: .json(#"{"token_type":"bearer","access_token":"AAAAAAAAAAAAAAAAAAAAAMLheAAAAAAA0%2BuSeid"}"#))
    let endpoint = TokenEndpoint(
      client: .xAppOnly(consumerKey: "xvz1evFS4wEEPTGEFPHBog", consumerSecret: "L8qq9PZyRg6ieKGEKhZolGC0vJWLw8iEJ88DRdyOg"), transport: stub)
    let token = try await endpoint.clientCredentials()
    #expect(token.accessToken == "AAAAAAAAAAAAAAAAAAAAAMLheAAAAAAA0%2BuSeid" && token.refreshToken == nil && token.expiresAt == nil)
    let request = try #require(stub.requests.first)
    #expect(request.method == .post && request.url.absoluteString == "https://api.x.com/oauth2/token")
    #expect(request.headers["Authorization"] == "Basic eHZ6MWV2RlM0d0VFUFRHRUZQSEJvZzpMOHFxOVBaeVJnNmllS0dFS2hab2xHQzB2SldMdzhpRUo4OERSZHlPZw==")
    #expect(Self.form(request) == ["grant_type": "client_credentials"])
    // Without a secret there is nothing to authenticate the app with: refused before any request.
    let publicClient = TokenEndpoint(client: .x(clientID: "client-1"), transport: stub)
    await #expect(throws: OAuth2Error.self) { try await publicClient.clientCredentials() }
    #expect(stub.requests.count == 1)
  }

  @Test func theOAuth1TokenExchange() async throws {
    let (endpoint, stub) = Self.endpoint()
    _ = try await endpoint.exchangeOAuth1(token: "1001-abc", secret: "xyz", scopes: ["tweet.read", "offline.access"])
    #expect(
      Self.form(try #require(stub.requests.first)) == [
        "grant_type": "urn:ietf:params:oauth:grant-type:token-exchange", "subject_token": "1001-abc",
        "subject_token_type": "urn:x:params:oauth:token-type:oauth1_token", "oauth_token_secret": "xyz",
        "scope": "tweet.read offline.access", "client_id": "client-1",
      ])
  }

  @Test func revoke() async throws {
    let (endpoint, stub) = Self.endpoint(json: #"{"revoked":true}"#)
    try await endpoint.revoke("RRR", hint: "refresh_token")
    let request = try #require(stub.requests.first)
    #expect(request.url.absoluteString == "https://api.example.test/2/oauth2/revoke")
    #expect(Self.form(request) == ["token": "RRR", "token_type_hint": "refresh_token", "client_id": "client-1"])
  }

  @Test(
    "Every documented error is typed, and only 429, 503 and the network are worth a retry",
    arguments: [
      (400, #"{"error":"invalid_request","error_description":"Value passed for the token was invalid."}"#, "invalid_request", true),
      (400, #"{"error":"invalid_grant","error_description":"Value passed for the authorization code was invalid."}"#, "invalid_grant", true),
      (400, #"{"error":"invalid_scope","error_description":"Some scope is invalid."}"#, "invalid_scope", true),
      (401, #"{"error":"invalid_client","error_description":"Missing valid authorization header"}"#, "invalid_client", true),
      (400, #"{"error":"unauthorized_client","error_description":"x"}"#, "unauthorized_client", true),
      (429, #"{"error":"rate_limited"}"#, "rate_limited", false),
      (503, #"{"error":"temporarily_unavailable"}"#, "temporarily_unavailable", false),
      (503, "<html>down</html>", "temporarily_unavailable", false),
      (400, "error=invalid_grant&error_description=form+body", "invalid_grant", true),
    ])
  func errors(status: Int, body: String, code: String, final: Bool) async throws {
    let (endpoint, _) = Self.endpoint(status: status, json: body)
    do {
      _ = try await endpoint.renew(BearerToken(accessToken: "old", refreshToken: "spent-refresh-token"))
      Issue.record("no error for HTTP \(status)")
    } catch {
      #expect(error.code == code && error.isFinal == final, "\(error)")
      #expect(!error.description.contains("spent-refresh-token"))
    }
  }

  @Test func aSuccessThatIsNoTokenIsAnError() async throws {
    let (endpoint, _) = Self.endpoint(json: #"{"token_type":"bearer"}"#)
    await #expect(throws: OAuth2Error.unexpectedResponse(status: 200, excerpt: "no access_token in the answer")) {
      _ = try await endpoint.exchangeOAuth1(token: "t", secret: "s")
    }
    let (noRefresh, stub) = Self.endpoint()
    await #expect(throws: OAuth2Error.self) { _ = try await noRefresh.renew(BearerToken(accessToken: "a")) }
    #expect(stub.requests.isEmpty)
  }

  @Test func aRefreshThatReturnsNoNewRefreshTokenKeepsTheOldOne() async throws {
    let (endpoint, _) = Self.endpoint(json: #"{"token_type":"bearer","expires_in":7200,"access_token":"AAA2"}"#)
    let renewed = try await endpoint.renew(BearerToken(accessToken: "old", refreshToken: "R0"))
    #expect(renewed.accessToken == "AAA2" && renewed.refreshToken == "R0")
  }
}
