import Foundation
import NetworkClient
import OAuth1

/// Who is calling, once authenticated.
struct SandboxCaller: Sendable {
  /// OAuth 1.0a user context, an app-only bearer token, or an OAuth 2.0 user access token.
  enum Kind: Sendable { case oauth1, bearer, oauth2 }
  let kind: Kind
  /// The user of an OAuth 1.0a or OAuth 2.0 access token; `nil` for app-only (bearer) calls.
  let userID: String?
  /// `oauth_callback`, on `/oauth/request_token`.
  var callback: String? = nil
  /// The scopes an OAuth 2.0 user access token carries; `nil` for the other kinds.
  var scopes: [String]? = nil

  /// Whose rate-limit window a request counts against.
  var identity: String { kind == .bearer ? "app" : "user:\(userID ?? "")" }
}

/// How a request proves who it is: an app-only or OAuth 2.0 bearer token, or an OAuth 1.0a
/// signature checked by ``OAuthVerifier``, with X's answers to each way it can fail.
extension XSandbox {
  enum Authentication {
    case caller(SandboxCaller)
    case denied(SandboxResponse)
  }

  /// How a refusal is worded: X's answers differ by cause and by API.
  enum Refusal { case missing, signature, token, timestamp, verifier }

  func deny(_ family: SandboxFamily, reason: String, _ refusal: Refusal) -> Authentication {
    state.withLock { $0.reject(reason) }
    switch refusal {
    case .timestamp: return .denied(.v1(401, XBodies.timestampOutOfBounds))
    case .verifier: return .denied(.text(401, XBodies.verifierError))
    default: break
    }
    if family == .v2 { return .denied(.v2(401, XBodies.unauthorized)) }
    switch refusal {
    case .missing: return .denied(.v1(400, XBodies.badAuthentication))
    case .token: return .denied(.v1(401, XBodies.invalidToken))
    default: return .denied(.v1(401, XBodies.couldNotAuthenticate))
    }
  }

  /// A bearer token, or an OAuth 1.0a signature checked by ``OAuthVerifier`` plus what the
  /// OAuth endpoints need (a callback; the right PIN, once).
  func authenticate(_ request: HTTPRequest, url: SandboxURL, family: SandboxFamily, trace: inout Trace) async -> Authentication {
    let header = request.headers["Authorization"]
    let trimmed = (header ?? "").trimmingCharacters(in: .whitespaces)
    let scheme = trimmed.prefix { !$0.isWhitespace }.lowercased()
    if scheme == "bearer" && family != .oauth {
      trace.auth = "bearer"
      let token = trimmed.dropFirst(scheme.count).trimmingCharacters(in: .whitespaces)
      if token.hasPrefix("sbx2-at-") {
        trace.auth = "oauth2"
        let now = clock.secondsSince1970()
        switch state.withLock({ $0.oauth2.user(ofAccessToken: token, now: now) }) {
        case .failure(.expired): return deny(family, reason: "oauth2_token_expired", .token)
        case .failure: return deny(family, reason: "oauth2_token_invalid", .token)
        case .success(let grant):
          guard family == .v2 else {
            state.withLock { $0.reject("oauth2_on_v1") }
            return .denied(.v1(403, XBodies.v1Errors(220, "Your credentials do not allow access to this resource.")))
          }
          state.withLock { $0.control.oauth2 += 1 }
          return .caller(SandboxCaller(kind: .oauth2, userID: grant.userID, callback: nil, scopes: grant.scopes))
        }
      }
      guard token == Self.demoBearerToken else {
        return deny(family, reason: "bearer_invalid", .token)
      }
      state.withLock { $0.control.bearer += 1 }
      return .caller(SandboxCaller(kind: .bearer, userID: nil, callback: nil))
    }

    let contentType = request.headers["Content-Type"]
    var names = url.query.map(\.0)
    if mediaType(contentType) == "application/x-www-form-urlencoded", let body = request.body {
      names += SandboxURL.pairs(String(decoding: body, as: UTF8.self)).map(\.0)
    }
    guard scheme == "oauth" || names.contains(where: { $0.hasPrefix("oauth_") }) else {
      return deny(family, reason: "missing_auth", .missing)
    }
    trace.auth = "oauth1"

    let lookup = SandboxCredentialLookup(
      state: state, consumer: Self.demoConsumer, tokens: url.path == "/oauth/access_token" ? .request : .access)
    let verifier = OAuthVerifier(credentials: lookup, nonceStore: nonceStore, options: verifierOptions)
    let oauthRequest = OAuthRequest(method: request.method.rawValue, url: request.url.absoluteString, body: request.body, contentType: contentType)
    let verified: VerifiedRequest
    do {
      verified = try await verifier.verify(oauthRequest, authorization: header)
      trace.verdict = "verified"
    } catch {
      trace.verdict = error.problem.rawValue
      switch error.problem {
      case .timestampRefused: return deny(family, reason: error.problem.rawValue, .timestamp)
      case .tokenRejected: return deny(family, reason: error.problem.rawValue, .token)
      default: return deny(family, reason: error.problem.rawValue, .signature)
      }
    }

    var userID = SandboxData.mainUserID
    switch family {
    case .oauth where url.path == "/oauth/request_token":
      guard let callback = verified.callback, !callback.isEmpty else { return deny(family, reason: "missing_callback", .signature) }
    case .oauth:
      let exchanged = state.withLock { state -> Bool in
        guard let token = verified.token, let pending = state.requestTokens[token], pending.verifier == verified.verifier else { return false }
        state.requestTokens[token] = nil  // single use
        return true
      }
      guard exchanged else { return deny(family, reason: "bad_verifier", .verifier) }
    case .v1, .v2:
      guard let token = verified.token, let owner = state.withLock({ $0.accessToken(token) }) else {
        return deny(family, reason: "missing_token", .token)
      }
      if state.withLock({ $0.control.revoked.contains(token) }) { return deny(family, reason: "token_revoked", .token) }
      userID = owner.userID
    }
    state.withLock { $0.verified += 1 }
    return .caller(SandboxCaller(kind: .oauth1, userID: userID, callback: verified.callback))
  }
}
