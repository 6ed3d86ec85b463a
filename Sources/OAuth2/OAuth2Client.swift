import Foundation

/// An OAuth 2.0 client as a provider registered it: its id, its secret when it is a
/// confidential client, and the provider's endpoints. Any provider; ``x(clientID:clientSecret:apiBaseURL:authorizeURL:)``
/// fills in X's.
///
/// A confidential client authenticates to the token and revoke endpoints with
/// `Authorization: Basic base64(client_id:client_secret)`; a public client sends `client_id` in
/// the body (X: `fundamentals/authentication/oauth-2-0/user-access-token.mdx`). `description`
/// hides the secret.
///
/// ```swift
/// let client = OAuth2Client.x(clientID: "M1M5R3BMVy13QmpScXkzTUt5OE46MTpjaQ", clientSecret: nil)
/// ```
public struct OAuth2Client: Sendable, CustomStringConvertible {
  /// The client id the provider issued.
  public var clientID: String
  /// The client secret, for a confidential client; `nil` for a public one (a command-line tool,
  /// a mobile app).
  public var clientSecret: String?
  /// Where the user approves the app (`response_type=code`).
  public var authorizeURL: URL
  /// Where codes, refresh tokens and other grants become tokens.
  public var tokenURL: URL
  /// Where tokens are revoked (RFC 7009), if the provider has such an endpoint.
  public var revokeURL: URL?

  /// A client of any provider.
  public init(clientID: String, clientSecret: String? = nil, authorizeURL: URL, tokenURL: URL, revokeURL: URL? = nil) {
    self.clientID = clientID
    self.clientSecret = clientSecret
    self.authorizeURL = authorizeURL
    self.tokenURL = tokenURL
    self.revokeURL = revokeURL
  }

  /// X's endpoints: authorize at `https://x.com/i/oauth2/authorize`, tokens at
  /// `https://api.x.com/2/oauth2/token`, revoke at `https://api.x.com/2/oauth2/revoke`
  /// (`fundamentals/authentication/oauth-2-0/authorization-code.mdx`). `apiBaseURL` moves the
  /// token and revoke endpoints (a sandbox on loopback), `authorizeURL` the authorize page.
  public static func x(
    clientID: String, clientSecret: String? = nil, apiBaseURL: URL = URL(string: "https://api.x.com")!,
    authorizeURL: URL = URL(string: "https://x.com/i/oauth2/authorize")!
  ) -> OAuth2Client {
    OAuth2Client(
      clientID: clientID, clientSecret: clientSecret, authorizeURL: authorizeURL,
      tokenURL: apiBaseURL.appendingPathComponent("2/oauth2/token"), revokeURL: apiBaseURL.appendingPathComponent("2/oauth2/revoke"))
  }

  /// X's app-only client: the app's consumer key and secret (its "API key" and "API key
  /// secret") as client id and secret, and the token endpoint `https://api.x.com/oauth2/token`
  /// (not under `/2/`), where ``TokenEndpoint/clientCredentials()`` gets the app's bearer token
  /// (`fundamentals/authentication/oauth-2-0/bearer-tokens.mdx`). It has no authorize page: the
  /// app authorizes itself.
  ///
  /// ```swift
  /// let bearer = try await TokenEndpoint(client: .xAppOnly(consumerKey: key, consumerSecret: secret)).clientCredentials()
  /// ```
  public static func xAppOnly(consumerKey: String, consumerSecret: String, apiBaseURL: URL = URL(string: "https://api.x.com")!) -> OAuth2Client {
    OAuth2Client(
      clientID: consumerKey, clientSecret: consumerSecret, authorizeURL: apiBaseURL, tokenURL: apiBaseURL.appendingPathComponent("oauth2/token"))
  }

  /// Whether it has a secret to authenticate with.
  public var isConfidential: Bool { clientSecret != nil }

  /// The client, its secret hidden.
  public var description: String {
    "OAuth2Client(clientID: \(clientID), clientSecret: \(clientSecret == nil ? "none (public client)" : "<redacted>"), tokenURL: \(tokenURL))"
  }
}
