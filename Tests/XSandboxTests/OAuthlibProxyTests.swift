import Foundation
import Loopback
import NetworkClient
import OAuth1
import TestSupport
import Testing
import XAPI
import XSandbox

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The independent check in front of the one X emulator: `Tests/Peers/oauthlib_proxy.py`
/// verifies every signature with oauthlib, compares with the sandbox's verdict, and stops a
/// request on which the two disagree.
@Suite("The oauthlib proxy in front of the sandbox", .sandboxChecks, .tags(.peers, .processes), .tier(.peers, .processes))
struct OAuthlibProxyTests {
  /// What the sandbox's own verifier accepted, oauthlib accepted too, request by request; a bad
  /// signature is refused by both.
  @Test func everySignatureIsCheckedByOAuthlibToo() async throws {
    let server = try await VerifiedSandbox.start(tweetsPerUser: 20)
    let client = XClient(authentication: .oauth1(consumer: XSandbox.demoConsumer, token: XSandbox.demoAccessToken), baseURL: server.baseURL)
    _ = try await client.v2.me()
    _ = try await client.v2.userTweets(userID: "1001", limit: 30).tweets().collect()
    _ = try await client.v2.post(text: "Signed twice, checked twice: a JSON body & a query 🔐")
    _ = try await client.v1.userTimeline(userID: "1001", limit: 5).tweets().collect()
    let wrong = XClient(
      authentication: .oauth1(consumer: Credentials(key: XSandbox.demoConsumer.key, secret: "not-the-secret"), token: XSandbox.demoAccessToken),
      baseURL: server.baseURL, retry: nil)
    await #expect(throws: XError.self) { try await wrong.v2.me() }

    let stats = try await server.stats()
    #expect(stats.oauthlib.disagreements.isEmpty, "\(stats.oauthlib.disagreements)")
    #expect(stats.verified >= 4 && stats.oauthlib.valid == stats.verified, "sandbox \(stats.verified), oauthlib \(stats.oauthlib)")
    #expect(stats.oauthlib.invalid == 1 && stats.reasons["signature_invalid"] == 1, "\(stats.reasons)")
  }

  /// A backend that accepts every signature (as a verifier with a base-string defect would) is
  /// caught: the proxy answers 418 for a forged signature and passes a correct one through.
  @Test func aVerdictOAuthlibContradictsIsStopped() async throws {
    let lying = try LoopbackHTTPServer(answering: { request in
      if request.target.hasPrefix("/_control/secret?consumer=") {
        return .init(status: 200, body: Data(#"{"secret": "sandbox-consumer-secret"}"#.utf8))
      }
      if request.target.hasPrefix("/_control/secret?token=") {
        return .init(status: 200, body: Data(#"{"secret": "sandbox-access-token-secret"}"#.utf8))
      }
      return .init(status: 200, headers: [("Content-Type", "application/json"), (SandboxServer.verdictHeader, "verified")], body: Data("{}".utf8))
    })
    let site = try PythonPeer.sitePackages()
    let proxy = try await LoopbackServer.start(
      script: "oauthlib_proxy.py", arguments: ["--backend", "127.0.0.1:\(lying.port)", "--control-token", "not-checked-here"],
      environment: ["PYTHONPATH": site.path])
    let url = proxy.baseURL.appendingPathComponent("2/users/me")

    let signer = try OAuthSigner(consumer: XSandbox.demoConsumer, token: XSandbox.demoAccessToken)
    var good = URLRequest(url: url)
    try signer.sign(&good)
    let (_, passed) = try await URLSession.tests.data(for: good)
    #expect((passed as? HTTPURLResponse)?.statusCode == 200)
    #expect((passed as? HTTPURLResponse)?.value(forHTTPHeaderField: SandboxServer.verdictHeader) == nil, "the verdict is the proxy's only")

    let forger = try OAuthSigner(consumer: Credentials(key: XSandbox.demoConsumer.key, secret: "forged"), token: XSandbox.demoAccessToken)
    var forged = URLRequest(url: url)
    try forger.sign(&forged)
    let (body, stopped) = try await URLSession.tests.data(for: forged)
    #expect((stopped as? HTTPURLResponse)?.statusCode == 418)
    #expect(String(decoding: body, as: UTF8.self).contains(#""oauthlib": "invalid", "sandbox": "verified""#))
  }
}
