/// The HMAC and PLAINTEXT signing key (RFC 5849, section 3.4.2):
/// `enc(consumer secret)&enc(token secret)`.
///
/// The `&` is always present, even without a token secret (for the request-token step).
/// Both secrets are encoded: skipping that breaks as soon as a secret contains a reserved
/// character.
///
/// ```swift
/// OAuthSigningKey.make(consumerSecret: "kd94hf93k423kf44", tokenSecret: nil)
/// // "kd94hf93k423kf44&"
/// ```
public enum OAuthSigningKey {
  /// Returns `enc(consumerSecret)&enc(tokenSecret)`; a `nil` token secret (no token credentials yet) counts as empty.
  /// The result holds both secrets: never log it.
  public static func make(consumerSecret: String, tokenSecret: String?) -> String {
    let tokenSecret = tokenSecret ?? ""
    return ScratchArena.withBytes { out in
      write(consumerSecret, tokenSecret, to: &out)
      defer { Crypto.wipe(&out) }  // the String is the key's one copy
      return out.string
    }
  }

  /// The engine's routine: `enc(consumer secret)&enc(token secret)` appended to `out`.
  static func write(_ consumerSecret: String, _ tokenSecret: String, to out: inout ByteWriter) {
    out.appendEncoded(consumerSecret)
    out.append(UInt8(ascii: "&"))
    out.appendEncoded(tokenSecret)
  }
}
