/// A key and its shared secret: the consumer (client) credentials, or the token
/// credentials obtained through the three-legged flow.
///
/// `description` never shows the secret, so credentials can be logged safely. Token
/// credentials with an empty key send no `oauth_token` while their secret still signs, as
/// oauthlib's client does with a resource-owner secret and no key.
///
/// ```swift
/// let consumer = Credentials(key: "xvz1evFS4wEEPTGEFPHBog", secret: "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw")
/// print(consumer)  // Credentials(key: "xvz1evFS4wEEPTGEFPHBog", secret: <redacted>)
/// ```
public struct Credentials: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
  /// The public identifier, sent in clear: as `oauth_consumer_key` for consumer credentials, as `oauth_token` for token
  /// credentials (an empty token key sends no `oauth_token`).
  public var key: String
  /// The shared secret, which goes into the HMAC and PLAINTEXT signing key `enc(consumer secret)&enc(token secret)` and is
  /// sent only as a PLAINTEXT signature; `description` shows it as `<redacted>`. The RSA methods do not use it.
  public var secret: String

  /// Creates credentials from the key and secret a provider issued (for example an app's API key and secret, or an access token
  /// and its secret).
  public init(key: String, secret: String) {
    self.key = key
    self.secret = secret
  }

  public var description: String { "Credentials(key: \"\(key)\", secret: <redacted>)" }
  public var debugDescription: String { description }
}
