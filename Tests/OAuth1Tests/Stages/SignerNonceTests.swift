import Foundation
import OAuth1
import Synchronization
import Testing

@Suite("OAuthSigner: fresh nonces")
struct SignerNonceTests {
  let consumer = Credentials(key: "app-key", secret: "app-secret")
  let token = Credentials(key: "user-token", secret: "user-secret")

  @Test func everyHeaderHasItsOwnURLSafeNonceAndVerifies() async throws {
    let signer = try OAuthSigner(consumer: consumer, token: token)
    let request = OAuthRequest(
      method: "POST", url: "https://api.example.com/1/items?a=1", body: Data("b=2".utf8), contentType: "application/x-www-form-urlencoded")
    let verifier = OAuthVerifier(
      credentials: InMemoryCredentialLookup(
        consumers: [consumer.key: OAuthConsumer(secret: consumer.secret)], tokens: [token.key: token.secret]))
    var nonces: Set<String> = []
    for _ in 0..<50 {
      let parameters = try signer.signedProtocolParameters(for: request)
      let nonce = try #require(parameters.first { $0.name == "oauth_nonce" }?.value)
      #expect(nonce.utf8.count == 32)
      #expect(nonce.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }, "\(nonce)")
      nonces.insert(nonce)
      let header = try signer.authorizationHeader(for: request)
      _ = try await verifier.verify(request, authorization: header)
    }
    #expect(nonces.count == 50)
  }

  /// A source that numbers its nonces, to see who takes them.
  final class CountingNonces: OAuthNonceSource {
    let taken = Mutex(0)
    func nextNonce() -> String {
      taken.withLock {
        $0 += 1
        return "nonce-\($0)"
      }
    }
  }

  /// A signer's configuration with a nonce source signs with that source; the generator that
  /// explains it with the same configuration takes none of its nonces.
  @Test func theGeneratorDoesNotTakeTheSignersNonces() throws {
    let source = CountingNonces()
    let configuration = OAuthSigner.Configuration(nonceSource: source)
    let request = OAuthRequest(method: "GET", url: "https://api.example.com/1/items")
    let signer = try OAuthSigner(consumer: consumer, token: token, configuration: configuration)
    let signed = try signer.signedProtocolParameters(for: request)
    #expect(signed.contains(OAuthParameter("oauth_nonce", "nonce-1")))

    let options = OAuthSignatureGenerator.Options(configuration: signer.configuration)
    let generator = try OAuthSignatureGenerator(consumerCredentials: consumer, credentials: token, request: request, options: options)
    let nonce = try #require(generator.protocolParameters.first { $0.name == "oauth_nonce" }?.value)
    #expect(nonce.utf8.count == 32 && !nonce.hasPrefix("nonce-"))
    #expect(source.taken.withLock { $0 } == 1)
  }
}
