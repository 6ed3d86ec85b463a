import Foundation
import OAuth1
import TestSupport
import Testing

/// Hostile input to the signer, the generator and the verifier: each case must end in a typed
/// error or a correct signature (the byte-level signer, the String-level generator and the
/// verifier all agree), quickly, and no error text may carry a secret.
@Suite("Hostile input to signing and verification")
struct HostileInputTests {
  static let consumer = Credentials(key: "hostile-app", secret: "CONSUMER-SECRET-4711")
  static let token = Credentials(key: "hostile-token", secret: "TOKEN-SECRET-0815")
  static let options = OAuthSignatureGenerator.Options(nonce: "hostile-nonce", timestamp: 1_700_000_000)

  /// A verifier with no limit but the engine's: these requests are signable, and the signer and
  /// the verifier must agree on them (the default limits refuse the largest unread, see
  /// `VerifierLimitsTests`).
  static func verifier() -> OAuthVerifier {
    OAuthVerifier(
      credentials: InMemoryCredentialLookup(consumers: [consumer.key: OAuthConsumer(secret: consumer.secret)], tokens: [token.key: token.secret]),
      options: .init(clock: FixedClock(seconds: 1_700_000_000), limits: .engineMaximum))
  }

  enum Outcome: Equatable {
    case signed
    case rejected(OAuthError)
  }

