/// What the engine computed at each stage, recorded when ``OAuthSignatureGenerator`` asks
/// for it: the generator's properties are these values, so what it shows is what was signed.
/// A trace holds no secret but the signature; the signing key is the generator's own.
final class SigningTrace {
  /// Stage 2: every signed parameter, decoded, in source order (query, form body, protocol).
  private(set) var parameters: [OAuthParameter] = []
  /// The signed protocol parameters (no `oauth_signature`), decoded, in name order.
  private(set) var protocolParameters: [OAuthParameter] = []
  /// Stage 3.
  private(set) var normalizedParameters = ""
  /// Stage 4.
  private(set) var baseStringURI = ""
  /// Stage 5.
  private(set) var signatureBaseString = ""
  /// Stages 7 and 8: `oauth_signature`, decoded.
  private(set) var signature = ""
  /// Every protocol parameter with `oauth_signature`, decoded, in name order.
  private(set) var signedProtocolParameters: [OAuthParameter] = []
  /// Transmission (section 3.5.1).
  private(set) var authorizationHeader = ""

  func recordCollection(_ collected: CanonicalParameters, protocolParameters: UnsafeBufferPointer<EncodedPair>) {
    self.protocolParameters = protocolParameters.map(\.decoded)
    parameters = collected.decoded(includingProtocol: true) + self.protocolParameters
  }

  func recordNormalization(_ sorted: CanonicalParameters, merging protocolPairs: UnsafeBufferPointer<EncodedPair>, target: RequestTarget) {
    normalizedParameters = ByteWriter.string(capacity: sorted.length(merging: protocolPairs, forBaseString: false)) {
      sorted.append(to: &$0, merging: protocolPairs, forBaseString: false)
    }
    baseStringURI = ByteWriter.string(capacity: target.uriCapacity) { target.appendURI(to: &$0, encoded: false) }
  }

  func recordSignature(_ signed: SigningEngine.Signed) {
    signatureBaseString = String(decoding: signed.baseString, as: UTF8.self)
    signedProtocolParameters = signed.decodedProtocolParameters
    signature = signedProtocolParameters.first { $0.name == "oauth_signature" }?.value ?? ""
    authorizationHeader = signed.authorizationHeader
  }
}
