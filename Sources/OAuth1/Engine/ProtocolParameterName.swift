/// The protocol parameter names of RFC 5849 (and `oauth_body_hash`), spelled once for the
/// signer, which writes them, and the verifier, which reads them. Declared in name order,
/// which is their order in a signature base string and a header.
enum ProtocolParameterName: Int, CaseIterable {
  case bodyHash, callback, consumerKey, nonce, signature, signatureMethod, timestamp, token, verifier, version

  var text: String { staticText.description }

  /// The name these decoded bytes spell, if it is one of these.
  init?(_ bytes: borrowing ByteWriter, _ range: Range<Int>) {
    // The length and the byte after "oauth_" leave one candidate: one comparison, not ten.
    guard range.count >= 11, range.count <= 22 else { return nil }
    let candidate: Self
    switch (range.count, bytes[range.lowerBound + 6]) {
    case (11, UInt8(ascii: "n")): candidate = .nonce
    case (11, UInt8(ascii: "t")): candidate = .token
    case (13, _): candidate = .version
    case (14, UInt8(ascii: "c")): candidate = .callback
    case (14, UInt8(ascii: "v")): candidate = .verifier
    case (15, UInt8(ascii: "b")): candidate = .bodyHash
    case (15, UInt8(ascii: "s")): candidate = .signature
    case (15, UInt8(ascii: "t")): candidate = .timestamp
    case (18, _): candidate = .consumerKey
    case (22, _): candidate = .signatureMethod
    default: return nil
    }
    guard bytes.elementsEqual(range, candidate.staticText) else { return nil }
    self = candidate
  }

  /// The name, without an allocation.
  var staticText: StaticString {
    switch self {
    case .bodyHash: "oauth_body_hash"
    case .callback: "oauth_callback"
    case .consumerKey: "oauth_consumer_key"
    case .nonce: "oauth_nonce"
    case .signature: "oauth_signature"
    case .signatureMethod: "oauth_signature_method"
    case .timestamp: "oauth_timestamp"
    case .token: "oauth_token"
    case .verifier: "oauth_verifier"
    case .version: "oauth_version"
    }
  }
}
