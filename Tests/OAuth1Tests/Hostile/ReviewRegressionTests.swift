import Foundation
import OAuth1
import Testing

/// Edge cases a code review of the byte-level signer and verifier found, kept as tests.
@Suite("Review regressions: signer and verifier edge cases")
struct ReviewRegressionTests {
  let consumer = Credentials(key: "app", secret: "app-secret")
  let token = Credentials(key: "user", secret: "user-secret")

  /// A form request with no body gets no `oauth_body_hash` (RFC: forms are signed by their
  /// parameters), from the fast signer as from the generator.
  @Test(arguments: [nil, Data()])
  func anEmptyFormGetsNoBodyHash(body: Data?) throws {
    let options = OAuthSignatureGenerator.Options(nonce: "n", timestamp: 1, bodyHash: .sha1)
    let request = OAuthRequest(method: "POST", url: "https://a.example/", body: body, contentType: "application/x-www-form-urlencoded")
    let header = try OAuthSigner(consumer: consumer, token: token, configuration: options.configuration)
      .authorizationHeader(for: request, nonce: options.nonce, timestamp: options.timestamp)
    let generator = try OAuthSignatureGenerator(consumerCredentials: consumer, credentials: token, request: request, options: options)
    #expect(header == generator.authorizationHeader)
    #expect(!header.contains("oauth_body_hash"))
  }

  /// `oauth_` followed by a combining mark is still an `oauth_` name, for the verifier's
  /// protocol-parameter search as for the parameters it reports.
  @Test func anOAuthNameWithACombiningMarkIsAProtocolName() async throws {
    let request = OAuthRequest(method: "GET", url: "https://a.example/x?oauth_%CC%81x=1&plain=2")
    let options = OAuthSignatureGenerator.Options(nonce: "n", timestamp: 1_700_000_000)
    let generator = try OAuthSignatureGenerator(consumerCredentials: consumer, credentials: token, request: request, options: options)
    let verifier = OAuthVerifier(
      credentials: InMemoryCredentialLookup(consumers: [consumer.key: OAuthConsumer(secret: consumer.secret)], tokens: [token.key: token.secret]),
      options: .init(clock: FixedClock(seconds: 1_700_000_000)))
    // The query carries an oauth_* name and the header the rest: two places, refused.
    await #expect(throws: OAuthVerificationError.self) { _ = try await verifier.verify(request, authorization: generator.authorizationHeader) }
    // Without the header's parameters elsewhere, the odd name is no request parameter either.
    let plain = OAuthRequest(method: "GET", url: "https://a.example/x?plain=2")
    let signed = try OAuthSignatureGenerator(consumerCredentials: consumer, credentials: token, request: plain, options: options)
    let verified = try await verifier.verify(plain, authorization: signed.authorizationHeader)
    #expect(verified.parameters == [OAuthParameter("plain", "2")])
  }

  @Test func anEmptyMethodIsSignedLikeTheGeneratorSignsIt() throws {
    let options = OAuthSignatureGenerator.Options(nonce: "n", timestamp: 1)
    let request = OAuthRequest(method: "", url: "https://a.example/")
    let fast = Result { () throws(OAuthError) in
      try OAuthSigner(consumer: consumer, configuration: options.configuration).authorizationHeader(
        for: request, nonce: options.nonce, timestamp: options.timestamp)
    }
    let slow = Result { () throws(OAuthError) in
      try OAuthSignatureGenerator(consumerCredentials: consumer, request: request, options: options).authorizationHeader
    }
    #expect(fast == slow)
  }
}
