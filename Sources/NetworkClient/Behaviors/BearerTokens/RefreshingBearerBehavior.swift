import Foundation

/// Authenticates every request with an OAuth 2.0 access token (`Authorization: Bearer`) that it
/// renews itself: shortly before the token expires, and once when the server answers 401 to a
/// token it believed valid, replaying that request (through every other behavior again, so a
/// retry, a header or a log sees the replay as a new attempt). Concurrent requests that find the
/// token expiring wait for one renewal; never two at once.
///
/// The renewal goes through the store's ``BearerTokenStore/update(_:)``, which saves the new
/// token before any request uses it.
///
/// ```swift
/// let behavior = RefreshingBearerBehavior(store: store, refresher: tokenEndpoint)
/// let client = NetworkClient(baseURL: URL(string: "https://api.x.com")!, behavior: behavior)
/// ```
public struct RefreshingBearerBehavior: RequestBehavior, CustomStringConvertible {
  /// How long before its expiry a token is renewed.
  public enum Margin: Sendable {
    /// 60 s, or a tenth of the token's lifetime when that is shorter (a token that lives 2 s
    /// is renewed 0.2 s early, not at once).
    case automatic
    /// A fixed number of seconds.
    case seconds(TimeInterval)

    /// How many seconds before `token` expires it is renewed.
    public func interval(for token: BearerToken) -> TimeInterval {
      switch self {
      case .seconds(let seconds): return seconds
      case .automatic: return min(60, (token.lifetime ?? 600) / 10)
      }
    }
  }

  private let coordinator: Coordinator

  /// Sends the token `store` holds, renewing it with `refresher` `margin` before it expires and
  /// after a 401; `now` is the clock (tests move it).
  public init(
    store: any BearerTokenStore, refresher: any BearerTokenRefresher, margin: Margin = .automatic,
    now: @escaping @Sendable () -> Date = Date.init
  ) {
    coordinator = Coordinator(store: store, refresher: refresher, margin: margin, now: now)
  }

  /// A signer: it runs after every other behavior, and its header does not follow a redirect
  /// to an origin the redirect policy does not trust.
  public var isSigner: Bool { true }

  /// Sets `Authorization: Bearer` to a token that is not about to expire.
  public func modify(_ request: HTTPRequest) async throws -> HTTPRequest {
    let token = try await coordinator.validToken()
    Self.attempt?.withLock { $0 = token.accessToken }
    var request = request
    request.headers["Authorization"] = "Bearer \(token.accessToken)"
    return request
  }

  /// Sends; on a 401, renews the token that attempt carried (unless another request already
  /// did) and sends once more.
  public func around(_ request: HTTPRequest, send: @Sendable (HTTPRequest) async throws -> HTTPResponse) async throws -> HTTPResponse {
    let sent = Locked<String?>(nil)
    do {
      return try await Self.$attempt.withValue(sent) { try await send(request) }
    } catch let error as NetworkError where error.statusCode == 401 {
      guard let refused = sent.withLock({ $0 }) else { throw error }
      try await coordinator.renew(refused: refused)
      return try await send(request)
    }
  }

  /// Its name, with no token.
  public var description: String { "RefreshingBearerBehavior" }

  /// The access token the current attempt carried, recorded by ``modify(_:)`` for ``around(_:send:)``.
  @TaskLocal private static var attempt: Locked<String?>?

  /// The token in use and the one renewal under way.
  actor Coordinator {
    let store: any BearerTokenStore
    let refresher: any BearerTokenRefresher
    let margin: Margin
    let now: @Sendable () -> Date
    private var current: BearerToken?
    private var renewal: Task<BearerToken, any Error>?

    init(store: any BearerTokenStore, refresher: any BearerTokenRefresher, margin: Margin, now: @escaping @Sendable () -> Date) {
      self.store = store
      self.refresher = refresher
      self.margin = margin
      self.now = now
    }

    /// The token to send: the one in use, or a renewed one when it is about to expire.
    func validToken() async throws -> BearerToken {
      if let renewal { return try await renewal.value }
      let token: BearerToken
      if let current {
        token = current
      } else {
        token = try await store.load()
        current = token
      }
      let margin = margin, now = now
      let expiring: @Sendable (BearerToken) -> Bool = { $0.expires(within: margin.interval(for: $0), of: now()) }
      guard expiring(token) else { return token }
      return try await renew(when: expiring)
    }

    /// Renews after a 401 to `refused`, unless the store already holds another token.
    func renew(refused: String) async throws {
      if let renewal {
        _ = try await renewal.value
        return
      }
      if let current, current.accessToken != refused { return }
      _ = try await renew(when: { $0.accessToken == refused })
    }

    /// One renewal at a time: through the store, which hands over the token stored now (maybe
    /// renewed by another process) and keeps what `refresher` returns. `stale` says whether the
    /// stored token still needs renewing.
    private func renew(when stale: @escaping @Sendable (BearerToken) -> Bool) async throws -> BearerToken {
      let store = store, refresher = refresher
      let task = Task { try await store.update { stored in stale(stored) ? try await refresher.refresh(stored) : stored } }
      renewal = task
      defer { renewal = nil }
      do {
        let token = try await task.value
        current = token
        return token
      } catch {
        current = nil
        throw error
      }
    }
  }
}
