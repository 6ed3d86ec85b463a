import Foundation
import PercentEncoding

/// One authorization-code login (RFC 6749 section 4.1 with PKCE): the URL to send the user to,
/// and what checks the redirect that comes back. Keep it until the redirect arrives: it holds
/// the `state` to compare and the PKCE verifier to exchange the code with.
///
/// ```swift
/// let login = try AuthorizationRequest(client: client, redirectURI: "http://127.0.0.1:8976/callback", scopes: ["tweet.read", "users.read", "offline.access"])
/// print("Open", login.url)
/// let code = try login.code(fromRedirect: redirectedURL)   // throws .stateMismatch for a forged one
/// let token = try await TokenEndpoint(client: client).exchange(code: code, for: login)
/// ```
public struct AuthorizationRequest: Sendable, CustomStringConvertible {
  /// The client that asks.
  public let client: OAuth2Client
  /// Where the provider sends the user back, exactly as registered.
  public let redirectURI: String
  /// The scopes asked for.
  public let scopes: [String]
  /// A random value the redirect must carry back (RFC 6749 section 10.12: it ties the
  /// redirect to this login, against cross-site request forgery).
  public let state: String
  /// The PKCE pair: the challenge goes in the URL, the verifier with the code exchange.
  public let pkce: PKCE

  /// A login with a fresh `state` and PKCE verifier, unless given. Throws
  /// ``OAuth2Error/cryptoFailure(operation:reason:)`` if a fresh verifier's challenge cannot be
  /// computed.
  public init(client: OAuth2Client, redirectURI: String, scopes: [String], state: String? = nil, pkce: PKCE? = nil) throws(OAuth2Error) {
    self.client = client
    self.redirectURI = redirectURI
    self.scopes = scopes
    var generator = SystemRandomNumberGenerator()
    self.state = state ?? String((0..<32).map { _ in PKCE.alphabet.dropLast(4).randomElement(using: &generator)! })
    if let pkce { self.pkce = pkce } else { self.pkce = try PKCE() }
  }

  /// The authorize URL: `response_type=code`, `client_id`, `redirect_uri`, `scope` (separated
  /// by spaces), `state`, `code_challenge`, `code_challenge_method=S256`.
  public var url: URL {
    let pairs = [
      ("response_type", "code"), ("client_id", client.clientID), ("redirect_uri", redirectURI), ("scope", scopes.joined(separator: " ")),
      ("state", state), ("code_challenge", pkce.challenge), ("code_challenge_method", pkce.method),
    ]
    let query = pairs.map { PercentEncoding.encode($0.0) + "=" + PercentEncoding.encode($0.1) }.joined(separator: "&")
    let base = client.authorizeURL.absoluteString
    return URL(string: base + (base.contains("?") ? "&" : "?") + query)!
  }

  /// The authorization code the redirect carries, once its `state` is checked: the redirected
  /// URL as the browser received it (the loopback receiver's request target will do).
  public func code(fromRedirect redirect: String) throws(OAuth2Error) -> String {
    let query = redirect.split(separator: "?", maxSplits: 1).dropFirst().first.map { $0.split(separator: "#").first ?? "" } ?? ""
    var fields: [String: String] = [:]
    for pair in PercentEncoding.decodeForm(query) where fields[pair.name] == nil { fields[pair.name] = pair.value }
    guard fields["state"] == state else { throw .stateMismatch }
    if let error = fields["error"] {
      let text = fields["error_description"] ?? error
      throw error == "access_denied" ? .accessDenied(text) : .other(code: error, status: 0, description: text)
    }
    guard let code = fields["code"], !code.isEmpty else { throw .missingCode("the redirect had neither code nor error") }
    return code
  }

  /// Hides the verifier.
  public var description: String {
    "AuthorizationRequest(client: \(client.clientID), redirectURI: \(redirectURI), scopes: \(scopes))"
  }
}
