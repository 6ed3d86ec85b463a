import Foundation
import TestSupport
import Testing

/// `oauth1`'s error paths with recognisable secrets: no error message may carry one. (`oauth1
/// sign` prints the signing key and the signature on stdout on success: that is what it is for.)
@Suite("oauth1: no secret in error messages", .tags(.processes), .tier(.processes))
struct OAuth1SecretHygieneTests {
  static let consumerSecret = "CONSUMER-SECRET-5e8f", tokenSecret = "TOKEN-SECRET-a07c"
  static let secrets = [consumerSecret, tokenSecret, consumerSecret + "&" + tokenSecret]
  static let credentials = ["--consumer-key", "k", "--consumer-secret", consumerSecret, "--token", "t", "--token-secret", tokenSecret]

  @Test func errorPathsKeepSecretsOut() async throws {
    let signErrors: [[String]] = [
      ["sign", "--url", "file:///etc/passwd"] + Self.credentials,
      ["sign", "--url", "https://a.example/x?a=%FF"] + Self.credentials,
      ["sign", "--url", "https://a.example/", "--signature-method", "RSA-SHA1"] + Self.credentials,
      ["sign", "--url", "https://a.example/", "--private-key", "/nonexistent.pem", "--signature-method", "RSA-SHA256"] + Self.credentials,
      ["sign", "--url", "https://a.example/", "--timestamp", "soon"] + Self.credentials,
      ["sign", "--url", "https://a.example/", "--frobnicate"] + Self.credentials,
      ["sign", "--url", "https://a.example/", Self.consumerSecret + "-pasted-here-by-mistake"] + Self.credentials,
      [
        "sign", "--url", "https://a.example/", "--signature-method", "RSA-SHA1", "--token-secret", Self.tokenSecret, "--consumer-key", "k",
        "--consumer-secret", Self.consumerSecret,
      ],
    ]
    let verifyErrors: [[String]] = [
      ["verify", "--url", "https://a.example/", "--authorization", "OAuth oauth_consumer_key=\"k\", oauth_signature=\"x\""]
        + Self.credentials.filter { $0 != "--token" && $0 != "t" },
      ["verify", "--url", "https://a.example/", "--authorization", "Basic Zm9v", "--consumer-secret", Self.consumerSecret],
      [
        "verify", "--url", "https://a.example/", "--authorization",
        "OAuth oauth_consumer_key=\"k\", oauth_token=\"t\", oauth_signature_method=\"PLAINTEXT\", oauth_signature=\"\(Self.consumerSecret)%26\(Self.tokenSecret)\"",
        "--consumer-secret", "WRONG", "--token-secret", "WRONG",
      ],
    ]
    var checked = 0
    for arguments in signErrors + verifyErrors {
      let result = try await oauth1(arguments)
      #expect(result.status != 0, "\(arguments) succeeded")
      for secret in Self.secrets {
        #expect(!result.stderr.contains(secret), "\(arguments.prefix(3)): \(secret) in stderr: \(result.stderr)")
        if arguments[0] == "verify" { #expect(!result.stdout.contains(secret), "\(arguments.prefix(3)): \(secret) in stdout") }
        checked += 1
      }
    }
    print("[secrets] oauth1: \(signErrors.count + verifyErrors.count) error paths, \(checked) checks, no secret printed")
  }
}
