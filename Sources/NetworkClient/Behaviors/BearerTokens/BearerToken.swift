import Foundation

/// An OAuth 2.0 access token and what renews it: the refresh token, and when it expires.
///
/// Its `description` hides both tokens, so it can be logged or put in an error.
///
/// ```swift
/// let token = BearerToken(accessToken: "AAAA…", refreshToken: "RRRR…", expiresIn: 7200)
/// token.expiresAt  // two hours from now
/// ```
public struct BearerToken: Sendable, Equatable, Codable, CustomStringConvertible {
  /// What `Authorization: Bearer` carries.
  public var accessToken: String
  /// What renews it, when the provider issued one (X: with the `offline.access` scope; each is
  /// single-use, so the one a refresh returns replaces it).
  public var refreshToken: String?
  /// When the access token stops working; `nil` when the provider did not say.
  public var expiresAt: Date?
  /// How long it was issued for (`expires_in`), which sets the default refresh margin.
  public var lifetime: TimeInterval?
  /// The scopes granted, as the provider named them.
  public var scopes: [String]

  /// A token issued `issuedAt` that lives `expiresIn` seconds (`expires_in`), if the provider
  /// said.
  public init(
    accessToken: String, refreshToken: String? = nil, expiresIn: TimeInterval? = nil, scopes: [String] = [], issuedAt: Date = Date()
  ) {
    self.accessToken = accessToken
    self.refreshToken = refreshToken
    self.lifetime = expiresIn
    self.expiresAt = expiresIn.map { issuedAt.addingTimeInterval($0) }
    self.scopes = scopes
  }

  /// Whether it expires within `margin` of `now` (never, when its expiry is unknown: then
  /// only a 401 tells).
  public func expires(within margin: TimeInterval, of now: Date) -> Bool {
    guard let expiresAt else { return false }
    return expiresAt.timeIntervalSince(now) <= margin
  }

  /// The token with both secrets hidden.
  public var description: String {
    "BearerToken(accessToken: <redacted>, refreshToken: \(refreshToken == nil ? "none" : "<redacted>"), expiresAt: \(expiresAt.map { "\($0)" } ?? "unknown"), scopes: \(scopes))"
  }
}

/// Renews an access token: what ``RefreshingBearerBehavior`` calls when its token is about to
/// expire or was refused. An OAuth 2.0 client implements it with its token endpoint
/// (`grant_type=refresh_token`); any provider can.
///
/// ```swift
/// struct MyRefresher: BearerTokenRefresher {
///   func refresh(_ token: BearerToken) async throws -> BearerToken { try await tokenEndpoint.refresh(token) }
/// }
/// ```
public protocol BearerTokenRefresher: Sendable {
  /// A new token for `token` (the one stored now). Throw when it cannot be renewed: the request
  /// that needed it fails with that error, and nothing is stored.
  func refresh(_ token: BearerToken) async throws -> BearerToken
}

/// Where a token lives between requests and between processes. ``RefreshingBearerBehavior``
/// reads it, and renews it only through ``update(_:)``, so that a store shared by several
/// processes (a file) can lock, read what another process stored, and save the new token
/// before anyone uses it: a single-use refresh token is never spent twice.
///
/// ```swift
/// let store = InMemoryBearerTokenStore(BearerToken(accessToken: "…", refreshToken: "…", expiresIn: 7200))
/// ```
public protocol BearerTokenStore: Sendable {
  /// The token stored now.
  func load() async throws -> BearerToken

  /// Runs `renew` on the token stored now, with no other renewal of this store under way (in
  /// this process, and across processes where the store can lock), stores what it returns, and
  /// returns it. Nothing is stored when `renew` throws.
  func update(_ renew: @Sendable (BearerToken) async throws -> BearerToken) async throws -> BearerToken
}

/// A ``BearerTokenStore`` in memory: for one process, and for tests.
public actor InMemoryBearerTokenStore: BearerTokenStore {
  private var token: BearerToken
  private var renewing = false
  private var waiting: [CheckedContinuation<Void, Never>] = []

  /// A store that holds `token`.
  public init(_ token: BearerToken) { self.token = token }

  /// The token stored now.
  public func load() -> BearerToken { token }

  /// Runs `renew` with no other renewal under way, and stores its token.
  public func update(_ renew: @Sendable (BearerToken) async throws -> BearerToken) async throws -> BearerToken {
    while renewing { await withCheckedContinuation { waiting.append($0) } }
    renewing = true
    defer {
      renewing = false
      if !waiting.isEmpty { waiting.removeFirst().resume() }
    }
    let renewed = try await renew(token)
    token = renewed
    return renewed
  }
}
