import Foundation
import OAuth1
import TestSupport
import Testing

@Suite("oauth1 verify, end to end", .tags(.processes), .tier(.processes))
struct VerifyCommandTests {
  let consumer = Credentials(key: "app-key", secret: "app-secret-XYZ")
  let token = Credentials(key: "user-token", secret: "user-secret-XYZ")
  let now: Int64 = 1_700_000_000
  let request = OAuthRequest(
    method: "POST", url: "https://api.example.com/1.1/statuses/update.json?include_entities=true",
    body: Data("status=Hello%20%2B%20world".utf8), contentType: "application/x-www-form-urlencoded")

  func signed(_ method: OAuthSignatureMethod = .hmacSHA1, privateKey: RSAPrivateKey? = nil) throws -> OAuthSignatureGenerator {
    try OAuthSignatureGenerator(
      consumerCredentials: consumer, credentials: token, request: request,
      options: .init(signatureMethod: method, privateKey: privateKey, nonce: "nonce-1", timestamp: now))
  }

  var common: [String] {
    [
      "verify", "--method", "POST", "--url", request.url, "--body", "status=Hello%20%2B%20world",
      "--content-type", "application/x-www-form-urlencoded", "--consumer-secret", consumer.secret,
      "--token-secret", token.secret, "--now", String(now),
    ]
  }

