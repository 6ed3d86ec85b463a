import Foundation
import NetworkClient
import NetworkClientTesting
import Testing

/// `RefreshingBearerBehavior` on a stub transport: renewals before expiry and after a 401, one at
/// a time, saved before use, replayed through the other behaviors, and failures that stop.
@Suite("RefreshingBearerBehavior")
struct RefreshingBearerBehaviorTests {
  /// A refresher that counts its calls and issues `access-N` / `refresh-N`, spending each refresh
  /// token once (as X does): a spent one presented again is an error.
  actor CountingRefresher: BearerTokenRefresher {
    private(set) var calls = 0
    private var spent: Set<String> = []
    let lifetime: TimeInterval
    let delay: UInt64
    var failure: (any Error)?

    init(lifetime: TimeInterval = 7200, delayMilliseconds: UInt64 = 20, failure: (any Error)? = nil) {
      self.lifetime = lifetime
      self.delay = delayMilliseconds
      self.failure = failure
    }

    struct SpentRefreshToken: Error {}

    func refresh(_ token: BearerToken) async throws -> BearerToken {
      calls += 1
      let call = calls
      if let failure { throw failure }
      guard let refresh = token.refreshToken, !spent.contains(refresh) else { throw SpentRefreshToken() }
      spent.insert(refresh)
      try await Task.sleep(nanoseconds: delay * 1_000_000)
      return BearerToken(accessToken: "access-\(call)", refreshToken: "refresh-\(call)", expiresIn: lifetime)
    }
  }

  /// Answers 200 to the tokens it accepts and 401 to the others; records what it saw.
  static func server(accepting accepted: @escaping @Sendable (String) -> Bool) -> StubTransport {
    StubTransport(
      fallback: .handler { request in
        let token = (request.headers["Authorization"] ?? "").replacingOccurrences(of: "Bearer ", with: "")
        return HTTPResponse(statusCode: accepted(token) ? 200 : 401, headers: [:], body: Data(token.utf8), request: request)
      })
  }

  static let api = URL(string: "https://api.example.com")!

  @Test func oneRenewalForAHundredConcurrentRequestsWithAnExpiredToken() async throws {
    let store = InMemoryBearerTokenStore(BearerToken(accessToken: "old", refreshToken: "refresh-0", expiresIn: -1))
    let refresher = CountingRefresher()
    let stub = Self.server { $0 == "access-1" }
    let client = NetworkClient(baseURL: Self.api, behavior: RefreshingBearerBehavior(store: store, refresher: refresher), transport: stub)
    let bodies = try await withThrowingTaskGroup(of: String.self) { group in
      for index in 0..<100 { group.addTask { String(decoding: try await client.send(Request<Data>(path: "items/\(index)")), as: UTF8.self) } }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(bodies.count == 100 && Set(bodies) == ["access-1"])
    #expect(await refresher.calls == 1)
    #expect(stub.requests.count == 100, "no request went out with the expired token")
    #expect(await store.load().refreshToken == "refresh-1")
  }

  @Test func a401OnATokenNotYetExpiredRenewsOnceAndReplaysThroughTheOtherBehaviors() async throws {
    let store = InMemoryBearerTokenStore(BearerToken(accessToken: "revoked", refreshToken: "refresh-0", expiresIn: 3600))
    let refresher = CountingRefresher()
    let stub = Self.server { $0 == "access-1" }
    let attempts = Locked(0)
    let counting = ClosureBehavior { request in
      var request = request
      request.headers["X-Attempt"] = String(
        attempts.withLock {
          $0 += 1
          return $0
        })
      return request
    }
    let client = NetworkClient(
      baseURL: Self.api, behavior: CombinedRequestBehavior([counting, RefreshingBearerBehavior(store: store, refresher: refresher)]),
      transport: stub)
    let body = try await client.send(Request<Data>(path: "me"))
    #expect(String(decoding: body, as: UTF8.self) == "access-1")
    #expect(await refresher.calls == 1)
    #expect(stub.requests.map { $0.headers["Authorization"] } == ["Bearer revoked", "Bearer access-1"])
    #expect(stub.requests.map { $0.headers["X-Attempt"] } == ["1", "2"], "the replay went through the other behavior again")
  }

  @Test func a401ThatPersistsIsNotALoop() async throws {
    let store = InMemoryBearerTokenStore(BearerToken(accessToken: "a", refreshToken: "refresh-0", expiresIn: 3600))
    let refresher = CountingRefresher()
    let stub = Self.server { _ in false }
    let client = NetworkClient(baseURL: Self.api, behavior: RefreshingBearerBehavior(store: store, refresher: refresher), transport: stub)
    await #expect {
      _ = try await client.send(Request<Data>(path: "me"))
    } throws: { error in
      (error as? NetworkError)?.statusCode == 401
    }
    #expect(await refresher.calls == 1 && stub.requests.count == 2)
  }

