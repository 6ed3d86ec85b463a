import Foundation
import OAuth1
import TestSupport
import Testing

/// ``OAuthExternalSigner``: the signature computed by an awaited function of the base string's
/// bytes. A stub shows what the signer hands it and does with its answer; an external signer
/// that does RSA with the vectors' own keys gives the vectors' published signatures.
@Suite("An external signer (KMS, HSM, Keychain)")
struct ExternalSignerTests {
  /// What a stub was given.
  actor Recorder {
    var baseStrings: [[UInt8]] = []
    func record(_ bytes: [UInt8]) { baseStrings.append(bytes) }
  }

  static let request = OAuthRequest(
    method: "POST", url: "https://api.example.com/v1/items?b=2&a=1", body: Data("c=3".utf8), contentType: "application/x-www-form-urlencoded")

  @Test func aStubIsGivenTheBaseStringAndItsBytesAreTheSignature() async throws {
    let recorder = Recorder()
    let stub = OAuthExternalSigner { bytes in
      await recorder.record(bytes)
      return [1, 2, 3, 250]
    }
    let signer = try OAuthSigner(
      consumer: Credentials(key: "ck", secret: ""), token: Credentials(key: "tk", secret: ""),
      configuration: .init(signatureMethod: .rsaSHA256, realm: "Example", externalSigner: stub))
    let signed = try await signer.sign(Self.request, nonce: "n1", timestamp: 1_790_000_000)
    let given = await recorder.baseStrings
    #expect(given.count == 1)
    #expect(given.first == Array(signed.signatureBaseString.utf8))
    #expect(
      signed.signatureBaseString
        == "POST&https%3A%2F%2Fapi.example.com%2Fv1%2Fitems&a%3D1%26b%3D2%26c%3D3%26oauth_consumer_key%3Dck%26oauth_nonce%3Dn1"
        + "%26oauth_signature_method%3DRSA-SHA256%26oauth_timestamp%3D1790000000%26oauth_token%3Dtk%26oauth_version%3D1.0")
    #expect(signed.signedProtocolParameters.first { $0.name == "oauth_signature" }?.value == "AQID+g==")
    #expect(signed.authorizationHeader.hasPrefix(#"OAuth realm="Example", "#))
    #expect(signed.authorizationHeader.contains(#"oauth_signature="AQID%2Bg%3D%3D""#))

    // Each call its own nonce when none is given, and the stub awaited each time.
    let first = try await signer.sign(Self.request), second = try await signer.sign(Self.request)
    #expect(first.signatureBaseString != second.signatureBaseString)
    #expect(await recorder.baseStrings.count == 3)
  }

  @Test func theSynchronousCallsSayToAwait() throws {
    let signer = try OAuthSigner(
      consumer: Credentials(key: "ck", secret: ""), configuration: .init(signatureMethod: .rsaSHA1, externalSigner: OAuthExternalSigner { _ in [1] }))
    #expect(throws: OAuthError.externalSignerNeedsAwait) { try signer.authorizationHeader(for: Self.request) }
    #expect(throws: OAuthError.externalSignerNeedsAwait) { try signer.signedRequest(for: Self.request) }
    #expect(OAuthError.externalSignerNeedsAwait.description.contains("try await signer.sign(request)"))
  }

  struct KMSDown: Error, CustomStringConvertible {
    var description: String { "KMS unavailable (503)" }
  }

  @Test func failuresAreTypedErrors() async throws {
    let failing = try OAuthSigner(
      consumer: Credentials(key: "ck", secret: ""),
      configuration: .init(signatureMethod: .rsaSHA1, externalSigner: OAuthExternalSigner { _ in throw KMSDown() }))
    await #expect(throws: OAuthError.externalSigner(problem: "KMS unavailable (503)")) { try await failing.sign(Self.request) }
    let empty = try OAuthSigner(
      consumer: Credentials(key: "ck", secret: ""), configuration: .init(signatureMethod: .hmacSHA1, externalSigner: OAuthExternalSigner { _ in [] }))
    await #expect(throws: OAuthError.externalSigner(problem: "it returned no bytes for the base string")) { try await empty.sign(Self.request) }
    #expect(throws: OAuthError.self) {
      try OAuthSigner(
        consumer: Credentials(key: "ck", secret: "s"),
        configuration: .init(signatureMethod: .plaintext, externalSigner: OAuthExternalSigner { _ in [1] }))
    }
  }

  /// Without an external signer, the awaited call signs in process, as the synchronous one does.
  @Test func withoutAnExternalSignerItSignsInProcess() async throws {
    let signer = try OAuthSigner(consumer: Credentials(key: "ck", secret: "cs"), token: Credentials(key: "tk", secret: "ts"))
    let awaited = try await signer.sign(Self.request, nonce: "n", timestamp: 1)
    #expect(awaited == (try signer.signedRequest(for: Self.request, nonce: "n", timestamp: 1)))
  }

  /// Every RSA vector with a request, a key and a signature: an external signer doing RSA with
  /// the vector's key (as a KMS holding it would) gives the vector's signature.
  @Test func rsaVectorsSignedExternallyGiveThePublishedSignatures() async throws {
    let vectors = try VectorFile.loadAll().flatMap(\.vectors).filter { vector in
      (vector.input.signatureMethod ?? "").hasPrefix("RSA") && vector.input.rsaPrivateKeyPEM != nil && vector.input.oauthParams != nil
        && vector.input.url != nil && vector.expected.signature != nil
    }
    #expect(vectors.count >= 2)
    for vector in vectors {
      let input = vector.input
      let method = try OAuthSignatureMethod(name: try #require(input.signatureMethod))
      let key = try RSAPrivateKey(pem: try #require(input.rsaPrivateKeyPEM))
      let kms = OAuthExternalSigner { bytes in
        try OAuthSignature.digest(baseString: String(decoding: bytes, as: UTF8.self), method: method, signingKey: "", privateKey: key)
      }
      let parameters = Dictionary((input.oauthParams ?? []).map { ($0[0], $0.count > 1 ? $0[1] : "") }, uniquingKeysWith: { first, _ in first })
      let token = parameters["oauth_token"].map { Credentials(key: $0, secret: "") }
      let signer = try OAuthSigner(
        consumer: Credentials(key: try #require(parameters["oauth_consumer_key"]), secret: ""), token: token,
        configuration: .init(
          signatureMethod: method, realm: input.realm, callback: parameters["oauth_callback"], verifier: parameters["oauth_verifier"],
          includeVersion: parameters["oauth_version"] != nil, externalSigner: kms))
      let request = OAuthRequest(
        method: input.method ?? "GET", url: try #require(input.url), body: input.body.map { Data($0.utf8) }, contentType: input.contentType)
      let signed = try await signer.sign(
        request, nonce: parameters["oauth_nonce"], timestamp: parameters["oauth_timestamp"].flatMap { Int64($0) })
      #expect(signed.signedProtocolParameters.first { $0.name == "oauth_signature" }?.value == vector.expected.signature, "\(vector.id)")
      if let baseString = vector.expected.baseString { #expect(signed.signatureBaseString == baseString, "\(vector.id)") }
    }
  }
}
