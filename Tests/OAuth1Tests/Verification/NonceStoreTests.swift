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
}
