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
    guard bytes.count >= 11, let found = Self.allCases.first(where: { Self.matches(bytes, $0.staticText) }) else { return nil }
    self = found
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
