import Foundation
import OAuth1
import TestSupport
import Testing

/// Every complete published request, signed by the generator, verifies; so does its signature
/// as published, where the vector gives one.
@Suite("Verification of the published requests")
struct PublishedVectorVerificationTests {
  @Test func publishedRequestsVerify() async throws {
    var verified = 0
    for file in try VectorFile.loadAll() {
      for vector in file.vectors {
        guard let generator = try VectorChecker(vector: vector).generator() else { continue }
        let publicKey = generator.options.privateKey?.publicKey
        var tokens: [String: String] = [:]
        if let token = generator.credentials { tokens[token.key] = token.secret }
        let verifier = OAuthVerifier(
          credentials: InMemoryCredentialLookup(
            consumers: [generator.consumerCredentials.key: OAuthConsumer(secret: generator.consumerCredentials.secret, rsaPublicKey: publicKey)],
            tokens: tokens),
          options: .init(allowPlaintextOverHTTP: true, clock: FixedClock(seconds: generator.options.timestamp ?? 0)))
        let options = generator.options
        let signer = try OAuthSigner(consumer: generator.consumerCredentials, token: generator.credentials, configuration: options.configuration)
        #expect(
          try signer.authorizationHeader(for: generator.request, nonce: options.nonce, timestamp: options.timestamp) == generator.authorizationHeader,
          "OAuthSigner differs on \(vector.id)")
        #expect(
          try signer.signedProtocolParameters(for: generator.request, nonce: options.nonce, timestamp: options.timestamp)
            == generator.signedProtocolParameters)
        do {
          _ = try await verifier.verify(generator.request, authorization: generator.authorizationHeader)
          verified += 1
        } catch {
          Issue.record("\(file.name) \(vector.id): \(error)")
        }
      }
    }
    print("[verification] \(verified) published requests verified")
    #expect(verified >= 20)
  }
}
