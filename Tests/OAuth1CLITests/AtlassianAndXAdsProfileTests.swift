import Foundation
import TestSupport
import Testing

/// The Bitbucket Data Center and X Ads API profiles against an independent provider: the fake
/// provider verified by oauthlib 3.3.1 (pinned; Tests/Peers/fake_oauth_provider.py).
@Suite("Bitbucket Data Center and X Ads profiles (fake provider)", .tags(.peers, .processes), .tier(.peers, .processes))
struct AtlassianAndXAdsProfileTests {
  static let consumerKey = "test-consumer-key", consumerSecret = "test-consumer-secret"
  static let token = "test-access-token", tokenSecret = "test-access-token-secret"

  func environment(_ extra: [String: String] = [:]) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment["OAUTH1_CONFIG_DIR"] = FileManager.default.temporaryDirectory.appendingPathComponent("oauth1-config-\(UUID().uuidString)").path
    environment.removeValue(forKey: "OAUTH1_CONSUMER_SECRET")
    environment.removeValue(forKey: "OAUTH1_TOKEN_SECRET")
    for (key, value) in extra { environment[key] = value }
    return environment
  }

  func fakeProvider(_ arguments: [String]) async throws -> LoopbackServer {
    let site = try PythonPeer.sitePackages()
    return try await LoopbackServer.start(script: "fake_oauth_provider.py", arguments: arguments, environment: ["PYTHONPATH": site.path])
  }

  /// RSA-SHA1 with the key from a password-protected .p12, as an application link is set up;
  /// a refusal carries Atlassian's oauth_signature_base_string, which `oauth1 request` compares.
  @Test func bitbucketSignsRSASHA1WithAPKCS12Key() async throws {
    let bundle = try await SignPKCS12Tests.Bundle.make()
    defer { bundle.remove() }
    let provider = try await fakeProvider(["--methods", "RSA-SHA1", "--rsa-public-key", bundle.certificate.path, "--problem-reporting"])
    defer { provider.stop() }
    let base = provider.baseURL.absoluteString
    let arguments = [
      "--provider", "bitbucket", "--site", base + "/", "--consumer-key", Self.consumerKey, "--token", Self.token, "--rsa-key", bundle.p12.path,
    ]
    let env = environment(["OAUTH1_KEY_PASSWORD": SignPKCS12Tests.password])
    let answer = try echo(try await oauth1(["request", "GET", base + "/api/rest/api/1.0/projects?limit=25"] + arguments, environment: env))
    #expect(answer["signature_method"] as? String == "RSA-SHA1" && answer["token"] as? String == Self.token, "\(answer)")

    // Signed for another host than the one the request reaches: refused, with the base strings compared.
    let refused = try await oauth1(
      ["request", "GET", base + "/api/rest/api/1.0/projects", "-H", "Host: bitbucket.example.com"] + arguments, environment: env)
    #expect(refused.status == 1)
    #expect(refused.stderr.contains("signature_invalid"), "\(refused.stderr)")
    #expect(refused.stderr.contains("provider:"), "\(refused.stderr)")
    #expect(!refused.stderr.contains(SignPKCS12Tests.password))
  }

  /// Comma-separated list parameters, signed as %2C: oauthlib verifies them.
  @Test func xAdsSignsCommaSeparatedLists() async throws {
    let provider = try await fakeProvider([])
    defer { provider.stop() }
    let base = provider.baseURL.absoluteString
    let env = environment(["OAUTH1_CONSUMER_SECRET": Self.consumerSecret, "OAUTH1_TOKEN_SECRET": Self.tokenSecret])
    let answer = try echo(
      try await oauth1(
        [
          "request", "GET", base + "/api/12/accounts/18ce54d4x5t/campaigns?campaign_ids=8wku2,8wku3,8wku4&with_deleted=true", "--provider", "x-ads",
          "--consumer-key", Self.consumerKey, "--token", Self.token,
        ], environment: env))
    #expect(answer["signature_method"] as? String == "HMAC-SHA1", "\(answer)")
    let query = try #require(answer["query"] as? [[String]])
    #expect(query.contains(["campaign_ids", "8wku2,8wku3,8wku4"]), "\(query)")
  }
}