  @Test func aSignedRequestIsValid() async throws {
    let result = try await oauth1(common + ["--authorization", try signed().authorizationHeader])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.hasPrefix("valid\n"))
    #expect(result.stdout.contains("consumer key:     app-key"))
  }

  /// Signed for the public https URL, received by the tool at a local http port behind a proxy.
  @Test func behindAProxy() async throws {
    let header = try signed().authorizationHeader
    var arguments = common + ["--authorization", header]
    arguments[arguments.firstIndex(of: request.url)!] = "http://127.0.0.1:8080/1.1/statuses/update.json?include_entities=true"
    let refused = try await oauth1(arguments)
    #expect(refused.status == 1 && refused.stdout.contains("signature_invalid"))
    #expect(refused.stdout.contains("POST&http%3A%2F%2F127.0.0.1%3A8080%2F1.1"))

    let origin = try await oauth1(arguments + ["--public-origin", "https://api.example.com"])
    #expect(origin.status == 0, "\(origin.stdout)\(origin.stderr)")
    let forwarded = ["-H", "X-Forwarded-Proto: https", "-H", "X-Forwarded-Host: api.example.com"]
    let trusted = try await oauth1(arguments + forwarded + ["--trusted-proxy", "127.0.0.1", "--peer", "127.0.0.1"])
    #expect(trusted.status == 0, "\(trusted.stdout)\(trusted.stderr)")
    let spoofed = try await oauth1(arguments + forwarded + ["--trusted-proxy", "127.0.0.1", "--peer", "203.0.113.7"])
    #expect(spoofed.status == 1)
    let noPeer = try await oauth1(arguments + forwarded + ["--trusted-proxy", "127.0.0.1"])
    #expect(noPeer.status == 2 && noPeer.stderr.contains("--trusted-proxy needs --peer"))
  }

  @Test func theQueryFormIsValidToo() async throws {
    let generator = try signed()
    var arguments = common
    arguments[arguments.firstIndex(of: request.url)!] = generator.signedURL
    let result = try await oauth1(arguments)
    #expect(result.status == 0, "\(result.stdout)")
  }

  /// PLAINTEXT signs nothing of the request: a JSON body changed after its oauth_body_hash was
  /// computed must fail on the hash (it answered `valid`).
  @Test func aPlaintextRequestWithAChangedBodyFailsOnItsBodyHash() async throws {
    let json = OAuthRequest(
      method: "POST", url: "https://api.example.com/v1/payments", body: Data(#"{"amount":100}"#.utf8), contentType: "application/json")
    let header = try OAuthSignatureGenerator(
      consumerCredentials: consumer, credentials: token, request: json,
      options: .init(signatureMethod: .plaintext, nonce: "n-1", timestamp: now, bodyHash: .sha1)
    ).authorizationHeader
    func verify(_ body: String) async throws -> ProcessResult {
      try await oauth1([
        "verify", "--method", "POST", "--url", json.url, "--body", body, "--content-type", "application/json",
        "--consumer-secret", consumer.secret, "--token-secret", token.secret, "--now", String(now), "--authorization", header,
      ])
    }
    let intact = try await verify(#"{"amount":100}"#)
    #expect(intact.status == 0 && intact.stdout.hasPrefix("valid\n"), "\(intact.stdout)\(intact.stderr)")
    let changed = try await verify(#"{"amount":100000}"#)
    #expect(changed.status == 1)
    #expect(changed.stdout.hasPrefix("invalid: signature_invalid\n"), "\(changed.stdout)")
    #expect(changed.stdout.contains("oauth_body_hash does not match the body"), "\(changed.stdout)")
  }

  @Test func aChangedBodyIsInvalidAndShowsTheBaseString() async throws {
    var arguments = common + ["--authorization", try signed().authorizationHeader]
    arguments[arguments.firstIndex(of: "status=Hello%20%2B%20world")!] = "status=Hello%20world"
    let result = try await oauth1(arguments)
    #expect(result.status == 1)
    #expect(result.stdout.hasPrefix("invalid: signature_invalid\n"))
    #expect(
      result.stdout.contains(
        "POST&https%3A%2F%2Fapi.example.com%2F1.1%2Fstatuses%2Fupdate.json&include_entities%3Dtrue%26oauth_consumer_key%3Dapp-key"))
    for secret in [consumer.secret, token.secret] {
      #expect(!result.stdout.contains(secret) && !result.stderr.contains(secret), "a secret was printed")
    }
  }

  @Test func aStaleTimestampIsRefusedWithTheRange() async throws {
    var arguments = common + ["--authorization", try signed().authorizationHeader, "--max-skew", "60"]
    arguments[arguments.firstIndex(of: String(now))!] = String(now + 3600)
    let result = try await oauth1(arguments)
    #expect(result.status == 1)
    #expect(result.stdout.hasPrefix("invalid: timestamp_refused\n"))
    #expect(result.stdout.contains("accepted timestamps: 1700003540...1700003660"))
  }

  @Test func rsaWithAPublicKeyFile() async throws {
    let wiki = try #require(try VectorFile.loadAll().first { $0.name == "oauth-wiki-testcases.json" })
    let privateKey = try RSAPrivateKey(pem: try #require(wiki.vectors.compactMap(\.input.rsaPrivateKeyPEM).first))
    let certificate = try temporaryFile(
      named: "cert.pem", contents: Data(try #require(wiki.vectors.compactMap(\.input.rsaCertificatePEM).first).utf8))
    defer { try? FileManager.default.removeItem(at: certificate.deletingLastPathComponent()) }
    let header = try signed(.rsaSHA1, privateKey: privateKey).authorizationHeader
    let result = try await oauth1([
      "verify", "--method", "POST", "--url", request.url, "--body", "status=Hello%20%2B%20world",
      "--content-type", "application/x-www-form-urlencoded", "--public-key", certificate.path,
      "--token-secret", token.secret, "--now", String(now), "--authorization", header,
    ])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
  }

  @Test func wrongUsage() async throws {
    let missingURL = try await oauth1(["verify", "--consumer-secret", "s"])
    #expect(missingURL.status == 2 && missingURL.stderr.contains("missing --url"))
    let missingSecret = try await oauth1(["verify", "--url", "https://a.example/"])
    #expect(missingSecret.status == 2 && missingSecret.stderr.contains("missing --consumer-secret"))
    let help = try await oauth1(["help", "verify"])
    for option in ["--authorization", "--consumer-secret", "--token-secret", "--public-key", "--now", "--max-skew", "--body", "--content-type"] {
      #expect(help.stdout.contains(option))
    }
  }
}
