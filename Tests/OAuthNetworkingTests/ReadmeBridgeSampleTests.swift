import Foundation
import NetworkClient
import NetworkClientTesting
import OAuth1
import OAuthNetworking
import TestSupport
import Testing

/// README.md's `NetworkClient` with `OAuthRequestBehavior` sample, run on a stub transport. The
/// lines between the markers are the README's text (the test checks it); only the transport
/// differs.
func readmeBridgeSample(
  consumerKey: String, consumerSecret: String, accessToken: String, accessTokenSecret: String,
  consumer: Credentials, token: Credentials, transport: any HTTPTransport
) async throws -> (Data, NetworkClient) {
  // README sample begins
  let client = NetworkClient(
    baseURL: URL(string: "https://api.x.com")!,
    behavior: CombinedRequestBehavior([
      RetryBehavior(),
      OAuthRequestBehavior(
        consumer: Credentials(key: consumerKey, secret: consumerSecret),
        token: Credentials(key: accessToken, secret: accessTokenSecret)),
    ]),
    transport: transport)
  let me = try await client.send(Request<Data>(path: "2/users/me"))  // signed afresh on each retry and same-origin redirect

  // A provider's rules, as data: NetSuite signs with HMAC-SHA256 and the account id as realm.
  let netsuite = OAuthProvider.netSuite(accountID: "123456_SB1")
  let erp = NetworkClient(baseURL: netsuite.baseURL, behavior: netsuite.behavior(consumer: consumer, token: token))
  // README sample ends
  return (me, erp)
}

@Suite("README: NetworkClient with OAuthRequestBehavior")
struct ReadmeBridgeSampleTests {
  @Test func theSampleSignsItsRequest() async throws {
    let stub = StubTransport([.json(#"{"data":{"id":"1"}}"#)])
    let credentials = Credentials(key: "k", secret: "s")
    let (body, erp) = try await readmeBridgeSample(
      consumerKey: "app-key", consumerSecret: "app-secret", accessToken: "user-token", accessTokenSecret: "user-secret",
      consumer: credentials, token: credentials, transport: stub)
    #expect(body == Data(#"{"data":{"id":"1"}}"#.utf8))
    #expect(stub.requests.count == 1)
    #expect(stub.requests[0].url.absoluteString == "https://api.x.com/2/users/me")
    let authorization = try #require(stub.requests[0].headers["Authorization"])
    #expect(authorization.hasPrefix("OAuth ") && authorization.contains(#"oauth_token="user-token""#))
    #expect(erp.configuration.baseURL.host?.contains("123456-sb1") == true)
  }

  @Test func theReadmeShowsThisCode() throws {
    let sample = try DocumentedSample(
      in: #filePath, from: "// README sample begins\n", to: "  // README sample ends", replacing: [(",\n    transport: transport)", ")")])
    #expect(try sample.documentsNotShowingIt(["README.md"]).isEmpty, "README.md's NetworkClient sample differs from this test's code")
  }
}
