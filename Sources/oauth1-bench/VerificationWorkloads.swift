import Foundation
import OAuth1

/// Verifying Twitter's request, with a nonce store, against signing the same request.
enum VerificationWorkloads {
  static let names = ["verify/twitter-doc (with a nonce store)"]

  static func run(_ harness: inout Harness) async throws {
    let request = TwitterDocRequest.request()
    // Distinct nonces, so every verification is a first use; the store is renewed per cycle.
    let signer = try OAuthSigner(consumer: TwitterDocRequest.consumer, token: TwitterDocRequest.token)
    let headers: [String] = try (0..<1024).map { index in
      try signer.authorizationHeader(for: request, nonce: "nonce-\(index)", timestamp: TwitterDocRequest.timestamp)
    }
    let lookup = InMemoryCredentialLookup(
      consumers: [TwitterDocRequest.consumer.key: OAuthConsumer(secret: TwitterDocRequest.consumer.secret)],
      tokens: [TwitterDocRequest.token.key: TwitterDocRequest.token.secret])
    var verifier = OAuthVerifier(credentials: lookup, options: .init(clock: FixedClock(seconds: 1_318_622_958)))
    var index = 0
    try await harness.measure(names[0], baseline: "sign/twitter-doc: reused signer") {
      if index == headers.count {
        index = 0
        verifier = OAuthVerifier(credentials: lookup, options: .init(clock: FixedClock(seconds: 1_318_622_958)))
      }
      blackHole(try await verifier.verify(request, authorization: headers[index]))
      index += 1
    }
  }
}
