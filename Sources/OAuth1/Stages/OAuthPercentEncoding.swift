import PercentEncoding

/// Stage 1 of signing: percent-encoding as OAuth 1.0a defines it (RFC 5849, section 3.6).
///
/// Every byte of the UTF-8 form outside `A-Z a-z 0-9 - . _ ~` becomes `%XX` with uppercase
/// hex. The implementation is the shared `PercentEncoding` module's, which the network
/// client uses for queries too, so what is signed is what is sent.
///
/// ```swift
/// OAuthPercentEncoding.encode("Ladies + Gentlemen")  // "Ladies%20%2B%20Gentlemen"
/// OAuthPercentEncoding.decode("a+b%21", plusAsSpace: true)  // "a b!"
/// ```
public enum OAuthPercentEncoding {
  /// Encodes `string` per RFC 5849 section 3.6.
  public static func encode(_ string: String) -> String { PercentEncoding.encode(string) }

  /// Encodes raw bytes per RFC 5849 section 3.6.
  public static func encode(bytes: some Sequence<UInt8>) -> String { PercentEncoding.encode(bytes: bytes) }

  /// Decodes `%XX` (and `+` as a space when `plusAsSpace`); `nil` when the result is not UTF-8.
  public static func decode(_ string: some StringProtocol, plusAsSpace: Bool = false) -> String? {
    PercentEncoding.decode(string, plusAsSpace: plusAsSpace)
  }

  /// Decodes `%XX` (and `+` as a space when `plusAsSpace`) into raw bytes.
  public static func decodeBytes(_ utf8: some Collection<UInt8>, plusAsSpace: Bool = false) -> [UInt8] {
    PercentEncoding.decodeBytes(utf8, plusAsSpace: plusAsSpace)
  }

  /// Whether `byte` is left unencoded.
  public static func isUnreserved(_ byte: UInt8) -> Bool { PercentEncoding.isUnreserved(byte) }
}
