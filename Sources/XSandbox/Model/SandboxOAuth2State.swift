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
  /// The tokens this instance issued, with their scopes. Tokens are also recognized without
  /// these tables (their owner and expiry are in them, under a keyed tag), so a pair a
  /// `tweets --sandbox login --oauth2` saved works in the next `tweets --sandbox` process.
  var accessTokens: [String: Grant] = [:]
  var refreshTokens: [String: Grant] = [:]
  /// Access tokens revoked, or invalidated by a later exchange.
  var revoked: Set<String> = []
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
    let mask = String(Self.scopeMask(scopes), radix: 16)
    let access = SandboxTokens.signed("sbx2-at-\(userID)-\(now + lifetime)-\(mask)-" + SandboxTokens.randomString(length: 24))
    accessTokens[access] = Grant(userID: userID, scopes: scopes, expiresAt: now + lifetime)
    guard scopes.contains("offline.access") else { return (access, nil) }
    let refresh = SandboxTokens.signed("sbx2-rt-\(userID)-\(now + 180 * 86_400)-\(mask)-" + SandboxTokens.randomString(length: 24))
    refreshTokens[refresh] = Grant(userID: userID, scopes: scopes, expiresAt: now + 180 * 86_400)
    return (access, refresh)
  }

  /// The user of a live access token, or why it is refused.
  func user(ofAccessToken token: String, now: Int64) -> Result<Grant, Refusal> {
    guard !revoked.contains(token), let grant = accessTokens[token] ?? Self.grant(of: token, prefix: "sbx2-at-") else { return .failure(.unknown) }
    return grant.expiresAt > now ? .success(grant) : .failure(.expired)
  }

  /// A live refresh token's grant, taken out (it is single-use): `nil` for a spent, revoked or
  /// made-up one.
  mutating func spend(refreshToken token: String, now: Int64) -> Grant? {
    guard !spent.contains(token), let grant = refreshTokens.removeValue(forKey: token) ?? Self.grant(of: token, prefix: "sbx2-rt-"),
      grant.expiresAt > now
    else { return nil }
    spent.insert(token)
    return grant
  }

  /// The owner, expiry and scopes a token carries under its tag: what another sandbox (the
  /// next `tweets --sandbox` process) knows of a token this one issued. A token of the older
  /// form, without scopes, has those of X's exchange of OAuth 1.0a tokens.
  static func grant(of token: String, prefix: String) -> Grant? {
    guard token.hasPrefix(prefix), let body = SandboxTokens.verified(token) else { return nil }
    let parts = body.dropFirst(prefix.count).split(separator: "-")
    guard parts.count == 3 || parts.count == 4, SandboxData.usersByID[String(parts[0])] != nil, let expiresAt = Int64(parts[1]) else { return nil }
    let scopes = parts.count == 4 ? UInt64(parts[2], radix: 16).map(Self.scopes(ofMask:)) : XSandbox.exchangedScopes
    guard let scopes else { return nil }
    return Grant(userID: String(parts[0]), scopes: scopes, expiresAt: expiresAt)
  }

  /// Every scope a token can carry in its text: X's OAuth 2.0 scopes, in a fixed order.
  static let knownScopes = XSandbox.exchangedScopes + ["bookmark.read", "bookmark.write", "dm.read", "dm.write", "space.read"]

  /// The bits of `scopes` among ``knownScopes``.
  static func scopeMask(_ scopes: [String]) -> UInt64 {
    scopes.reduce(0) { mask, scope in knownScopes.firstIndex(of: scope).map { mask | 1 << UInt64($0) } ?? mask }
  }

  /// The scopes of a mask made by ``scopeMask(_:)``.
  static func scopes(ofMask mask: UInt64) -> [String] {
    knownScopes.enumerated().filter { mask & (1 << UInt64($0.offset)) != 0 }.map(\.element)
  }

  /// Why a bearer token is refused.
  enum Refusal: Error { case unknown, expired }
}
