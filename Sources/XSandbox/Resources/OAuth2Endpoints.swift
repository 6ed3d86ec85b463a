import Foundation
import NetworkClient
import OAuth1
import OAuth2
import PercentEncoding

/// X's OAuth 2.0 endpoints, as `fundamentals/authentication/oauth-2-0/authorization-code.mdx`,
/// `user-access-token.mdx` and `oauth-1-0a-token-exchange.mdx` describe them: the authorize page
/// (which consents at once, as @sandbox_user, and redirects with the code), the token endpoint
/// (authorization code with PKCE S256, refresh tokens that are single-use, the exchange of an
/// OAuth 1.0a token, which invalidates the pair issued before) and revoke.
extension XSandbox {
  /// The demo OAuth 2.0 client: `sandbox-client-id`, secret `sandbox-client-secret` (a
  /// confidential client sends both with Basic; a public one sends the id in the body).
  ///
  /// ```swift
  /// let client = OAuth2Client.x(clientID: XSandbox.demoOAuth2Client.key, apiBaseURL: sandboxURL, authorizeURL: sandboxURL.appendingPathComponent("i/oauth2/authorize"))
  /// ```
  package static let demoOAuth2Client = Credentials(key: "sandbox-client-id", secret: "sandbox-client-secret")

  /// The scopes the sandbox knows, X's names.
  static let oauth2Scopes: Set = [
    "tweet.read", "tweet.write", "tweet.moderate.write", "users.read", "follows.read", "follows.write", "offline.access", "space.read",
    "mute.read", "mute.write", "like.read", "like.write", "list.read", "list.write", "block.read", "block.write", "bookmark.read",
    "bookmark.write", "media.write", "dm.read", "dm.write", "timeline.read", "broadcast.read", "broadcast.write", "users.email",
  ]

  /// What the exchange of a 1.0a token of a "Read and write" app grants, as X's permission
  /// mapping says (`oauth-1-0a-token-exchange.mdx`): never more, so no bookmarks, spaces or DMs.
  static let exchangedScopes = [
    "tweet.read", "users.read", "follows.read", "mute.read", "block.read", "list.read", "like.read", "timeline.read", "broadcast.read",
    "tweet.write", "tweet.moderate.write", "follows.write", "like.write", "list.write", "mute.write", "block.write", "media.write",
    "broadcast.write", "offline.access",
  ]

  /// The OAuth 2.0 endpoints' paths, answered before any OAuth 1.0a check.
  static func isOAuth2Path(_ path: String) -> Bool {
    path == "/i/oauth2/authorize" || path == "/2/oauth2/token" || path == "/2/oauth2/revoke" || path == "/oauth2/token"
  }

  func oauth2(_ request: HTTPRequest, path: String, now: Int64) -> SandboxResponse {
    switch path {
    case "/i/oauth2/authorize": return authorize(SandboxURL.pairs(request.url.query ?? "").firstValues, now: now)
    case "/2/oauth2/token": return tokenEndpoint(request, now: now)
    case "/oauth2/token": return appOnlyToken(request)
    default: return revoke(request)
    }
  }

  // MARK: - Authorize

  private func authorize(_ query: [String: String], now: Int64) -> SandboxResponse {
    func refuse(_ why: String) -> SandboxResponse {
      .html(400, "<!DOCTYPE html><html><body><h1>Something went wrong</h1><p>\(Self.escapeHTML(why))</p></body></html>\n")
    }
    guard query["response_type"] == "code" else { return refuse("response_type must be code") }
    guard query["client_id"] == Self.demoOAuth2Client.key else { return refuse("unknown client_id; the sandbox's is \(Self.demoOAuth2Client.key)") }
    guard let redirect = query["redirect_uri"], let target = URL(string: redirect), ["127.0.0.1", "localhost"].contains(target.host ?? "") else {
      return refuse("redirect_uri must be a loopback URL registered for the app (http://127.0.0.1:PORT/callback)")
    }
    guard query["code_challenge_method"] == "S256", let challenge = query["code_challenge"], challenge.count == 43 else {
      return refuse("PKCE is required: code_challenge (43 characters) with code_challenge_method=S256")
    }
    guard let returned = query["state"], !returned.isEmpty else { return refuse("state is required") }
    let scopes = (query["scope"] ?? "").split(separator: " ").map(String.init)
    guard !scopes.isEmpty, scopes.allSatisfy(Self.oauth2Scopes.contains) else { return refuse("scope must name X's scopes, separated by spaces") }
    let code = SandboxTokens.randomString(length: 40)
    state.withLock {
      $0.oauth2.codes[code] = .init(
        clientID: Self.demoOAuth2Client.key, redirectURI: redirect, challenge: challenge, scopes: scopes, expiresAt: now + 30)
    }
    let location = redirect + (redirect.contains("?") ? "&" : "?") + "state=" + PercentEncoding.encode(returned) + "&code=" + code
    return SandboxResponse(status: 302, contentType: "text/html; charset=utf-8", body: Data(), headers: [("Location", location)])
  }

