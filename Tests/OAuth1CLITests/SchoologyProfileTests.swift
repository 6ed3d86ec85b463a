import Foundation
import TestSupport
import Testing

/// The Schoology profile's quirks against an independent provider: the fake provider verified by
/// oauthlib 3.3.1 (pinned; Tests/Peers/fake_oauth_provider.py with `--empty-token --realm
/// "Schoology API"`), then against `oauth1 serve --profile schoology`.
@Suite("Schoology: realm, oauth_token=\"\" two-legged, PLAINTEXT", .tags(.peers, .processes), .tier(.peers, .processes))
struct SchoologyProfileTests {
  static let consumerKey = "test-consumer-key", consumerSecret = "test-consumer-secret"

  func environment() -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment["OAUTH1_CONSUMER_SECRET"] = Self.consumerSecret
    environment.removeValue(forKey: "OAUTH1_TOKEN_SECRET")
    environment["OAUTH1_CONFIG_DIR"] = FileManager.default.temporaryDirectory.appendingPathComponent("oauth1-config-\(UUID().uuidString)").path
    return environment
  }

  func object(_ result: ProcessResult) throws -> [String: Any] {
    guard result.status == 0 else { throw CLIFailure(description: "oauth1 request exited \(result.status): \(result.stderr)") }
    guard let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] else {
      throw CLIFailure(description: "not a JSON object: \(result.stdout)")
    }
    return object
  }

  @Test func twoLeggedRequestsSendAnEmptyTokenAndTheRealm() async throws {
    let site = try PythonPeer.sitePackages()
    let provider = try await LoopbackServer.start(
      script: "fake_oauth_provider.py", arguments: ["--empty-token", "--realm", "Schoology API", "--methods", "HMAC-SHA1,PLAINTEXT"],
      environment: ["PYTHONPATH": site.path])
    defer { provider.stop() }
    let base = provider.baseURL.absoluteString
    let arguments = ["--provider", "schoology", "--consumer-key", Self.consumerKey]
    // HMAC-SHA1, the profile's method: oauthlib verifies the signature over oauth_token="".
    let echo = try object(try await oauth1(["request", "GET", base + "/api/users/me?start=0"] + arguments, environment: environment()))
    #expect(echo["signature_method"] as? String == "HMAC-SHA1" && echo["realm"] as? String == "Schoology API", "\(echo)")
    #expect(echo["consumer_key"] as? String == Self.consumerKey)
    // PLAINTEXT, which Schoology accepts too.
    let plaintext = try object(
      try await oauth1(["request", "GET", base + "/api/sections", "--signature-method", "PLAINTEXT"] + arguments, environment: environment()))
    #expect(plaintext["signature_method"] as? String == "PLAINTEXT", "\(plaintext)")
    // Without the profile no oauth_token is sent, and the provider says it is missing.
    let plain = try await oauth1(
      ["request", "GET", base + "/api/users/me", "--consumer-key", Self.consumerKey, "--realm", "Schoology API"], environment: environment())
    #expect(plain.status == 1)
    #expect(plain.stderr.contains("oauth_token"), "\(plain.stderr)")
  }

  @Test func oauth1ServeBehavesAsSchoology() async throws {
    let server = try await ServeProcess.start([
      "--profile", "schoology", "--consumer-key", Self.consumerKey, "--consumer-secret", Self.consumerSecret,
    ])
    defer { server.stop() }
    let base = server.baseURL.absoluteString
    let verdict = try object(
      try await oauth1(
        ["request", "GET", base + "/v1/users/me", "--provider", "schoology", "--consumer-key", Self.consumerKey], environment: environment()))
    #expect(verdict["valid"] as? Bool == true && verdict["token"] as? String == "" && verdict["realm"] as? String == "Schoology API", "\(verdict)")
    #expect((verdict["normalized_parameters"] as? String)?.contains("oauth_token=&") == true, "\(verdict)")
    // HMAC-SHA256 is not Schoology's.
    let refused = try await oauth1(
      ["request", "GET", base + "/v1/users/me", "--provider", "schoology", "--consumer-key", Self.consumerKey, "--signature-method", "HMAC-SHA256"],
      environment: environment())
    #expect(refused.status == 1 && refused.stderr.contains("signature_method_rejected"), "\(refused.stderr)")
  }
}
