import Foundation

/// Base64 (RFC 2045 alphabet, with padding) of a signature digest, the form in which
/// `oauth_signature` and `oauth_body_hash` travel.
///
/// ```swift
/// OAuthBase64.encode([0x2e, 0xcf, 0x77])  // "Ls93"
/// ```
public enum OAuthBase64 {
  /// Encodes `bytes` with the standard alphabet and `=` padding.
  public static func encode(_ bytes: some Sequence<UInt8>) -> String {
    Base64.string(bytes, .standard)
  }

  /// Decodes standard base64 with padding; `nil` when `string` is not valid base64.
  public static func decode(_ string: String) -> [UInt8]? {
    Data(base64Encoded: string).map { Array($0) }
  }
}
