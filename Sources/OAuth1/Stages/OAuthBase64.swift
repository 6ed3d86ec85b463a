import Foundation

/// Base64 (RFC 2045 alphabet, with padding) of a signature digest, the form in which
/// `oauth_signature` and `oauth_body_hash` travel.
///
/// The signer's own encoder: it writes into the engine's buffer with no allocation, in the
/// three forms the signer needs (the signature and body hash, standard and padded; the same
/// percent-encoded as they travel in a header or a form; the nonce, URL-safe and unpadded).
/// Decoding, which only the verifier does, is Foundation's.
///
/// ```swift
/// OAuthBase64.encode([0x2e, 0xcf, 0x77])  // "Ls93"
/// OAuthBase64.decode("Ls93")  // [0x2e, 0xcf, 0x77]
/// ```
public enum OAuthBase64 {
  /// Encodes `bytes` with the standard alphabet and `=` padding.
  public static func encode(_ bytes: some Sequence<UInt8>) -> String {
    string(bytes, .standard)
  }

  /// Decodes standard base64 with padding; `nil` when `string` is not valid base64.
  public static func decode(_ string: String) -> [UInt8]? {
    Data(base64Encoded: string).map { Array($0) }
  }

  struct Form {
    /// The 64 symbols, in value order.
    let alphabet: StaticString
    let padded: Bool
    /// Whether `+`, `/` and `=` are written as `%2B`, `%2F` and `%3D`.
    let percentEncoded: Bool

    static let standard = Form(alphabet: standardAlphabet, padded: true, percentEncoded: false)
    static let header = Form(alphabet: standardAlphabet, padded: true, percentEncoded: true)
    static let urlSafeUnpadded = Form(
      alphabet: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", padded: false, percentEncoded: false)

    private static let standardAlphabet: StaticString = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
  }

  /// Appends the bytes of `source` (already written) in `form` and returns where they are.
  @discardableResult
  static func append(_ source: Range<Int>, _ form: Form, in out: inout ByteWriter) -> Range<Int> {
    out.appendBase64(source, alphabet: form.alphabet, padded: form.padded, percentEncoded: form.percentEncoded)
  }

  /// `bytes` in `form`, as a String.
  static func string(_ bytes: some Sequence<UInt8>, _ form: Form) -> String {
    let bytes = bytes as? [UInt8] ?? Array(bytes)
    return ScratchArena.withBytes { out in
      let source = out.append(contentsOf: bytes)
      let encoded = append(source, form, in: &out)
      return out.string(encoded)
    }
  }
}
