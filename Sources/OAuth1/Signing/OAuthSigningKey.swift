import PercentEncoding

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
  public static func make(consumerSecret: String, tokenSecret: String?) -> String {
    PercentEncoding.encode(consumerSecret) + "&" + PercentEncoding.encode(tokenSecret ?? "")
  }
}
