import Foundation
import NetworkClient
import PercentEncoding

/// A provider's token and revoke endpoints (RFC 6749 section 4.1.3 and 6, RFC 7009, RFC 8693):
/// turns an authorization code, a refresh token or an OAuth 1.0a token into an access token,
/// and revokes tokens. It is a `BearerTokenRefresher`, so a `RefreshingBearerBehavior` can
/// renew through it.
///
/// Each answer is checked: a token response without `access_token` is an error, and an error
/// answer is the ``OAuth2Error`` its `error` names. It never retries: a refresh token is
/// single-use at X, and presenting a spent one again would fail anyway. It follows no redirect
/// (``OAuth2Error/redirected(status:location:)``): its bodies carry codes and their verifiers,
/// refresh tokens, 1.0a token secrets and tokens to revoke, and a `Location` is the server's
/// choice of where those would go.
///
/// ```swift
/// let endpoint = TokenEndpoint(client: .x(clientID: "…"))
/// let token = try await endpoint.exchange(code: code, for: login)
/// let renewed = try await endpoint.refresh(token)
/// ```
public struct TokenEndpoint: BearerTokenRefresher, Sendable {
  /// The client it authenticates as.
  public let client: OAuth2Client
  private let transport: any HTTPTransport
  private let now: @Sendable () -> Date

  /// The token endpoint of `client`, sending through `transport` (URLSession by default).
  public init(client: OAuth2Client, transport: any HTTPTransport = DefaultTransport(), now: @escaping @Sendable () -> Date = Date.init) {
    self.client = client
    self.transport = transport
    self.now = now
  }

  /// `grant_type=authorization_code`: the code the redirect carried, with the redirect URI and
  /// the PKCE verifier of the same login.
  public func exchange(code: String, for login: AuthorizationRequest) async throws(OAuth2Error) -> BearerToken {
    try await token([
      ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", login.redirectURI), ("code_verifier", login.pkce.verifier),
    ])
  }

  /// `grant_type=refresh_token`: a new access token and, at X, a new refresh token (the one
  /// given is spent). Throws ``OAuth2Error/invalidConfiguration(_:)`` for a token without one.
  public func refresh(_ token: BearerToken) async throws -> BearerToken {
    try await renew(token)
  }

  /// ``refresh(_:)`` with its error typed.
  public func renew(_ token: BearerToken) async throws(OAuth2Error) -> BearerToken {
    guard let refreshToken = token.refreshToken else {
      throw .invalidConfiguration("this token has no refresh token (ask for the offline.access scope); log in again")
    }
    var renewed = try await self.token([("grant_type", "refresh_token"), ("refresh_token", refreshToken)])
    if renewed.refreshToken == nil { renewed.refreshToken = refreshToken }
    return renewed
  }

  /// X's exchange of an OAuth 1.0a access token for OAuth 2.0 tokens of the same user, with no
  /// consent screen (RFC 8693 token exchange;
  /// `fundamentals/authentication/oauth-2-0/oauth-1-0a-token-exchange.mdx`). Each exchange
  /// invalidates the pair the previous one issued; the 1.0a token stays valid. `scopes`, when
  /// given, asks for a subset.
  public func exchangeOAuth1(token: String, secret: String, scopes: [String]? = nil) async throws(OAuth2Error) -> BearerToken {
    var form = [
      ("grant_type", "urn:ietf:params:oauth:grant-type:token-exchange"), ("subject_token", token),
      ("subject_token_type", "urn:x:params:oauth:token-type:oauth1_token"), ("oauth_token_secret", secret),
    ]
    if let scopes { form.append(("scope", scopes.joined(separator: " "))) }
    return try await self.token(form)
  }

  /// `grant_type=client_credentials` (RFC 6749 section 4.4): a token for the app itself, with
  /// no user, for the endpoints a provider serves app-only. X's app-only bearer token comes
  /// from ``OAuth2Client/xAppOnly(consumerKey:consumerSecret:apiBaseURL:)`` this way
  /// (`fundamentals/authentication/oauth-2-0/bearer-tokens.mdx`); it does not expire, and has no
  /// refresh token.
  ///
  /// ```swift
  /// let app = TokenEndpoint(client: .xAppOnly(consumerKey: key, consumerSecret: secret))
  /// let bearer = try await app.clientCredentials().accessToken
  /// ```
  public func clientCredentials() async throws(OAuth2Error) -> BearerToken {
    guard client.isConfidential else {
      throw .invalidConfiguration("the client credentials grant needs the client's secret (the app's consumer secret at X)")
    }
    return try await token([("grant_type", "client_credentials")])
  }

