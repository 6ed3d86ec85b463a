import Foundation
import Loopback
import OAuth1
import TestSupport
import Testing

@testable import OAuth1Redis

/// The store against a real `redis-server`, started by each test on a free loopback port.
@Suite("RedisNonceStore against redis-server", .tags(.redis), .tier(.redis), .redisServer)
struct RedisNonceStoreTests {
  static let now: Int64 = 1_700_000_000
  let consumer = Credentials(key: "app-key", secret: "app-secret")
  let token = Credentials(key: "user-token", secret: "user-secret")
  let request = OAuthRequest(method: "GET", url: "https://api.example.com/items?page=2")

  func verifier(_ store: RedisNonceStore) -> OAuthVerifier {
    OAuthVerifier(
      credentials: InMemoryCredentialLookup(consumers: ["app-key": OAuthConsumer(secret: "app-secret")], tokens: ["user-token": "user-secret"]),
      nonceStore: store, options: .init(clock: FixedClock(seconds: Self.now)))
  }

  func header(nonce: String) throws -> String {
    try OAuthSignatureGenerator(
      consumerCredentials: consumer, credentials: token, request: request, options: .init(nonce: nonce, timestamp: Self.now)
    ).authorizationHeader
  }

  /// What a verification came to: `nil` when accepted, else the problem.
  func problem(_ verifier: OAuthVerifier, _ authorization: String) async -> OAuthProblem? {
    do {
      _ = try await verifier.verify(request, authorization: authorization)
      return nil
    } catch {
      return error.problem
    }
  }

  func integer(_ store: RedisNonceStore, _ command: [String]) async throws -> Int64 {
    guard case .integer(let value) = try await store.command(command) else { throw RedisNonceStoreError.protocolViolation("\(command)") }
    return value
  }

  @Test func aNonceIsAcceptedOnceAndItsKeyLivesForTheWindow() async throws {
    let redis = try LocalRedisServer()
    let store = try RedisNonceStore(url: redis.url, window: 777)
    let start = Date()
    #expect(try await store.insert(nonce: "n", timestamp: Self.now, consumerKey: "c", token: "t"))
    #expect(try await !store.insert(nonce: "n", timestamp: Self.now, consumerKey: "c", token: "t"))
    let key = store.key(nonce: "n", timestamp: Self.now, consumerKey: "c", token: "t")
    let ttl = try await integer(store, ["TTL", key])
    let pttl = try await integer(store, ["PTTL", key])
    // The window and one second from the current whole second (the timestamp is in the past:
    // EXAT now + window + 1), less the time since the SET.
    let elapsed = Int64(Date().timeIntervalSince(start) * 1000) + 1
    #expect(pttl <= 778_000 && pttl >= 777_000 - elapsed, "PTTL \(pttl) after \(elapsed) ms")
    #expect(ttl <= 778 && ttl >= 777 - elapsed / 1000 - 1, "TTL \(ttl)")
    #expect(try await integer(store, ["DBSIZE"]) == 1)
  }

  /// With `maxClockSkew` 1, a request dated one second ahead is accepted until the clock has
  /// passed its timestamp by a second; its key must live that long. `EX window` counted from
  /// the insertion let the replay through at about 2.5 s; `EXAT` counts from the timestamp.
  @Test func aRequestDatedAheadCannotBeReplayedBeforeItExpires() async throws {
    let redis = try LocalRedisServer()
    // Start just after a second begins, so that whole-second clocks give the same answer each run.
    while Date().timeIntervalSince1970.truncatingRemainder(dividingBy: 1) > 0.05 { try await Task.sleep(for: .milliseconds(5)) }
    let start = Date()
    let second = Int64(start.timeIntervalSince1970)
    let store = try RedisNonceStore(url: redis.url, window: 2)
    let checked = OAuthVerifier(
      credentials: InMemoryCredentialLookup(consumers: ["app-key": OAuthConsumer(secret: "app-secret")], tokens: ["user-token": "user-secret"]),
      nonceStore: store, options: .init(maxClockSkew: 1))
    let ahead = try OAuthSignatureGenerator(
      consumerCredentials: consumer, credentials: token, request: request, options: .init(nonce: "ahead", timestamp: second + 1)
    ).authorizationHeader
    #expect(await problem(checked, ahead) == nil)
    var outcomes: [(Double, OAuthProblem?)] = []
    for moment in [0.3, 2.5] {
      let wait = moment - Date().timeIntervalSince(start)
      if wait > 0 { try await Task.sleep(for: .seconds(wait)) }
      outcomes.append((Date().timeIntervalSince(start), await problem(checked, ahead)))
    }
    for (moment, outcome) in outcomes {
      // Refused each time: as a replay, or (if this machine was slower than planned) for its age.
      #expect(outcome == .nonceUsed || outcome == .timestampRefused, "replayed at \(moment) s: \(String(describing: outcome))")
    }
  }

