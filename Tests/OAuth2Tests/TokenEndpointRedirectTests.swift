import Foundation
import NetworkClient
import NetworkClientTesting
import OAuth2
import Testing

/// The token and revoke endpoints follow no redirect: their bodies carry a code and its
/// verifier, a refresh token, a 1.0a token secret or the token to revoke, and a redirect is
/// the server's choice of where those go (issue #35, item 4).
@Suite("TokenEndpoint: no redirect")
struct TokenEndpointRedirectTests {
  static let tokenJSON = #"{"token_type":"bearer","expires_in":7200,"access_token":"AAA","refresh_token":"RRR"}"#

  static func endpoint(_ status: Int, to location: String, secret: String? = nil) -> (TokenEndpoint, StubTransport) {
    let stub = StubTransport([.status(status, headers: ["Location": location])], fallback: .json(tokenJSON))
    let client = OAuth2Client.x(clientID: "client-1", clientSecret: secret, apiBaseURL: URL(string: "https://api.example.test")!)
    return (TokenEndpoint(client: client, transport: stub), stub)
  }

  /// Each grant and revoke, against a redirect to another origin and to the same one.
  @Test(arguments: [307, 308, 302, 301, 303])
  func noGrantFollowsARedirect(status: Int) async throws {
    for location in ["http://127.0.0.1:5555/steal?code=abc&x=1", "https://api.example.test/2/oauth2/token2?refresh_token=q"] {
      let origin = location.hasPrefix("http://127.0.0.1") ? "http://127.0.0.1:5555" : "https://api.example.test:443"
      let grants: [(String, (TokenEndpoint) async throws(OAuth2Error) -> Void)] = [
        ("refresh", { endpoint throws(OAuth2Error) in _ = try await endpoint.renew(BearerToken(accessToken: "old", refreshToken: "R-secret")) }),
        (
          "code",
          { endpoint throws(OAuth2Error) in
            _ = try await endpoint.exchange(
              code: "C-secret", for: try AuthorizationRequest(client: endpoint.client, redirectURI: "http://127.0.0.1:1/cb", scopes: []))
          }
        ),
        ("exchange", { endpoint throws(OAuth2Error) in _ = try await endpoint.exchangeOAuth1(token: "t", secret: "S-secret") }),
        ("revoke", { endpoint throws(OAuth2Error) in try await endpoint.revoke("V-secret") }),
      ]
      for (name, grant) in grants {
        let (endpoint, stub) = Self.endpoint(status, to: location, secret: "client-secret")
        do {
          try await grant(endpoint)
          Issue.record("\(name): a \(status) to \(location) was followed")
        } catch {
          #expect(error == .redirected(status: status, location: origin), "\(name): \(error)")
          #expect(error.description.contains("HTTP \(status)") && error.description.contains(origin), "\(error)")
          for secret in ["R-secret", "C-secret", "S-secret", "V-secret", "code=abc", "refresh_token=q", "/steal", "client-secret"] {
            #expect(!error.description.contains(secret), "\(error)")
          }
          #expect(error.isFinal, "the same request gets the same redirect")
        }
        #expect(stub.requests.count == 1, "\(name): \(status) to \(location) sent \(stub.requests.count) requests")
      }
    }
  }
}
