import PercentEncoding

/// The `Authorization: OAuth ...` header (RFC 5849, section 3.5.1), the default and
/// recommended way to send the protocol parameters.
///
/// `realm`, when present, comes first, as an HTTP quoted-string (RFC 2617); then every
/// `oauth_*` parameter as `enc(name)="enc(value)"`, in the given order, separated by `", "`.
///
/// ```swift
/// OAuthAuthorizationHeader.make(
///   parameters: [OAuthParameter("oauth_consumer_key", "key"), OAuthParameter("oauth_signature", "a+b=")],
///   realm: "Example")
/// // OAuth realm="Example", oauth_consumer_key="key", oauth_signature="a%2Bb%3D"
/// ```
public enum OAuthAuthorizationHeader {
  /// Builds the header value.
  public static func make(parameters: [OAuthParameter], realm: String? = nil) -> String {
    // Encoded into the engine's scratch, then written by the signer's own writer.
    ScratchArena.with(EncodedPair.self) { bytes, pairs in
      for parameter in parameters { CanonicalParameters.append(decoded: parameter, &bytes, &pairs) }
      return AuthorizationHeaderWriter.make(quotedRealm: realm.map(quote), 0..<pairs.count, bytes, pairs)
    }
  }

  /// The content of a quoted-string: `"` and `\` are escaped with `\`; control characters,
  /// which a header may not carry (a CR or LF would start a new header), are
  /// percent-encoded.
  static func quote(_ realm: String) -> String {
    var quoted = ""
    for scalar in realm.unicodeScalars {
      switch scalar {
      case "\"", "\\":
        quoted.unicodeScalars.append("\\")
        quoted.unicodeScalars.append(scalar)
      case _ where scalar.value < 0x20 || scalar.value == 0x7F:
        quoted += PercentEncoding.encode(String(scalar))
      default:
        quoted.unicodeScalars.append(scalar)
      }
    }
    return quoted
  }
}