  /// The same nonce and timestamp under another consumer or another token is another key.
  @Test func theSameNonceUnderTwoConsumersOrTwoTokensDoesNotCollide() async throws {
    let redis = try LocalRedisServer()
    let store = try RedisNonceStore(url: redis.url)
    for (consumer, token) in [("c1", "t"), ("c2", "t"), ("c1", "t2"), ("c1", nil), ("c", "1t"), ("c1t", nil)] as [(String, String?)] {
      #expect(try await store.insert(nonce: "same", timestamp: Self.now, consumerKey: consumer, token: token), "\(consumer) \(token ?? "-")")
    }
    #expect(try await !store.insert(nonce: "same", timestamp: Self.now, consumerKey: "c2", token: "t"))
    #expect(try await integer(store, ["DBSIZE"]) == 6)
  }

  /// A request refused for its signature never reaches Redis; the valid one is recorded, and
  /// its replay refused.
  @Test func aRequestRefusedForItsSignatureRecordsNoNonce() async throws {
    let redis = try LocalRedisServer()
    let store = try RedisNonceStore(url: redis.url)
    let checked = verifier(store)
    let good = try header(nonce: "n-1")
    let forged = good.replacingOccurrences(of: "oauth_signature=\"", with: "oauth_signature=\"A")
    #expect(await problem(checked, forged) == .signatureInvalid)
    #expect(try await integer(store, ["DBSIZE"]) == 0)
    #expect(await problem(checked, good) == nil)
    #expect(try await integer(store, ["EXISTS", store.key(nonce: "n-1", timestamp: Self.now, consumerKey: "app-key", token: "user-token")]) == 1)
    #expect(await problem(checked, good) == .nonceUsed)
  }

  /// 64 copies of one request at once, through a pool of 8 connections: exactly one accepted.
  @Test func concurrentCopiesOfOneRequestAreAcceptedOnce() async throws {
    let redis = try LocalRedisServer()
    let checked = verifier(try RedisNonceStore(url: redis.url, poolSize: 8))
    let authorization = try header(nonce: "race")
    let outcomes = await withTaskGroup(of: OAuthProblem?.self) { group in
      for _ in 0..<64 { group.addTask { await problem(checked, authorization) } }
      var outcomes: [OAuthProblem?] = []
      for await outcome in group { outcomes.append(outcome) }
      return outcomes
    }
    #expect(outcomes.filter { $0 == nil }.count == 1)
    #expect(outcomes.filter { $0 == .nonceUsed }.count == 63)
  }

  /// Redis stopped: every verification fails closed as temporarily_unavailable, none accepted.
  /// Restarted: the same verifier and store work again.
  @Test func redisStoppedFailsClosedAndRestartedWorksAgain() async throws {
    let redis = try LocalRedisServer()
    let store = try RedisNonceStore(url: redis.url, poolSize: 4)
    let checked = verifier(store)
    #expect(await problem(checked, try header(nonce: "before")) == nil)
    redis.stop()
    for index in 0..<20 {
      let found = await problem(checked, try header(nonce: "during-\(index)"))
      #expect(found == .temporarilyUnavailable, "with Redis stopped, verification \(index) gave \(String(describing: found))")
    }
    let during = try header(nonce: "during-x")
    do throws(OAuthVerificationError) {
      _ = try await checked.verify(request, authorization: during)
      Issue.record("accepted with Redis stopped")
    } catch {
      #expect(error.cause?.contains("cannot connect to Redis at 127.0.0.1:\(redis.port)") == true, "\(error)")
    }
    try redis.restart()
    for index in 0..<8 {
      let found = await problem(checked, try header(nonce: "after-\(index)"))
      #expect(found == nil, "after the restart, verification \(index) gave \(String(describing: found))")
    }
    // Without persistence the restarted Redis forgot "before": the window the documentation warns about.
    #expect(await problem(checked, try header(nonce: "before")) == nil)
  }

