import Foundation
import NetworkClient
import OAuth1
import OAuthNetworking
import TestSupport
import Testing

/// The MediaWiki and E\*TRADE flows end to end against the fake provider verified by oauthlib
/// 3.3.1 (pinned; Tests/Peers/fake_oauth_provider.py with `--mediawiki` and `--etrade`): the
/// title-style endpoints with their title signed, the authorize pages' own forms, the PIN, the
/// token exchange and a request signed with the token.
@Suite("MediaWiki and E*TRADE flows (fake provider)", .tags(.peers), .tier(.peers))
struct TitleAndETradeFlowTests {
  static let consumer = Credentials(key: "test-consumer-key", secret: "test-consumer-secret")

  func fakeProvider(_ arguments: [String]) async throws -> LoopbackServer {
    let site = try PythonPeer.sitePackages()
    return try await LoopbackServer.start(script: "fake_oauth_provider.py", arguments: arguments, environment: ["PYTHONPATH": site.path])
  }

  /// Runs the oob flow of `provider` (its authorize page answers the PIN at once) and signs one
  /// request with the token; returns the authorize URL and the echo of the request.
  func runFlow(_ provider: OAuthProvider, resource: URL) async throws -> (authorize: URL, echo: [String: Any]) {
    let flow = try #require(provider.flow(consumer: Self.consumer))
    let temporary = try await flow.requestToken(callback: "oob")
    let authorize = flow.authorizeURL(for: temporary)
    let (status, page) = try await FakeOAuthProvider.browse(authorize)
    #expect(status == 200, "\(page)")
    let pin = try #require(page.split(separator: "\n").first { $0.hasPrefix("verifier: ") }?.dropFirst("verifier: ".count))
    let token = try await flow.accessToken(for: temporary, verifier: String(pin))
    let client = NetworkClient(baseURL: resource, behavior: provider.behavior(consumer: Self.consumer, token: token.credentials))
    let answer = try await client.send(Request<Data>(path: ""))
    let echo = try #require(try JSONSerialization.jsonObject(with: answer) as? [String: Any])
    return (authorize, echo)
  }

  @Test func mediaWikiTitleStyleFlow() async throws {
    let server = try await fakeProvider(["--mediawiki"])
    defer { server.stop() }
    let provider = OAuthProvider.mediaWiki(scriptURL: server.baseURL.appendingPathComponent("w/index.php"))
    let (authorize, echo) = try await runFlow(provider, resource: server.baseURL.appendingPathComponent("api/query"))
    #expect(authorize.path == "/wiki/Special:OAuth/authorize" && authorize.query?.contains("oauth_consumer_key=test-consumer-key") == true)
    #expect(echo["consumer_key"] as? String == Self.consumer.key && (echo["token"] as? String)?.isEmpty == false, "\(echo)")
  }

  @Test func eTradeFlowWithItsAuthorizeForm() async throws {
    let server = try await fakeProvider(["--etrade"])
    defer { server.stop() }
    var provider = OAuthProvider.eTrade(apiURL: server.baseURL)
    // The authorize page lives on us.etrade.com: here, on the fake provider, at the same path.
    provider.endpoints?.authorize = server.baseURL.absoluteString + "/e/t/etws/authorize"
    let (authorize, echo) = try await runFlow(provider, resource: server.baseURL.appendingPathComponent("api/v1/accounts/list"))
    #expect(authorize.query?.contains("key=test-consumer-key") == true && authorize.query?.contains("token=") == true, "\(authorize)")
    #expect(authorize.query?.contains("oauth_token") == false)
    #expect(echo["signature_method"] as? String == "HMAC-SHA1" && (echo["token"] as? String)?.isEmpty == false, "\(echo)")
  }
}
