extension SigningEngine {
  /// Signs `request` with the configuration's ``OAuthExternalSigner``, in three steps: the base
  /// string is computed with this request's nonce and timestamp (fixed now, so that both runs
  /// see the same), the external signer is awaited with its bytes, and the request is signed
  /// again with its answer (``SignatureKey/precomputed(_:)``), which the engine then puts in
  /// `oauth_signature` as it would its own. The base string is computed twice: nothing beside
  /// the signer's own round trip.
  func signExternally(
    _ request: OAuthRequest, nonce: String?, timestamp: Int64?, with externalSigner: OAuthExternalSigner
  ) async throws(OAuthError) -> OAuthSignedRequest {
    let timestamp = timestamp ?? configuration.clock.secondsSince1970()
    let chosenNonce: String
    if let nonce {
      chosenNonce = nonce
    } else if let source = configuration.nonceSource {
      chosenNonce = try source.nextNonce()
    } else {
      chosenNonce = try OAuthNonce.random()
    }
    var probe = self
    probe.key = .precomputed([])
    let baseString = try probe.sign(request, nonce: chosenNonce, timestamp: timestamp) { _, _, baseString, _ in
      baseString.bytes(0..<baseString.count)
    }
    let raw: [UInt8]
    do {
      raw = try await externalSigner.sign(baseString)
    } catch {
      throw .externalSigner(problem: String(describing: error))
    }
    guard !raw.isEmpty else { throw .externalSigner(problem: "it returned no bytes for the base string") }
    var signing = self
    signing.key = .precomputed(raw)
    return try signing.sign(request, nonce: chosenNonce, timestamp: timestamp) { bytes, pairs, baseString, signed in
      OAuthSignedRequest(
        authorizationHeader: signed.authorizationHeader(bytes, pairs),
        signedProtocolParameters: signed.decodedProtocolParameters(bytes, pairs),
        signatureBaseString: baseString.string)
    }
  }
}
