import Foundation

/// The protocol parameter names of RFC 5849 (and `oauth_body_hash`), spelled once for the
/// signer, which writes them, and the verifier, which reads them. Declared in name order,
/// which is their order in a signature base string and a header.
enum ProtocolParameterName: Int, CaseIterable {
  case bodyHash, callback, consumerKey, nonce, signature, signatureMethod, timestamp, token, verifier, version

  var text: String { staticText.description }

  /// The name's bytes, without an allocation.
  var utf8: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: staticText.utf8Start, count: staticText.utf8CodeUnitCount) }

  /// The name these decoded bytes spell, if it is one of these.
  init?(_ bytes: UnsafeBufferPointer<UInt8>) {
    // The length and the byte after "oauth_" leave one candidate: one comparison, not ten.
    guard bytes.count >= 11, bytes.count <= 22 else { return nil }
    let candidate: Self
    switch (bytes.count, bytes[6]) {
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
    guard Self.matches(bytes, candidate.staticText) else { return nil }
    self = candidate
  }

  private var staticText: StaticString {
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

  private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
    bytes.count == text.utf8CodeUnitCount && memcmp(bytes.baseAddress!, text.utf8Start, bytes.count) == 0
  }
}