  // MARK: - App-only bearer token

  /// `POST /oauth2/token` with `grant_type=client_credentials`, authenticated with Basic
  /// `consumer key:consumer secret` (each form-encoded first): the app's bearer token
  /// (`fundamentals/authentication/oauth-2-0/bearer-tokens.mdx`). Bad credentials get X's v1.1
  /// error 99, a 403.
  private func appOnlyToken(_ request: HTTPRequest) -> SandboxResponse {
    guard request.method == .post else { return .html(404, XBodies.notFoundPage) }
    let form = SandboxURL.pairs(String(decoding: request.body ?? Data(), as: UTF8.self)).firstValues
    guard form["grant_type"] == "client_credentials" else {
      return SandboxResponse(
        status: 403, contentType: "application/json",
        body: Data(#"{"errors":[{"code":170,"message":"Missing required parameter: grant_type","label":"forbidden_missing_parameter"}]}"#.utf8))
    }
    let basic = "Basic " + Data((Self.demoConsumer.key + ":" + Self.demoConsumer.secret).utf8).base64EncodedString()
    guard request.headers["Authorization"] == basic else {
      return SandboxResponse(
        status: 403, contentType: "application/json",
        body: Data(#"{"errors":[{"code":99,"message":"Unable to verify your credentials","label":"authenticity_token_error"}]}"#.utf8))
    }
    state.withLock { $0.oauth2.counts["client_credentials", default: 0] += 1 }
    return SandboxResponse(
      status: 200, contentType: "application/json",
      body: Data(#"{"token_type":"bearer","access_token":"\#(Self.demoBearerToken)"}"#.utf8))
  }

  // MARK: - Token

  private static func oauth2Error(_ status: Int, _ code: String, _ description: String) -> SandboxResponse {
    .v2(status, .object([("error", .string(code)), ("error_description", .string(description))]))
  }

  /// The client a request authenticates as: Basic with id and secret, or the id in the body.
  private func authenticatedClient(_ request: HTTPRequest, form: [String: String]) -> Bool {
    if let header = request.headers["Authorization"], header.lowercased().hasPrefix("basic ") {
      let encoded = header.dropFirst(6).trimmingCharacters(in: .whitespaces)
      let decoded = Data(base64Encoded: encoded).map { String(decoding: $0, as: UTF8.self) }
      return decoded == Self.demoOAuth2Client.key + ":" + Self.demoOAuth2Client.secret
    }
    return form["client_id"] == Self.demoOAuth2Client.key
  }

  private func tokenEndpoint(_ request: HTTPRequest, now: Int64) -> SandboxResponse {
    guard (request.headers["Content-Type"] ?? "").lowercased().hasPrefix("application/x-www-form-urlencoded") else {
      return Self.oauth2Error(400, "invalid_request", "The token endpoint takes a form (application/x-www-form-urlencoded).")
    }
    let form = SandboxURL.pairs(String(decoding: request.body ?? Data(), as: UTF8.self)).firstValues
    guard authenticatedClient(request, form: form) else { return Self.oauth2Error(401, "invalid_client", "Missing valid authorization header") }
    let lifetime = oauth2Lifetime
    return state.withLock { state -> SandboxResponse in
      state.oauth2.counts[form["grant_type"] ?? "none", default: 0] += 1
      switch form["grant_type"] {
      case "authorization_code":
        guard let code = form["code"], let pending = state.oauth2.codes.removeValue(forKey: code), pending.expiresAt > now else {
          return Self.oauth2Error(400, "invalid_request", "Value passed for the authorization code was invalid.")
        }
        guard form["redirect_uri"] == pending.redirectURI else {
          return Self.oauth2Error(400, "invalid_request", "Value passed for the redirect uri did not match the uri of the authorization code.")
        }
        guard let verifier = form["code_verifier"], (try? PKCE(verifier: verifier))?.challenge == pending.challenge else {
          return Self.oauth2Error(400, "invalid_request", "Value passed for the code verifier did not match the code challenge.")
        }
        return Self.tokenAnswer(
          state.oauth2.issue(userID: SandboxData.mainUserID, scopes: pending.scopes, lifetime: lifetime, now: now), pending.scopes, lifetime)
      case "refresh_token":
        guard let refresh = form["refresh_token"] else {
          return Self.oauth2Error(400, "invalid_request", "Missing required parameter [refresh_token].")
        }
        if state.oauth2.spent.contains(refresh) {
          state.oauth2.counts["spent_presented", default: 0] += 1
          // X is reported to answer a spent refresh token with invalid_request, not invalid_grant.
          return Self.oauth2Error(400, "invalid_request", "Value passed for the token was invalid.")
        }
        guard let grant = state.oauth2.spend(refreshToken: refresh, now: now) else {
          return Self.oauth2Error(400, "invalid_grant", "Value passed for the token was invalid.")
        }
        return Self.tokenAnswer(state.oauth2.issue(userID: grant.userID, scopes: grant.scopes, lifetime: lifetime, now: now), grant.scopes, lifetime)
      case "urn:ietf:params:oauth:grant-type:token-exchange":
        guard form["subject_token_type"] == "urn:x:params:oauth:token-type:oauth1_token", let subject = form["subject_token"],
          let secret = form["oauth_token_secret"]
        else {
          return Self.oauth2Error(
            400, "invalid_request",
            "subject_token, subject_token_type=urn:x:params:oauth:token-type:oauth1_token and oauth_token_secret are required.")
        }
        guard let owner = state.accessToken(subject), owner.secret == secret, !state.control.revoked.contains(subject) else {
          return Self.oauth2Error(400, "invalid_grant", "The OAuth 1.0a token or its secret is invalid or revoked.")
        }
        let scopes = form["scope"].map { $0.split(separator: " ").map(String.init) } ?? Self.exchangedScopes
        guard !scopes.isEmpty, scopes.allSatisfy(Self.exchangedScopes.contains) else {
          return Self.oauth2Error(400, "invalid_scope", "Requested scope exceeds what the permission mapping grants.")
        }
        if let previous = state.oauth2.exchanged[subject] {
          state.oauth2.accessTokens[previous.access] = nil
          state.oauth2.revoked.insert(previous.access)
          if let refresh = previous.refresh {
            state.oauth2.refreshTokens[refresh] = nil
            state.oauth2.spent.insert(refresh)
          }
        }
        let pair = state.oauth2.issue(userID: owner.userID, scopes: scopes, lifetime: lifetime, now: now)
        state.oauth2.exchanged[subject] = pair
        return Self.tokenAnswer(pair, scopes, lifetime)
      default:
        return Self.oauth2Error(400, "unsupported_grant_type", "grant_type must be authorization_code, refresh_token or the token exchange.")
      }
    }
  }

  private static func tokenAnswer(_ pair: (access: String, refresh: String?), _ scopes: [String], _ lifetime: Int64) -> SandboxResponse {
    var fields: [(String, JSON)] = [
      ("token_type", .string("bearer")), ("expires_in", .int(lifetime)), ("access_token", .string(pair.access)),
      ("scope", .string(scopes.joined(separator: " "))),
    ]
    if let refresh = pair.refresh { fields.append(("refresh_token", .string(refresh))) }
    return .v2(200, .object(fields))
  }

  // MARK: - Revoke

  private func revoke(_ request: HTTPRequest) -> SandboxResponse {
    let form = SandboxURL.pairs(String(decoding: request.body ?? Data(), as: UTF8.self)).firstValues
    guard authenticatedClient(request, form: form) else { return Self.oauth2Error(401, "invalid_client", "Missing valid authorization header") }
    let token = form["token"] ?? ""
    state.withLock { state in
      state.oauth2.counts["revoke", default: 0] += 1
      if token.hasPrefix("sbx2-at-") { state.oauth2.revoked.insert(token) }
      if token.hasPrefix("sbx2-rt-") { state.oauth2.spent.insert(token) }
      state.oauth2.accessTokens[token] = nil
      state.oauth2.refreshTokens[token] = nil
    }
    return .v2(200, .object([("revoked", .bool(true))]))
  }
}
