import Foundation
import OAuth1
import OAuth1Testing
import Testing

@Suite("InMemoryNonceStore")
struct NonceStoreTests {
  @Test func aNonceIsUniquePerConsumerTokenAndTimestamp() async throws {
    let store = InMemoryNonceStore(window: 600, clock: ManualClock(seconds: 1000))
    #expect(try await store.insert(nonce: "n", timestamp: 1000, consumerKey: "c", token: "t"))
    #expect(try await !store.insert(nonce: "n", timestamp: 1000, consumerKey: "c", token: "t"))
    #expect(try await store.insert(nonce: "n", timestamp: 1001, consumerKey: "c", token: "t"))
    #expect(try await store.insert(nonce: "n", timestamp: 1000, consumerKey: "c2", token: "t"))
    #expect(try await store.insert(nonce: "n", timestamp: 1000, consumerKey: "c", token: nil))
    // Parts cannot run into each other: ("ab", "c") differs from ("a", "bc").
    #expect(try await store.insert(nonce: "x", timestamp: 1, consumerKey: "ab", token: "c"))
    #expect(try await store.insert(nonce: "x", timestamp: 1, consumerKey: "a", token: "bc"))
  }

  @Test func entriesExpireAfterTheWindow() async throws {
    let clock = ManualClock(seconds: 1000)
    let store = InMemoryNonceStore(window: 600, clock: clock)
    for index in 0..<100 { _ = try await store.insert(nonce: "n\(index)", timestamp: 1000, consumerKey: "c", token: nil) }
    #expect(store.count == 100)
    clock.advance(by: 601)
    _ = try await store.insert(nonce: "fresh", timestamp: 1601, consumerKey: "c", token: nil)
    #expect(store.count == 1)
    #expect(store.refusedWhenFull == 0)
  }

  /// Entries expire by their own timestamp, whatever order they came in: a nonce dated later
  /// than the ones after it does not hold them back, nor is it dropped with them.
  @Test func entriesExpireInTheOrderOfTheirTimestamps() async throws {
    let clock = ManualClock(seconds: 1000)
    let store = InMemoryNonceStore(window: 600, clock: clock)
    #expect(try await store.insert(nonce: "late", timestamp: 1300, consumerKey: "c", token: nil))
    for index in 0..<100 { #expect(try await store.insert(nonce: "n\(index)", timestamp: 1000 - Int64(index), consumerKey: "c", token: nil)) }
    clock.advance(by: 601)  // 1601: every entry dated 1000 or before expired; "late" lives until 1900.
    #expect(try await store.insert(nonce: "fresh", timestamp: 1601, consumerKey: "c", token: nil))
    #expect(store.count == 2)
    #expect(try await !store.insert(nonce: "late", timestamp: 1300, consumerKey: "c", token: nil))
    clock.advance(by: 300)  // 1901.
    #expect(try await store.insert(nonce: "late", timestamp: 1300, consumerKey: "c", token: nil))
  }

  /// Memory is bounded by refusing: past `capacity` live nonces a new one throws `Full` (the
  /// verifier's 503), a replay is still refused, and room comes back as entries expire.
  @Test func aFullStoreRefusesNewNoncesAndRemembersEveryLiveOne() async throws {
    let clock = ManualClock(seconds: 1000)
    let store = InMemoryNonceStore(window: 600, capacity: 1000, clock: clock)
    for index in 0..<1000 { #expect(try await store.insert(nonce: "n\(index)", timestamp: 1000, consumerKey: "c", token: nil)) }
    await #expect(throws: InMemoryNonceStore.Full(capacity: 1000, secondsUntilRoom: 601)) {
      try await store.insert(nonce: "one-more", timestamp: 1000, consumerKey: "c", token: nil)
    }
    for index in [0, 500, 999] { #expect(try await !store.insert(nonce: "n\(index)", timestamp: 1000, consumerKey: "c", token: nil)) }
    #expect(store.count == 1000)
    #expect(store.refusedWhenFull == 1)
    clock.advance(by: 601)
    #expect(try await store.insert(nonce: "one-more", timestamp: 1601, consumerKey: "c", token: nil))
    #expect(store.count == 1)
  }

  @Test func concurrentInsertsAcceptEachNonceOnce() async {
    let store = InMemoryNonceStore(window: 600, clock: ManualClock(seconds: 1000))
    let accepted = await withTaskGroup(of: Bool.self) { group in
      for index in 0..<4000 {
        group.addTask { (try? await store.insert(nonce: "n\(index % 1000)", timestamp: 1000, consumerKey: "c", token: nil)) == true }
      }
      var count = 0
      for await result in group where result { count += 1 }
      return count
    }
    #expect(accepted == 1000)
  }

  /// #35 item 2: one client with any valid key signs `capacity` cheap requests; a request
  /// captured before them must still be refused when replayed within its window. The store
  /// used to evict the oldest live nonces to make room, and the replay was accepted.
  @Test func aFullStoreNeverForgetsALiveNonce() async throws {
    let consumer = Credentials(key: "app-key", secret: "app-secret")
    let request = OAuthRequest(method: "GET", url: "https://api.example.com/items")
    let verifier = OAuthVerifier(
      credentials: InMemoryCredentialLookup(consumers: ["app-key": OAuthConsumer(secret: "app-secret")], tokens: [:]),
      nonceStore: InMemoryNonceStore(window: 600, capacity: 100, clock: FixedClock(seconds: 1_000_000)),
      options: .init(clock: FixedClock(seconds: 1_000_000)))
    func header(_ nonce: String) throws -> String {
      try OAuthSignatureGenerator(consumerCredentials: consumer, request: request, options: .init(nonce: nonce, timestamp: 1_000_000))
        .authorizationHeader
    }
    let captured = try header("captured")
    _ = try await verifier.verify(request, authorization: captured)
    for index in 0..<150 { _ = try? await verifier.verify(request, authorization: try header("filler-\(index)")) }
    do {
      _ = try await verifier.verify(request, authorization: captured)
      Issue.record("the replay of a captured request was accepted once the store had filled")
    } catch {
      #expect(error.problem == .nonceUsed, "\(error)")
    }
    // A new request is refused as the store's failure, never accepted unrecorded.
    let fresh = try header("new")
    do {
      _ = try await verifier.verify(request, authorization: fresh)
      Issue.record("a request whose nonce the full store could not record was accepted")
    } catch {
      #expect(error.problem == .temporarilyUnavailable && error.response().status == 503, "\(error)")
      #expect(error.cause?.contains("holds 100 live nonces") == true, "\(String(describing: error.cause))")
    }
  }

  /// The same with the default capacity of 100,000, on the store itself.
  @Test func aFullDefaultStoreNeverForgetsALiveNonce() async throws {
    let store = InMemoryNonceStore(window: 600, clock: ManualClock(seconds: 1000))
    #expect(try await store.insert(nonce: "captured", timestamp: 1000, consumerKey: "victim", token: "t"))
    for index in 0..<100_000 { _ = try? await store.insert(nonce: "n\(index)", timestamp: 1000, consumerKey: "attacker", token: nil) }
    let replay = try? await store.insert(nonce: "captured", timestamp: 1000, consumerKey: "victim", token: "t")
    // Refused as a replay, not merely because the store is full.
    #expect(replay == false, "a live nonce was forgotten")
    #expect(store.count == 100_000 && store.refusedWhenFull == 1)
  }
}