  @Test func concurrent401sOnOneTokenRenewItOnce() async throws {
    let store = InMemoryBearerTokenStore(BearerToken(accessToken: "revoked", refreshToken: "refresh-0", expiresIn: 3600))
    let refresher = CountingRefresher(delayMilliseconds: 50)
    let stub = Self.server { $0 == "access-1" }
    let client = NetworkClient(baseURL: Self.api, behavior: RefreshingBearerBehavior(store: store, refresher: refresher), transport: stub)
    try await withThrowingTaskGroup(of: Void.self) { group in
      for _ in 0..<20 { group.addTask { _ = try await client.send(Request<Data>(path: "me")) } }
      try await group.waitForAll()
    }
    #expect(await refresher.calls == 1)
  }

  @Test func aFailedRenewalFailsTheRequestAndStoresNothing() async throws {
    struct Revoked: Error {}
    let original = BearerToken(accessToken: "old", refreshToken: "refresh-0", expiresIn: -1)
    let store = InMemoryBearerTokenStore(original)
    let refresher = CountingRefresher(failure: Revoked())
    let stub = Self.server { _ in true }
    let client = NetworkClient(baseURL: Self.api, behavior: RefreshingBearerBehavior(store: store, refresher: refresher), transport: stub)
    await #expect {
      _ = try await client.send(Request<Data>(path: "me"))
    } throws: { error in
      guard case .rejected(_, let underlying) = error as? NetworkError else { return false }
      return underlying is Revoked
    }
    #expect(stub.requests.isEmpty, "nothing was sent with a token that could not be renewed")
    #expect(await store.load() == original)
    // The next request tries again (a transient failure is not remembered).
    await #expect(throws: NetworkError.self) { _ = try await client.send(Request<Data>(path: "me")) }
    #expect(await refresher.calls == 2)
  }

  @Test func theTokenIsRenewedAMarginBeforeItExpires() async throws {
    let start = Date()
    let clock = Locked(start)
    let store = InMemoryBearerTokenStore(BearerToken(accessToken: "a", refreshToken: "refresh-0", expiresIn: 7200, issuedAt: start))
    let refresher = CountingRefresher()
    let stub = Self.server { _ in true }
    let client = NetworkClient(
      baseURL: Self.api, behavior: RefreshingBearerBehavior(store: store, refresher: refresher, now: { clock.withLock { $0 } }), transport: stub)
    clock.withLock { $0 = start.addingTimeInterval(7200 - 61) }
    _ = try await client.send(Request<Data>(path: "me"))
    #expect(await refresher.calls == 0, "61 s before expiry is outside the 60 s margin")
    clock.withLock { $0 = start.addingTimeInterval(7200 - 59) }
    _ = try await client.send(Request<Data>(path: "me"))
    #expect(await refresher.calls == 1)
    #expect(stub.requests.last?.headers["Authorization"] == "Bearer access-1")
  }

  @Test func theAutomaticMarginIsATenthOfAShortLifetime() {
    let now = Date()
    let short = BearerToken(accessToken: "a", expiresIn: 2, issuedAt: now)
    #expect(RefreshingBearerBehavior.Margin.automatic.interval(for: short) == 0.2)
    #expect(!short.expires(within: 0.2, of: now.addingTimeInterval(1.7)) && short.expires(within: 0.2, of: now.addingTimeInterval(1.9)))
    #expect(RefreshingBearerBehavior.Margin.automatic.interval(for: BearerToken(accessToken: "a", expiresIn: 7200)) == 60)
    #expect(RefreshingBearerBehavior.Margin.seconds(5).interval(for: short) == 5)
  }

  @Test func theNewTokenIsStoredBeforeAnyRequestUsesIt() async throws {
    let store = InMemoryBearerTokenStore(BearerToken(accessToken: "old", refreshToken: "refresh-0", expiresIn: -1))
    let stub = StubTransport(
      fallback: .handler { request in
        let stored = await store.load().accessToken
        let sent = (request.headers["Authorization"] ?? "").replacingOccurrences(of: "Bearer ", with: "")
        return HTTPResponse(statusCode: stored == sent ? 200 : 500, headers: [:], body: Data(), request: request)
      })
    let client = NetworkClient(
      baseURL: Self.api, behavior: RefreshingBearerBehavior(store: store, refresher: CountingRefresher()), transport: stub)
    _ = try await client.send(Request<Data>(path: "me"))
  }

  @Test func itsDescriptionsHideTheTokens() {
    let token = BearerToken(accessToken: "secret-access", refreshToken: "secret-refresh", expiresIn: 60)
    #expect(!token.description.contains("secret"))
    let behavior = RefreshingBearerBehavior(store: InMemoryBearerTokenStore(token), refresher: CountingRefresher())
    #expect(!"\(behavior)".contains("secret"))
  }
}