  /// Connections left idle across a restart are found closed before use and reopened: the
  /// first verifications after the restart all pass, none fails on a dead connection.
  @Test func idleConnectionsSurviveARestartWithoutAFailedCommand() async throws {
    let redis = try LocalRedisServer()
    let store = try RedisNonceStore(url: redis.url, poolSize: 3)
    // Open all three connections.
    try await withThrowingTaskGroup(of: Void.self) { group in
      for _ in 0..<12 { group.addTask { try await store.ping() } }
      try await group.waitForAll()
    }
    try redis.restart()
    for index in 0..<6 {
      #expect(try await store.insert(nonce: "after-\(index)", timestamp: Self.now, consumerKey: "c", token: nil))
    }
  }

  @Test func aPasswordIsSentWithAuth() async throws {
    let redis = try LocalRedisServer(arguments: ["--requirepass", "pass word"])
    let right = try RedisNonceStore(url: "redis://:pass%20word@127.0.0.1:\(redis.port)")
    #expect(try await right.insert(nonce: "n", timestamp: Self.now, consumerKey: "c", token: nil))
    let none = try RedisNonceStore(url: redis.url)
    await #expect {
      _ = try await none.insert(nonce: "n2", timestamp: Self.now, consumerKey: "c", token: nil)
    } throws: { "\($0)".contains("NOAUTH") }
    let wrong = try RedisNonceStore(url: "redis://:wrong-pass@127.0.0.1:\(redis.port)")
    await #expect {
      try await wrong.ping()
    } throws: { error in
      guard case RedisNonceStoreError.authenticationFailed(nil, _) = error else { return false }
      return !"\(error)".contains("wrong-pass")
    }
  }

  /// An ACL user limited to the store's keys, and a database chosen in the URL.
  @Test func anACLUserAndADatabase() async throws {
    let redis = try LocalRedisServer(arguments: ["--user", "default", "off", "--user", "nonces", "on", ">nonce-pass", "~oauth1:*", "+@all"])
    let store = try RedisNonceStore(url: "redis://nonces:nonce-pass@127.0.0.1:\(redis.port)/3")
    #expect(try await store.insert(nonce: "n", timestamp: Self.now, consumerKey: "c", token: nil))
    #expect(try await !store.insert(nonce: "n", timestamp: Self.now, consumerKey: "c", token: nil))
    let key = store.key(nonce: "n", timestamp: Self.now, consumerKey: "c", token: nil)
    #expect(try await integer(store, ["EXISTS", key]) == 1)
    let databaseZero = try RedisNonceStore(url: "redis://nonces:nonce-pass@127.0.0.1:\(redis.port)/0")
    #expect(try await integer(databaseZero, ["EXISTS", key]) == 0)
    // The user may write only under the store's prefix.
    let elsewhere = RedisNonceStore(configuration: store.configuration, keyPrefix: "other:")
    await #expect {
      _ = try await elsewhere.insert(nonce: "n", timestamp: Self.now, consumerKey: "c", token: nil)
    } throws: { "\($0)".contains("NOPERM") }
    let wrongUser = try RedisNonceStore(url: "redis://nobody:nonce-pass@127.0.0.1:\(redis.port)")
    await #expect {
      try await wrongUser.ping()
    } throws: { error in
      guard case RedisNonceStoreError.authenticationFailed("nobody", _) = error else { return false }
      return true
    }
  }

  /// A server that accepts the connection and never answers costs the command timeout, not
  /// more: timed on one connection, synchronously (an async caller's time would include waiting
  /// for the cooperative pool, busy with other tests); the store reports it as a timeout.
  @Test func aServerThatNeverAnswersTimesOut() async throws {
    let silent = try LoopbackListener(port: 0)  // the kernel accepts; nobody reads
    let configuration = RedisConfiguration(port: Int(silent.port), commandTimeout: 0.3, poolSize: 1)
    let connection = try RedisConnection(configuration)
    let start = Date()
    #expect(throws: RedisNonceStoreError.timedOut(host: "127.0.0.1", port: Int(silent.port), operation: "SET", seconds: 0.3)) {
      _ = try connection.send(["SET", "k", "1", "NX", "EX", "600"])
    }
    let elapsed = Date().timeIntervalSince(start)
    #expect(elapsed >= 0.3 && elapsed < TestTiming.seconds(3), "\(elapsed) s")

    let store = RedisNonceStore(configuration: configuration)
    await #expect(throws: RedisNonceStoreError.timedOut(host: "127.0.0.1", port: Int(silent.port), operation: "SET", seconds: 0.3)) {
      _ = try await store.insert(nonce: "n", timestamp: Self.now, consumerKey: "c", token: nil)
    }
  }
}
