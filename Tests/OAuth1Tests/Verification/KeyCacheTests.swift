import Foundation
import OAuth1
import TestSupport
import Testing

/// The verifier caches each (consumer, token)'s prepared HMAC key with the secrets it was made
/// from; a secret the lookup now returns differently must make the key again, never reuse the
/// cached one.
@Suite("OAuthVerifier's key cache")
struct KeyCacheTests {
  static let now: Int64 = 1_700_000_000
  let request = OAuthRequest(method: "GET", url: "https://api.example.com/1.1/account/verify_credentials.json?a=1")

  /// Secrets that change while one verifier keeps using them: a rotation.
  final class RotatingLookup: OAuthCredentialLookup, @unchecked Sendable {
    private let lock = NSLock()
    private var secrets: (consumer: String, token: String)

    init(consumer: String, token: String) { secrets = (consumer, token) }

    func rotate(consumer: String, token: String) { lock.withLock { secrets = (consumer, token) } }

    func consumer(forKey key: String) async throws -> OAuthConsumer? {
      key == "app-key" ? OAuthConsumer(secret: lock.withLock { secrets.consumer }) : nil
    }
    func tokenSecret(forToken token: String, consumerKey: String) async throws -> String? {
      token == "user-token" ? lock.withLock { secrets.token } : nil
    }
  }

  func header(_ consumerSecret: String, _ tokenSecret: String, method: OAuthSignatureMethod) throws -> String {
    try OAuthSignatureGenerator(
      consumerCredentials: Credentials(key: "app-key", secret: consumerSecret), credentials: Credentials(key: "user-token", secret: tokenSecret),
      request: request, options: .init(signatureMethod: method, nonce: UUID().uuidString, timestamp: Self.now)
    ).authorizationHeader
  }

  func problem(_ verifier: OAuthVerifier, _ header: String) async -> OAuthProblem? {
    do {
      _ = try await verifier.verify(request, authorization: header)
      return nil
    } catch {
      return error.problem
    }
  }

  @Test(
    "A changed secret makes the key again: the old secrets fail, the new ones pass",
    arguments: [OAuthSignatureMethod.hmacSHA1, .hmacSHA256, .hmacSHA512])
  func aRotatedSecretIsNotServedFromTheCache(method: OAuthSignatureMethod) async throws {
    let lookup = RotatingLookup(consumer: "consumer-secret-1", token: "token-secret-1")
    let verifier = OAuthVerifier(credentials: lookup, options: .init(clock: FixedClock(seconds: Self.now)))
    #expect(await problem(verifier, try header("consumer-secret-1", "token-secret-1", method: method)) == nil)
    // The cache now holds the key of the first secrets; a hit with them is still accepted.
    #expect(await problem(verifier, try header("consumer-secret-1", "token-secret-1", method: method)) == nil)

    // Each rotation: same lengths and one last byte changed, the token secret alone, and bytes
    // moved from one secret to the other (the same bytes, another signing key).
    let rotations = [
      ("consumer-secret-2", "token-secret-1"), ("consumer-secret-2", "token-secret-2"), ("consumer-secret-", "2token-secret-2"),
      ("consumer-secret-1", "token-secret-1"),
    ]
    var previous = ("consumer-secret-1", "token-secret-1")
    for (consumer, token) in rotations {
      lookup.rotate(consumer: consumer, token: token)
      #expect(
        await problem(verifier, try header(previous.0, previous.1, method: method)) == .signatureInvalid,
        "the key of \(previous) was reused after the rotation to \(consumer), \(token)")
      #expect(await problem(verifier, try header(consumer, token, method: method)) == nil, "\(consumer), \(token) refused")
      previous = (consumer, token)
    }
  }
}
