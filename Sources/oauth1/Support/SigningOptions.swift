import CommandLineSupport
import Foundation
import OAuth1

/// The signing options `oauth1 sign`, `oauth1 request` and `oauth1 login` share: declared once,
/// so that each command takes them under the same names and reads them the same way.
enum SigningOptions {
  static let consumerKey = Option.value("consumer-key", placeholder: "KEY", help: "Consumer key.")
  static let consumerSecret = Option.value("consumer-secret", placeholder: "SECRET", help: "Consumer secret (or env OAUTH1_CONSUMER_SECRET).")
  static let token = Option.value("token", placeholder: "TOKEN", help: "Token (access or request token).")
  static let tokenSecret = Option.value("token-secret", placeholder: "SECRET", help: "Token secret (or env OAUTH1_TOKEN_SECRET).")
  static let signatureMethod = Option.value(
    "signature-method", placeholder: "NAME", help: "HMAC-SHA1 (default), HMAC-SHA256, HMAC-SHA512, RSA-SHA1, RSA-SHA256, RSA-SHA512, PLAINTEXT.")
  static let privateKey = Option.value("private-key", placeholder: "FILE", help: "PEM RSA private key (PKCS#1 or PKCS#8) for the RSA methods.")
  static let realm = Option.value("realm", placeholder: "REALM", help: "realm of the Authorization header (never signed).")
  static let bodyHash = Option.flag("body-hash", help: "Add oauth_body_hash (for a body that is not a form).")
  static let bodyHashAlgorithm = Option.value("body-hash-algorithm", placeholder: "SHA-1|SHA-256", help: "Digest for --body-hash (default SHA-1).")

  /// The signature method named by `--signature-method`, `nil` when it is not given.
  static func signatureMethod(_ arguments: ParsedArguments) throws(UsageError) -> OAuthSignatureMethod? {
    guard let name = arguments[signatureMethod] else { return nil }
    do {
      return try OAuthSignatureMethod(name: name)
    } catch {
      throw UsageError(error.description)
    }
  }

  /// `--body-hash` and its algorithm: `.some(nil)` is never returned; `nil` means not asked for.
  static func bodyHashAlgorithm(_ arguments: ParsedArguments) throws(UsageError) -> OAuthDigestAlgorithm? {
    switch (arguments[bodyHash], arguments[bodyHashAlgorithm]?.uppercased()) {
    case (false, nil): return nil
    case (false, .some): throw UsageError("--body-hash-algorithm needs --body-hash")
    case (true, nil), (true, "SHA-1"), (true, "SHA1"): return .sha1
    case (true, "SHA-256"), (true, "SHA256"): return .sha256
    case (true, .some(let other)): throw UsageError("--body-hash-algorithm takes SHA-1 or SHA-256, not \(other)")
    }
  }

  /// The RSA private key in the PEM file at `path`.
  static func privateKey(at path: String) throws -> RSAPrivateKey {
    try RSAPrivateKey(pem: InputFiles.readText(path, what: "private key"))
  }
}
