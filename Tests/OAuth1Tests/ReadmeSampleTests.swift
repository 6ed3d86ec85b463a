import Foundation
import OAuth1
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The README's "Sign a request" sample, compiled and run, so the README stays true.
@Suite("README samples")
struct ReadmeSampleTests {
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
      options: .init(nonce: "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg", timestamp: 1318622958))  // fixed, to compare

    urlRequest.setValue(generator.authorizationHeader, forHTTPHeaderField: "Authorization")
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
}
