import Foundation
import NetworkClient
import NetworkClientTesting
import OAuth1
import OAuthNetworking
import TestSupport
import Testing

/// E\*TRADE: the `oob` flow with its own authorize form, the token's end at midnight US Eastern
/// (checked against Python's zoneinfo, across both daylight-saving changes) and after two hours
/// idle, and the renew and revoke requests signed with the token.
@Suite("E*TRADE: oob, its authorize form, token lifetime, renew and revoke", .tags(.peers), .tier(.peers))
struct ETradeProfileTests {
  static let consumer = Credentials(key: "etrade-key", secret: "etrade-secret")

  @Test func theAuthorizeURLIsETradesForm() async throws {
    let stub = StubTransport([.status(200, body: Data("oauth_token=rt%2B1&oauth_token_secret=rs&oauth_callback_confirmed=true".utf8))])
    let flow = try #require(OAuthProvider.eTrade().flow(consumer: Self.consumer, transport: stub))
    let temporary = try await flow.requestToken()
    let header = try #require(stub.requests.first?.headers["Authorization"])
    #expect(header.contains(#"oauth_callback="oob""#))
    let authorize = try #require(URLComponents(url: flow.authorizeURL(for: temporary), resolvingAgainstBaseURL: false))
    #expect(authorize.scheme == "https" && authorize.host == "us.etrade.com" && authorize.path == "/e/t/etws/authorize")
    #expect(Set(authorize.queryItems ?? []) == [URLQueryItem(name: "key", value: "etrade-key"), URLQueryItem(name: "token", value: "rt+1")])
  }

  @Test func tokensEndAtMidnightEasternOrAfterTwoHoursIdle() async throws {
    // Around both 2026 daylight-saving changes (8 March, 1 November), late evening and just after midnight.
    let instants: [Int64] = [1_772_924_400, 1_772_953_200, 1_773_003_600, 1_793_491_200, 1_793_512_800, 1_793_563_199, 1_795_900_000]
    let output = try await PythonPeer.run(script: "eastern_midnight.py", input: try JSONSerialization.data(withJSONObject: instants))
    let midnights = try #require(try JSONSerialization.jsonObject(with: output) as? [Int64])
    #expect(midnights.count == instants.count)
    for (instant, midnight) in zip(instants, midnights) {
      let date = Date(timeIntervalSince1970: TimeInterval(instant))
      #expect(Int64(ETradeTokenLifetime.midnightAfter(date).timeIntervalSince1970) == midnight, "\(instant)")
      // Used just now: midnight, unless two hours come first.
      let expiry = ETradeTokenLifetime.expiry(issued: date, lastUsed: date)
      #expect(Int64(expiry.timeIntervalSince1970) == min(midnight, instant + 7200), "\(instant)")
    }
  }

  @Test func renewAndRevokeAreSignedWithTheToken() async throws {
    let stub = StubTransport(fallback: .status(200, body: Data("Access Token has been renewed".utf8)))
    let provider = OAuthProvider.eTrade(apiURL: URL(string: "https://apisb.etrade.com")!)
    let token = Credentials(key: "access-token", secret: "access-secret")
    let client = NetworkClient(baseURL: provider.baseURL, behavior: provider.behavior(consumer: Self.consumer, token: token), transport: stub)
    _ = try await client.send(Request<Data>(path: ETradeTokenLifetime.renewPath))
    _ = try await client.send(Request<Data>(path: ETradeTokenLifetime.revokePath))
    #expect(
      stub.requests.map(\.url.absoluteString) == [
        "https://apisb.etrade.com/oauth/renew_access_token", "https://apisb.etrade.com/oauth/revoke_access_token",
      ])
    let verifier = OAuthVerifier(
      credentials: InMemoryCredentialLookup(
        consumers: [Self.consumer.key: OAuthConsumer(secret: Self.consumer.secret)], tokens: [token.key: token.secret]))
    for request in stub.requests {
      let verified = try await verifier.verify(OAuthRequest(request), authorization: request.headers["Authorization"])
      #expect(verified.token == token.key)
    }
  }
}
