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
  static let privateKey = Option.value(
    "private-key", placeholder: "FILE", help: "RSA private key for the RSA methods: PEM (PKCS#1 or PKCS#8) or PKCS#12 (.p12, .pfx).")
  static let rsaKey = Option.value("rsa-key", placeholder: "FILE", help: "The same as --private-key.")
  static let keyPassword = Option.value(
    "key-password", placeholder: "PASSWORD",
    help: "The PKCS#12 key's password; it stays in the shell's history: prefer --key-password-file or env OAUTH1_KEY_PASSWORD.",
    recorded: .omitted)
  static let keyPasswordFile = Option.value(
    "key-password-file", placeholder: "FILE", help: "A file whose first line is the PKCS#12 key's password.", recorded: .omitted)
  /// The key options, in the order the commands list them.
  static let keyOptions: [any OptionDeclaration] = [privateKey, rsaKey, keyPassword, keyPasswordFile]
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

  /// The key file `--private-key` or `--rsa-key` names, else `stored` (a profile's), as an
  /// absolute path; `nil` when none is given.
  static func privateKeyPath(_ arguments: ParsedArguments, stored: String? = nil) throws(UsageError) -> String? {
    if arguments.has(privateKey) && arguments.has(rsaKey) { throw UsageError("give --private-key or --rsa-key, not both") }
    return (arguments[privateKey] ?? arguments[rsaKey] ?? stored).map { URL(fileURLWithPath: $0).path }
  }

  /// The RSA private key in the file at `path`: PEM text, or a PKCS#12 file opened with the
  /// password from `--key-password`, `--key-password-file` or `OAUTH1_KEY_PASSWORD` (or none).
  static func privateKey(at path: String, _ arguments: ParsedArguments, environment: [String: String]) throws -> RSAPrivateKey {
    let data = try InputFiles.readData(path, what: "private key")
    // PKCS#12 is DER, which begins with a SEQUENCE's tag (0x30); anything else is read as PEM.
    if data.first != 0x30 {
      if arguments.has(keyPassword) || arguments.has(keyPasswordFile) {
        throw UsageError("--key-password is for a PKCS#12 key; \(path) is PEM, which is read unencrypted")
      }
      return try RSAPrivateKey(pem: InputFiles.readText(path, what: "private key"))
    }
    let password = try keyPassword(arguments, environment: environment)
    let opened = Result { () throws(OAuthError) in try RSAPrivateKey(pkcs12: data, password: password ?? "") }
    if case .failure(.wrongKeyPassword) = opened {
      if password == nil {
        throw UsageError("the PKCS#12 key \(path) needs its password: give --key-password-file FILE or env OAUTH1_KEY_PASSWORD")
      }
      throw InputFiles.Failure(description: "the password does not open the PKCS#12 key \(path) (the password is not shown)")
    }
    return try opened.get()
  }

  /// The key's password: `--key-password`, else the first line of `--key-password-file`, else
  /// `OAUTH1_KEY_PASSWORD`; `nil` when none is given.
  private static func keyPassword(_ arguments: ParsedArguments, environment: [String: String]) throws -> String? {
    if arguments.has(keyPassword) && arguments.has(keyPasswordFile) { throw UsageError("give --key-password or --key-password-file, not both") }
    if let password = arguments[keyPassword] { return password }
    if let file = arguments[keyPasswordFile] {
      let text = try InputFiles.readText(file, what: "key password")
      return String(text.prefix { $0 != "\n" && $0 != "\r\n" && $0 != "\r" })
    }
    return environment["OAUTH1_KEY_PASSWORD"]
  }
}
