import Foundation
import OAuth1
import OAuth1Testing
import TestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The signing samples of README.md and of the article "Signing a request"
/// (Sources/OAuth1/OAuth1.docc/SigningARequest.md), compiled and run, so that both stay true.
@Suite("README samples")
struct ReadmeSampleTests {
  /// README.md's signing sample (the landing page's `OAuth1.md` shows it too).
  @Test func signARequestWithASigner() async throws {
    let (consumerKey, consumerSecret, accessToken, accessTokenSecret) = ("app-key", "app-secret", "user-token", "user-secret")
    let signer = try OAuthSigner(
      consumer: Credentials(key: consumerKey, secret: consumerSecret),
      token: Credentials(key: accessToken, secret: accessTokenSecret))

    var request = URLRequest(url: URL(string: "https://api.x.com/2/users/me")!)
    try signer.sign(&request)

    let header = try #require(request.value(forHTTPHeaderField: "Authorization"))
    #expect(header.hasPrefix("OAuth oauth_consumer_key=\"app-key\", oauth_nonce=\""))
    let verifier = OAuthVerifier(
      credentials: InMemoryCredentialLookup(
        consumers: [consumerKey: OAuthConsumer(secret: consumerSecret)], tokens: [accessToken: accessTokenSecret]))
    let verified = try await verifier.verify(try OAuthRequest(request), authorization: header)
    #expect(verified.token == accessToken)
  }

  /// SigningARequest.md's "Choosing how to sign" sample.
  @Test func configurations() throws {
    let consumer = Credentials(key: "k", secret: "s"), token = Credentials(key: "t", secret: "u")
    let pemText = try SignatureTests.publishedRSAKey()
    let netsuite = try OAuthSigner(
      consumer: consumer, token: token,
      configuration: .init(signatureMethod: .hmacSHA256, realm: "123456_SB1"))
    let mastercard = try OAuthSigner(
      consumer: consumer,
      configuration: .init(signatureMethod: .rsaSHA256, privateKey: try RSAPrivateKey(pem: pemText), bodyHash: .sha256))
    let get = OAuthRequest(method: "GET", url: "https://123456-sb1.suitetalk.api.netsuite.com/services/rest/record/v1/customer")
    #expect(try netsuite.authorizationHeader(for: get).hasPrefix("OAuth realm=\"123456_SB1\", "))
    let post = OAuthRequest(method: "POST", url: "https://sandbox.api.mastercard.com/x", body: Data(), contentType: "application/json")
    let parameters = try mastercard.signedProtocolParameters(for: post)
    // SHA-256 of the empty body, as Mastercard documents.
    #expect(parameters.contains(OAuthParameter("oauth_body_hash", "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=")))
    #expect(parameters.contains(OAuthParameter("oauth_signature_method", "RSA-SHA256")))
  }

  /// SigningARequest.md's "Every stage, traced" sample.
  @Test func signARequest() throws {
    var urlRequest = URLRequest(url: URL(string: "https://api.x.com/1.1/statuses/update.json?include_entities=true")!)

    let generator = try OAuthSignatureGenerator(
      consumerCredentials: Credentials(key: "xvz1evFS4wEEPTGEFPHBog", secret: "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw"),
      credentials: Credentials(key: "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb", secret: "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE"),
      request: OAuthRequest(
        method: "POST",
        url: "https://api.x.com/1.1/statuses/update.json?include_entities=true",
        body: Data("status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21".utf8),
        contentType: "application/x-www-form-urlencoded"),
      options: .init(nonce: "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg", timestamp: 1_318_622_958))  // fixed, to compare

    urlRequest.setValue(generator.authorizationHeader, forHTTPHeaderField: "Authorization")
    #expect(
      generator.signatureBaseString.hasPrefix(
        "POST&https%3A%2F%2Fapi.x.com%2F1.1%2Fstatuses%2Fupdate.json&include_entities%3Dtrue%26oauth_consumer_key%3D"))
    #expect(generator.signature == "Ls93hJiZbQ3akF3HF3x1Bz8/zU4=")  // the current X docs' value
    #expect(urlRequest.value(forHTTPHeaderField: "Authorization")?.contains("Ls93hJiZbQ3akF3HF3x1Bz8%2FzU4%3D") == true)
  }

  @Test func options() throws {
    let pemText = try SignatureTests.publishedRSAKey()
    let options = OAuthSignatureGenerator.Options(
      signatureMethod: .rsaSHA256,
      privateKey: try RSAPrivateKey(pem: pemText),
      bodyHash: .sha256)
    let generator = try OAuthSignatureGenerator(
      consumerCredentials: Credentials(key: "k", secret: ""),
      request: OAuthRequest(method: "POST", url: "https://api.example.com/items", body: Data("{}".utf8), contentType: "application/json"),
      options: options)
    #expect(generator.signingKey == nil)
    #expect(generator.protocolParameters.contains { $0.name == "oauth_body_hash" })
  }

  /// The test doubles sample of OAuth1Testing.md (which README.md links to), run as written
  /// (between the markers); the test below checks that the page shows this text.
  @Test func predictableSignatures() throws {
    // README sample begins
    // Predictable signatures: a clock you move by hand, and nonces nonce-1, nonce-2, ...
    let clock = ManualClock(seconds: 1_318_622_958)
    let signer = try OAuthSigner(
      consumer: Credentials(key: "app-key", secret: "app-secret"),
      configuration: .init(clock: clock, nonceSource: CountingNonces()))
    let first = try signer.authorizationHeader(for: OAuthRequest(method: "GET", url: "https://api.example.com/items"))
    clock.advance(by: 601)  // 601 s later, without waiting
    let second = try signer.authorizationHeader(for: OAuthRequest(method: "GET", url: "https://api.example.com/items"))
    // first: oauth_nonce="nonce-1", oauth_timestamp="1318622958"; second: "nonce-2", "1318623559"
    // README sample ends
    #expect(first.contains(#"oauth_nonce="nonce-1""#) && first.contains(#"oauth_timestamp="1318622958""#))
    #expect(second.contains(#"oauth_nonce="nonce-2""#) && second.contains(#"oauth_timestamp="1318623559""#))
  }

  @Test func oauth1TestingShowsThePredictableSignaturesSample() throws {
    let sample = try DocumentedSample(in: #filePath, from: "// README sample begins\n", to: "    // README sample ends")
    #expect(try sample.documentsNotShowingIt(["Sources/OAuth1Testing/OAuth1Testing.docc/OAuth1Testing.md"]).isEmpty)
  }
}
