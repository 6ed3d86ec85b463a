import Foundation
import OAuth2
import Testing

/// The authorize URL X documents, and the redirect checked before its code is used.
@Suite("AuthorizationRequest")
struct AuthorizationRequestTests {
  let client = OAuth2Client.x(clientID: "M1M5R3BMVy13QmpScXkzTUt5OE46MTpjaQ")

  @Test func theAuthorizeURLCarriesWhatXDocuments() throws {
    let pkce = try PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
    let login = try AuthorizationRequest(
      client: client, redirectURI: "http://127.0.0.1:8976/callback", scopes: ["tweet.read", "users.read", "offline.access"], state: "state123",
      pkce: pkce)
    #expect(
      login.url.absoluteString
        == "https://x.com/i/oauth2/authorize?response_type=code&client_id=M1M5R3BMVy13QmpScXkzTUt5OE46MTpjaQ"
        + "&redirect_uri=http%3A%2F%2F127.0.0.1%3A8976%2Fcallback&scope=tweet.read%20users.read%20offline.access&state=state123"
        + "&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256")
    let components = try #require(URLComponents(url: login.url, resolvingAgainstBaseURL: false))
    let items = Dictionary(uniqueKeysWithValues: (components.queryItems ?? []).map { ($0.name, $0.value ?? "") })
    #expect(items["scope"] == "tweet.read users.read offline.access" && items["redirect_uri"] == "http://127.0.0.1:8976/callback")
    #expect(!login.description.contains(pkce.verifier))
  }

  @Test func eachLoginHasItsOwnStateAndVerifier() throws {
    let one = try AuthorizationRequest(client: client, redirectURI: "http://127.0.0.1:8976/callback", scopes: ["tweet.read"])
    let two = try AuthorizationRequest(client: client, redirectURI: "http://127.0.0.1:8976/callback", scopes: ["tweet.read"])
    #expect(one.state != two.state && one.pkce.verifier != two.pkce.verifier && one.state.count == 32)
  }

  @Test func theRedirectIsCheckedBeforeItsCodeIsUsed() throws {
    let login = try AuthorizationRequest(client: client, redirectURI: "http://127.0.0.1:8976/callback", scopes: ["tweet.read"], state: "s-1")
    #expect(try login.code(fromRedirect: "http://127.0.0.1:8976/callback?state=s-1&code=abc%2Bdef") == "abc+def")
    #expect(try login.code(fromRedirect: "/callback?code=xyz&state=s-1") == "xyz")
    #expect(throws: OAuth2Error.stateMismatch) { try login.code(fromRedirect: "/callback?state=s-2&code=abc") }
    #expect(throws: OAuth2Error.stateMismatch) { try login.code(fromRedirect: "/callback?code=abc") }
    #expect(throws: OAuth2Error.accessDenied("The user said no")) {
      try login.code(fromRedirect: "/callback?state=s-1&error=access_denied&error_description=The+user+said+no")
    }
    #expect(throws: OAuth2Error.missingCode("the redirect had neither code nor error")) { try login.code(fromRedirect: "/callback?state=s-1") }
  }
}
