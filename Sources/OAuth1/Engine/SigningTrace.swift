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

  func recordCollection(
    _ bytes: borrowing ByteWriter, _ protocolBytes: borrowing ByteWriter, _ pairs: borrowing ScratchArena.List<EncodedPair>,
    _ order: SigningOrder
  ) {
    protocolParameters = order.protocolPairs.filter { $0 != order.signatureSlot }.map { pairs[$0].decoded(protocolBytes) }
    parameters = CanonicalParameters.decoded(order.request, includingProtocol: true, bytes, pairs) + protocolParameters
  }

  func recordNormalization(
    _ bytes: borrowing ByteWriter, _ protocolBytes: borrowing ByteWriter, _ pairs: borrowing ScratchArena.List<EncodedPair>,
    _ order: SigningOrder,
    _ target: RequestTarget
  ) {
    normalizedParameters = order.normalized(request: bytes, protocol: protocolBytes, pairs)
    baseStringURI = target.uriString(bytes)
  }

  func recordSignature(
    _ protocolBytes: borrowing ByteWriter, _ pairs: borrowing ScratchArena.List<EncodedPair>, _ baseString: borrowing ByteWriter,
    _ signed: SigningEngine.Signed
  ) {
    signatureBaseString = baseString.string
    signedProtocolParameters = signed.decodedProtocolParameters(protocolBytes, pairs)
    signature = signedProtocolParameters.first { $0.name == "oauth_signature" }?.value ?? ""
    authorizationHeader = signed.authorizationHeader(protocolBytes, pairs)
  }
}