  /// Signs `request` both ways; they must agree (same header, or the same error), and a
  /// signed request must verify, within `seconds` of wall time: a bound against a cost that
  /// grows faster than the input (a quadratic 10 MiB takes many minutes), loose enough for a
  /// machine whose concurrency pool other tests hold (`LinearCostTests` measures the cost
  /// itself, in CPU time). Returns what happened.
  @discardableResult
  static func check(_ request: OAuthRequest, within seconds: Double = 90, _ comment: Comment) async throws -> Outcome {
    let clock = ContinuousClock()
    let start = clock.now
    let signer = try OAuthSigner(consumer: consumer, token: token, configuration: options.configuration)
    let fast: Result<String, OAuthError> = Result { () throws(OAuthError) in
      try signer.authorizationHeader(for: request, nonce: options.nonce, timestamp: options.timestamp)
    }
    let slow: Result<String, OAuthError> = Result { () throws(OAuthError) in
      try OAuthSignatureGenerator(consumerCredentials: consumer, credentials: token, request: request, options: options).authorizationHeader
    }
    var outcome: Outcome
    switch (fast, slow) {
    case (.success(let header), .success(let expected)):
      #expect(header == expected, comment)
      let verified = try await verifier().verify(request, authorization: header)
      #expect(verified.consumerKey == consumer.key, comment)
      outcome = .signed
    case (.failure(let error), .failure(let expected)):
      #expect(error == expected, comment)
      for secret in [consumer.secret, token.secret] { #expect(!"\(error)".contains(secret), comment) }
      // The verifier answers such a request with a typed problem, never a crash.
      do {
        _ = try await verifier().verify(
          request,
          authorization:
            "OAuth oauth_consumer_key=\"hostile-app\", oauth_token=\"hostile-token\", oauth_signature_method=\"HMAC-SHA1\", oauth_timestamp=\"1700000000\", oauth_nonce=\"n\", oauth_version=\"1.0\", oauth_signature=\"AAAA\""
        )
        Issue.record("the verifier accepted an unsignable request: \(comment)")
      } catch {
        #expect(!error.description.contains(consumer.secret), comment)
      }
      outcome = .rejected(error)
    default:
      Issue.record("the signer and the generator disagree: \(fast) vs \(slow) — \(comment)")
      outcome = .signed
    }
    let elapsed = clock.now - start
    #expect(elapsed < .seconds(TestTiming.seconds(seconds)), "\(comment): took \(elapsed)")
    return outcome
  }

  @Test func oneHundredThousandQueryParameters() async throws {
    let query = (0..<100_000).map { "p\($0)=v%20\($0 % 7)" }.joined(separator: "&")
    let outcome = try await Self.check(OAuthRequest(method: "GET", url: "https://api.example.com/search?" + query), "100,000 parameters")
    #expect(outcome == .signed)
  }

  @Test func tenMebibyteBodies() async throws {
    let form = Data("blob=".utf8) + Data(repeating: UInt8(ascii: "x"), count: 10 << 20)
    #expect(
      try await Self.check(
        OAuthRequest(method: "POST", url: "https://api.example.com/upload", body: form, contentType: "application/x-www-form-urlencoded"),
        "10 MiB form") == .signed)
    // Many small pairs in 10 MiB.
    let pairs = Data(String(repeating: "k=v&", count: (10 << 20) / 4).utf8)
    #expect(
      try await Self.check(
        OAuthRequest(method: "POST", url: "https://api.example.com/upload", body: pairs, contentType: "application/x-www-form-urlencoded"),
        "10 MiB of pairs") == .signed)
    // An opaque body is not parsed; with a body hash it is hashed.
    let binary = Data((0..<(10 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
    var options = Self.options
    options.bodyHash = .sha1
    let request = OAuthRequest(method: "PUT", url: "https://api.example.com/blob", body: binary, contentType: "application/octet-stream")
    let signer = try OAuthSigner(consumer: Self.consumer, token: Self.token, configuration: options.configuration)
    let generator = try OAuthSignatureGenerator(consumerCredentials: Self.consumer, credentials: Self.token, request: request, options: options)
    #expect(try signer.authorizationHeader(for: request, nonce: options.nonce, timestamp: options.timestamp) == generator.authorizationHeader)
  }

  @Test(arguments: [
    ("NUL escaped in a query value", "https://api.example.com/x?a=%00b"),
    ("NUL escaped in a name", "https://api.example.com/x?%00=1"),
    ("bad escapes stay literal", "https://api.example.com/x?a=%&b=%4&c=%zz&d=%%%"),
    ("empty names and values", "https://api.example.com/x?&&=&a=&=b&"),
    ("a huge path", "https://api.example.com/" + String(repeating: "seg/", count: 50_000)),
    ("a raw space and non-ASCII in the path", "https://api.example.com/a b/é?q=1"),
    ("uppercase scheme and host", "HTTPS://API.EXAMPLE.COM:443/X"),
  ])
  func unusualButSignable(label: String, url: String) async throws {
    #expect(try await Self.check(OAuthRequest(method: "GET", url: url), "\(label)") == .signed)
  }

  @Test(arguments: [
    ("an overlong escape of /", "https://api.example.com/x?a=%C0%AF"),
    ("a lone continuation byte", "https://api.example.com/x?a=%80"),
    ("an escaped 0xFF in a name", "https://api.example.com/x?%FF=1"),
    ("a truncated UTF-8 sequence", "https://api.example.com/x?a=%E2%82"),
    ("a surrogate encoded in UTF-8", "https://api.example.com/x?a=%ED%A0%80"),
  ])
  func invalidUTF8IsATypedError(label: String, url: String) async throws {
    let outcome = try await Self.check(OAuthRequest(method: "GET", url: url), "\(label)")
    guard case .rejected(.invalidParameterEncoding(source: .query, _)) = outcome else {
      Issue.record("\(label): \(outcome)")
      return
    }
  }

  @Test func invalidUTF8AndNULInAFormBody() async throws {
    for body in [Data([UInt8(ascii: "a"), UInt8(ascii: "="), 0xFF, 0xFE]), Data("a=%C3%28".utf8)] {
      let outcome = try await Self.check(
        OAuthRequest(method: "POST", url: "https://api.example.com/x", body: body, contentType: "application/x-www-form-urlencoded"),
        "invalid UTF-8 form")
      guard case .rejected(.invalidParameterEncoding(source: .formBody, parameter: "a")) = outcome else {
        Issue.record("invalid UTF-8 form: \(outcome)")
        continue
      }
    }
    let nul = Data([UInt8(ascii: "a"), UInt8(ascii: "="), 0x00, UInt8(ascii: "&"), 0x00, UInt8(ascii: "="), UInt8(ascii: "b")])
    #expect(
      try await Self.check(
        OAuthRequest(method: "POST", url: "https://api.example.com/x", body: nul, contentType: "application/x-www-form-urlencoded"),
        "raw NUL in a form") == .signed)
  }

  @Test(arguments: [
    "http://", "https:///path", "http://:80/", "file:///etc/passwd", "javascript:alert(1)", "data:text/plain,hi",
    "ftp://example.com/x", "//example.com/x", "/relative", "", "http://exa mple.com/", "http://example.com:99999/",
    "http://[::1/", "http://example.com\u{0}/x",
  ])
  func urlsThatCannotBeSigned(url: String) async throws {
    let outcome = try await Self.check(OAuthRequest(method: "GET", url: url), "\(url.debugDescription)")
    #expect(outcome != .signed, "\(url.debugDescription) was signed")
  }
}