  /// Revokes `token` (an access or a refresh token) at the revoke endpoint (RFC 7009).
  public func revoke(_ token: String, hint: String? = nil) async throws(OAuth2Error) {
    guard let revokeURL = client.revokeURL else { throw .invalidConfiguration("this provider has no revoke endpoint") }
    var form = [("token", token)]
    if let hint { form.append(("token_type_hint", hint)) }
    _ = try await post(form, to: revokeURL)
  }

  /// A token grant: the form, client authentication, and the token response read.
  private func token(_ form: [(String, String)]) async throws(OAuth2Error) -> BearerToken {
    let issued = now()
    let response = try await post(form, to: client.tokenURL)
    struct Answer: Decodable {
      let access_token: String?
      let refresh_token: String?
      let expires_in: Double?
      let scope: String?
      let token_type: String?
    }
    guard let answer = try? JSONDecoder().decode(Answer.self, from: response.body), let access = answer.access_token, !access.isEmpty else {
      throw .unexpectedResponse(status: response.statusCode, excerpt: "no access_token in the answer")
    }
    // A token goes into an Authorization header as it is: it may hold only visible ASCII, never a
    // space, a line break or another control character (X's own bearer tokens hold %-escapes,
    // which RFC 6750's b64token does not allow, so that stricter rule would refuse X).
    for (name, value) in [("access_token", access), ("refresh_token", answer.refresh_token ?? "x")] where !Self.isHeaderToken(value) {
      throw .unexpectedResponse(
        status: response.statusCode, excerpt: "the \(name) holds a space, a line break or a character outside visible ASCII: refused")
    }
    if let type = answer.token_type, type.lowercased() != "bearer" {
      throw .unexpectedResponse(status: response.statusCode, excerpt: "token_type \(type), not bearer")
    }
    return BearerToken(
      accessToken: access, refreshToken: answer.refresh_token, expiresIn: answer.expires_in,
      scopes: (answer.scope ?? "").split(separator: " ").map(String.init), issuedAt: issued)
  }

  /// Whether `token` can stand in an `Authorization: Bearer` header as it is: one or more
  /// visible ASCII characters (0x21 to 0x7E).
  static func isHeaderToken(_ token: String) -> Bool {
    !token.isEmpty && token.utf8.allSatisfy { (0x21...0x7E).contains($0) }
  }

  /// POSTs `form` with the client's authentication: Basic for a confidential client,
  /// `client_id` in the body for a public one.
  private func post(_ form: [(String, String)], to url: URL) async throws(OAuth2Error) -> HTTPResponse {
    var form = form
    var headers: HTTPHeaders = ["Accept": "application/json"]
    if let secret = client.clientSecret {
      let pair = Self.formEncode(client.clientID) + ":" + Self.formEncode(secret)
      headers["Authorization"] = "Basic " + Data(pair.utf8).base64EncodedString()
    } else {
      form.append(("client_id", client.clientID))
    }
    let http = NetworkClient(configuration: RequestConfiguration(baseURL: url, transport: transport, redirects: .refuse))
    do {
      return try await http.send(Request<HTTPResponse>(method: .post, path: "", headers: headers, body: .form(form), isIdempotent: false))
    } catch {
      switch error {
      case .httpStatus(let failure):
        throw OAuth2Error.fromResponse(status: failure.statusCode, body: failure.body, retryAfter: failure.retryAfter)
      case .redirect(let failure):
        throw .redirected(status: failure.statusCode, location: failure.location)
      default:
        throw .transport(error.description)
      }
    }
  }

  /// RFC 6749 section 2.3.1: the client id and secret are encoded before Basic
  /// authentication joins them with a colon.
  static func formEncode(_ text: String) -> String {
    PercentEncoding.encode(text)
  }
}
