/// Everything that can go wrong while preparing or signing an OAuth 1.0a request.
///
/// Each case names the input at fault and its `description` says what to do about it.
/// No case ever carries a secret: a consumer secret, token secret, private key or signature
/// never appears in an error.
///
/// ```swift
/// do {
///   _ = try OAuthBaseStringURI.make(url: "/1.1/statuses/update.json")
/// } catch let error as OAuthError {
///   print(error)  // The URL "/1.1/statuses/update.json" is relative: ...
/// }
/// ```
public enum OAuthError: Error, Equatable, Sendable {
  /// The URL has no scheme: OAuth signs absolute URLs only.
  case relativeURL(String)
  /// The URL has no host (or an empty one).
  case missingHost(String)
  /// The URL's port is not a number from 1 to 65535.
  case invalidPort(url: String, port: String)
  /// The URL is not `http` or `https`; OAuth 1.0a signs HTTP requests only.
  case unsupportedScheme(url: String, scheme: String)
  /// The URL could not be parsed for another reason.
  case malformedURL(url: String, reason: String)
  /// A parameter in the query or the form body does not decode to UTF-8 text.
  case invalidParameterEncoding(source: OAuthParameterSource, parameter: String)
  /// A signature method name that this library does not implement.
  case unknownSignatureMethod(String)
  /// An RSA method was chosen but no private key was given.
  case missingPrivateKey(OAuthSignatureMethod)
  /// A PEM private or public key could not be read.
  case invalidKey(reason: String)
  /// The key is not an RSA key (for example an EC key).
  case wrongKeyType(found: String)
  /// A PKCS#12 file (`.p12`, `.pfx`) could not be read: not PKCS#12, damaged, or a part in a
  /// cipher this OpenSSL no longer decrypts; `reason` is OpenSSL's.
  case invalidPKCS12(reason: String)
  /// The password does not open the PKCS#12 file. The password itself is never carried.
  case wrongKeyPassword
  /// The PKCS#12 file opens but holds certificates only, no private key.
  case noPrivateKeyInPKCS12
  /// The configuration's ``OAuthExternalSigner`` cannot sign: it failed (`problem` is its
  /// error's description), returned no bytes, or was given PLAINTEXT, which has no signature to compute.
  case externalSigner(problem: String)
  /// A synchronous signing call on a signer whose signature comes from an ``OAuthExternalSigner``,
  /// which must be awaited.
  case externalSignerNeedsAwait
  /// An `Authorization` header that is not a well-formed `OAuth` header.
  case malformedAuthorizationHeader(reason: String)
  /// The crypto backend failed where it should not; the reason is OpenSSL's.
  case cryptoFailure(operation: String, reason: String)
  /// The query and form body are too large to sign (`bytes`; at most `limit`).
  case requestTooLarge(bytes: Int, limit: Int)
}

/// Where a signed parameter came from (RFC 5849, section 3.4.1.3.1).
public enum OAuthParameterSource: String, Sendable, Hashable, CustomStringConvertible {
  /// The URL's query component, where `+` decodes as a space.
  case query = "query"
  /// An `application/x-www-form-urlencoded` request body, the only kind of body whose parameters are signed.
  case formBody = "form body"
  /// The fields of an `Authorization: OAuth ...` header (all but `realm`), as the verifier and `OAuthAuthorizationHeader.parse(_:)` read them.
  case authorizationHeader = "Authorization header"
  /// The `oauth_*` parameters a signer adds, wherever they are then sent. The library's own stages take them as decoded text,
  /// so none of them reports an encoding error from this source.
  case protocolParameters = "protocol parameters"

  public var description: String { rawValue }
}

extension OAuthError: CustomStringConvertible {
  public var description: String {
    switch self {
    case .relativeURL(let url):
      return
        "The URL \"\(url)\" is relative: OAuth 1.0a signs the absolute URL the request is sent to. Give the full URL, for example https://api.x.com\(url.hasPrefix("/") ? url : "/" + url)."
    case .missingHost(let url):
      return "The URL \"\(url)\" has no host. Give a URL such as https://api.example.com/path."
    case .invalidPort(let url, let port):
      return
        "The URL \"\(url)\" has the port \"\(port)\", which is not a number from 1 to 65535. Fix the port or leave it out to use the scheme's default."
    case .unsupportedScheme(let url, let scheme):
      return "The URL \"\(url)\" uses the scheme \"\(scheme)\"; OAuth 1.0a signs http and https requests only."
    case .malformedURL(let url, let reason):
      return "The URL \"\(url)\" cannot be parsed: \(reason)."
    case .invalidParameterEncoding(let source, let parameter):
      return
        "The \(source) parameter \"\(parameter)\" does not decode to UTF-8 text, so it cannot be signed as the server will read it. Percent-encode the UTF-8 bytes of the text."
    case .unknownSignatureMethod(let name):
      let known = OAuthSignatureMethod.allCases.map(\.rawValue).joined(separator: ", ")
      return "Unknown signature method \"\(name)\". Use one of: \(known)."
    case .missingPrivateKey(let method):
      return "\(method.rawValue) signs with an RSA private key, and none was given. Load one with RSAPrivateKey(pem:) (PKCS#1 or PKCS#8 PEM)."
    case .invalidKey(let reason):
      return
        "The key could not be read: \(reason). Give a PEM file that begins with -----BEGIN PRIVATE KEY----- or -----BEGIN RSA PRIVATE KEY----- (or a public key or certificate to verify)."
    case .wrongKeyType(let found):
      return "The key is a \(found) key; the RSA signature methods need an RSA key."
    case .invalidPKCS12(let reason):
      // OpenSSL 3 says "unsupported" for the RC2 and 3DES of old tools, which only its legacy provider decrypts.
      let advice =
        reason.contains("unsupported")
        ? "It was made with a cipher this OpenSSL no longer decrypts (RC2 or 3DES): re-encrypt it with `openssl pkcs12 -legacy -in old.p12 -nodes | openssl pkcs12 -export -out new.p12`."
        : "Give the .p12 or .pfx file as it was issued, or a PEM private key."
      return "The PKCS#12 file could not be read: \(reason). \(advice)"
    case .wrongKeyPassword:
      return "The password does not open the PKCS#12 file. Check the password the key was issued with (it is not shown here)."
    case .externalSigner(let problem):
      return "The external signer could not sign: \(problem)."
    case .externalSignerNeedsAwait:
      return
        "This signer's signature comes from an external signer, which must be awaited: use `try await signer.sign(request)` (OAuthRequestBehavior does)."
    case .noPrivateKeyInPKCS12:
      return
        "The PKCS#12 file holds certificates but no private key. Export it with its key (`openssl pkcs12 -export -inkey key.pem -in cert.pem -out key.p12`), or give the PEM private key."
    case .malformedAuthorizationHeader(let reason):
      return "The Authorization header is not a valid OAuth header: \(reason). Expected: OAuth realm=\"...\", oauth_consumer_key=\"...\", ..."
    case .cryptoFailure(let operation, let reason):
      return "OpenSSL failed during \(operation): \(reason)."
    case .requestTooLarge(let bytes, let limit):
      return
        "The query and form body hold \(bytes) bytes; at most \(limit) can be signed. Send large data as a non-form body (covered by oauth_body_hash) instead."
    }
  }
}
