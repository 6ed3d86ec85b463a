import Foundation

/// What the sandbox's OAuth 2.0 side remembers: authorization codes waiting for their exchange,
/// live access and refresh tokens, spent refresh tokens, the pair each OAuth 1.0a token was last
/// exchanged for, and counts for tests. Part of ``SandboxState``.
struct SandboxOAuth2State: Sendable {
  /// A token's owner, scopes and end.
  struct Grant: Sendable {
    let userID: String
    let scopes: [String]
    let expiresAt: Int64
  }

  /// A code the authorize page issued, redeemable once, for 30 s, with its PKCE challenge.
  struct PendingCode: Sendable {
    let clientID: String
    let redirectURI: String
    let challenge: String
    let scopes: [String]
    let expiresAt: Int64
  }

  var codes: [String: PendingCode] = [:]
  var accessTokens: [String: Grant] = [:]
  var refreshTokens: [String: Grant] = [:]
  /// Refresh tokens used once (single-use, as X's) or invalidated by a later exchange.
  var spent: Set<String> = []
  /// The (access, refresh) pair each OAuth 1.0a access token was last exchanged for: a new
  /// exchange invalidates it.
  var exchanged: [String: (access: String, refresh: String?)] = [:]
  /// Counts for tests: grants by type, spent refresh tokens presented, revocations.
  var counts: [String: Int] = [:]

  /// Issues a pair: an access token living `lifetime` seconds, and a refresh token when the
  /// scopes include `offline.access`.
  mutating func issue(userID: String, scopes: [String], lifetime: Int64, now: Int64) -> (access: String, refresh: String?) {
    let access = "sbx2-at-" + SandboxTokens.randomString(length: 40)
    accessTokens[access] = Grant(userID: userID, scopes: scopes, expiresAt: now + lifetime)
    guard scopes.contains("offline.access") else { return (access, nil) }
    let refresh = "sbx2-rt-" + SandboxTokens.randomString(length: 40)
    refreshTokens[refresh] = Grant(userID: userID, scopes: scopes, expiresAt: now + 180 * 86_400)
    return (access, refresh)
  }

  /// The user of a live access token, or why it is refused.
  func user(ofAccessToken token: String, now: Int64) -> Result<Grant, Refusal> {
    guard let grant = accessTokens[token] else { return .failure(.unknown) }
    return grant.expiresAt > now ? .success(grant) : .failure(.expired)
  }

  /// Why a bearer token is refused.
  enum Refusal: Error { case unknown, expired }
}
