import Foundation
import OAuth1
import OAuth1Testing
import Testing

@Suite("InMemoryNonceStore")
struct NonceStoreTests {
  @Test func aNonceIsUniquePerConsumerTokenAndTimestamp() async {
    let store = InMemoryNonceStore(window: 600, clock: ManualClock(seconds: 1000))
    #expect(await store.insert(nonce: "n", timestamp: 1000, consumerKey: "c", token: "t"))
    #expect(await !store.insert(nonce: "n", timestamp: 1000, consumerKey: "c", token: "t"))
    #expect(await store.insert(nonce: "n", timestamp: 1001, consumerKey: "c", token: "t"))
    #expect(await store.insert(nonce: "n", timestamp: 1000, consumerKey: "c2", token: "t"))
    #expect(await store.insert(nonce: "n", timestamp: 1000, consumerKey: "c", token: nil))
    // Parts cannot run into each other: ("ab", "c") differs from ("a", "bc").
    #expect(await store.insert(nonce: "x", timestamp: 1, consumerKey: "ab", token: "c"))
    #expect(await store.insert(nonce: "x", timestamp: 1, consumerKey: "a", token: "bc"))
  }

  @Test func entriesExpireAfterTheWindow() async {
    let clock = ManualClock(seconds: 1000)
    let store = InMemoryNonceStore(window: 600, clock: clock)
    for index in 0..<100 { _ = await store.insert(nonce: "n\(index)", timestamp: 1000, consumerKey: "c", token: nil) }
    #expect(store.count == 100)
    clock.advance(by: 601)
    _ = await store.insert(nonce: "fresh", timestamp: 1601, consumerKey: "c", token: nil)
    #expect(store.count == 1)
    #expect(store.evictedBeforeExpiry == 0)
  }

  @Test func memoryIsBounded() async {
    let store = InMemoryNonceStore(window: 600, capacity: 1000, clock: ManualClock(seconds: 1000))
    for index in 0..<5000 { _ = await store.insert(nonce: "n\(index)", timestamp: 1000, consumerKey: "c", token: nil) }
    #expect(store.count == 1000)
    #expect(store.evictedBeforeExpiry == 4000)
    // The newest are still remembered.
    #expect(await !store.insert(nonce: "n4999", timestamp: 1000, consumerKey: "c", token: nil))
  }

  @Test func concurrentInsertsAcceptEachNonceOnce() async {
    let store = InMemoryNonceStore(window: 600, clock: ManualClock(seconds: 1000))
    let accepted = await withTaskGroup(of: Bool.self) { group in
      for index in 0..<4000 {
        group.addTask { await store.insert(nonce: "n\(index % 1000)", timestamp: 1000, consumerKey: "c", token: nil) }
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
      #expect(error.problem == .temporarilyUnavailable || error.problem == .nonceUsed, "\(error)")
    }
  }

  /// The same with the default capacity of 100,000, on the store itself.
  @Test func aFullDefaultStoreNeverForgetsALiveNonce() async throws {
    let store = InMemoryNonceStore(window: 600, clock: ManualClock(seconds: 1000))
    #expect(try await store.insert(nonce: "captured", timestamp: 1000, consumerKey: "victim", token: "t"))
    for index in 0..<100_000 { _ = try? await store.insert(nonce: "n\(index)", timestamp: 1000, consumerKey: "attacker", token: nil) }
    let replay = try? await store.insert(nonce: "captured", timestamp: 1000, consumerKey: "victim", token: "t")
    // Refused as a replay (false) or because the store is full (it throws): never a first use.
    #expect(replay != true, "a live nonce was forgotten")
  }
}
