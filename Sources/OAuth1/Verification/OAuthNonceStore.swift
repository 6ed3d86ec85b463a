import Foundation

/// Remembers nonces so that a captured request cannot be replayed (RFC 5849, section 3.3):
/// a nonce is unique per consumer, token and timestamp.
public protocol OAuthNonceStore: Sendable {
  /// Records the nonce and returns `true` if it was not seen before; `false` means a replay.
  func insert(nonce: String, timestamp: Int64, consumerKey: String, token: String?) async -> Bool
}

/// An in-memory nonce store with bounded memory.
///
/// Entries expire once their timestamp is outside the verifier's window (a replay that late is
/// refused by the timestamp check anyway), and at most `capacity` entries are kept: beyond that
/// the oldest are dropped, which is counted in ``evictedBeforeExpiry`` — size `capacity` for
/// your request rate times the window (say 200 requests/s × 600 s = 120,000). Safe to use from
/// many tasks at once.
///
/// ```swift
/// let store = InMemoryNonceStore(window: 600, capacity: 100_000)
/// ```
public final class InMemoryNonceStore: OAuthNonceStore, @unchecked Sendable {
  /// How long an entry is kept, in seconds, counted from its timestamp.
  public let window: Int64
  public let capacity: Int
  private let clock: any OAuthClock
  private let lock = NSLock()
  private var seen: Set<String> = []
  /// Insertion order, for expiry and eviction: (expiry, key).
  private var queue: [(expiry: Int64, key: String)] = []
  private var head = 0
  private var evicted = 0

  public init(window: Int64 = 600, capacity: Int = 100_000, clock: any OAuthClock = SystemClock()) {
    self.window = window
    self.capacity = max(1, capacity)
    self.clock = clock
  }

  public func insert(nonce: String, timestamp: Int64, consumerKey: String, token: String?) async -> Bool {
    // Length-prefixed parts, so that no two different tuples give the same key.
    var key = ""
    key.reserveCapacity(consumerKey.utf8.count + (token?.utf8.count ?? 0) + nonce.utf8.count + 40)
    for part in [consumerKey, token ?? "", String(timestamp), nonce] {
      key += String(part.utf8.count)
      key += ":"
      key += part
    }
    let now = clock.secondsSince1970()
    return lock.withLock {
      expire(now: now)
      guard seen.insert(key).inserted else { return false }
      queue.append((max(timestamp, now) + window, key))
      while seen.count > capacity {
        seen.remove(queue[head].key)
        head += 1
        evicted += 1
      }
      compact()
      return true
    }
  }

  /// How many nonces are remembered now.
  public var count: Int { lock.withLock { seen.count } }

  /// How many entries were dropped for room before they expired.
  public var evictedBeforeExpiry: Int { lock.withLock { evicted } }

  private func expire(now: Int64) {
    // Entries are in insertion order, and expiry mostly follows it; stop at the first live one.
    while head < queue.count, queue[head].expiry < now {
      seen.remove(queue[head].key)
      head += 1
    }
  }

  private func compact() {
    if head > 1024 && head * 2 > queue.count {
      queue.removeFirst(head)
      head = 0
    }
  }
}
