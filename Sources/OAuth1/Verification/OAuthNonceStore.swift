import Foundation
import Locking

/// Remembers nonces so that a captured request cannot be replayed (RFC 5849, section 3.3):
/// a nonce is unique per consumer, token and timestamp.
///
/// A store shared by several processes (a database, Redis: see the `OAuth1Redis` product) can
/// fail to answer; it then throws, and ``OAuthVerifier`` refuses the request as
/// `temporarily_unavailable` (HTTP 503) rather than accept a request it cannot prove is not a
/// replay. Record the nonce atomically (an insert that fails on a duplicate, not a read then a
/// write), or two copies of one request sent at once both pass.
///
/// ```swift
/// struct DatabaseNonces: OAuthNonceStore {
///   func insert(nonce: String, timestamp: Int64, consumerKey: String, token: String?) async throws -> Bool {
///     // INSERT ... ON CONFLICT DO NOTHING: one row inserted means a first use.
///     try await database.insertNonce(nonce, timestamp, consumerKey, token ?? "") == 1
///   }
/// }
/// ```
public protocol OAuthNonceStore: Sendable {
  /// Records the nonce and returns `true` if it was not seen before; `false` means a replay.
  /// Throws when the store cannot tell (unreachable, timed out): the verifier then fails closed.
  func insert(nonce: String, timestamp: Int64, consumerKey: String, token: String?) async throws -> Bool
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
public final class InMemoryNonceStore: OAuthNonceStore, Sendable {
  /// How long an entry is kept, in seconds, counted from its timestamp.
  public let window: Int64
  /// The most nonces remembered at once (at least 1). Past it the oldest are dropped before they expire, counted in
  /// ``evictedBeforeExpiry``, and a replay of a dropped nonce is no longer caught.
  public let capacity: Int
  private let clock: any OAuthClock
  private let state: Locked<State>

  /// Creates an empty store.
  /// - Parameters:
  ///   - window: How long a nonce is kept, in seconds from its timestamp (or from when it was recorded, if later); 600 by default.
  ///     Keep it at least the verifier's `maxClockSkew`, or a replay can outlive its entry (``OAuthVerifier``'s own store uses twice that).
  ///   - capacity: The most nonces kept at once, 100,000 by default; values below 1 count as 1.
  ///   - clock: The clock that ages entries out; the system clock by default. Give it the verifier's clock.
  public init(window: Int64 = 600, capacity: Int = 100_000, clock: any OAuthClock = SystemClock()) {
    self.window = window
    self.capacity = max(1, capacity)
    self.clock = clock
    // Room for the first thousands of nonces at once: growing from empty rehashes every key
    // at each doubling, which a busy server would pay in its first seconds.
    state = Locked(State(reserving: min(self.capacity, 4096)))
  }

  public func insert(nonce: String, timestamp: Int64, consumerKey: String, token: String?) async -> Bool {
    let key = Key(nonce: nonce, timestamp: timestamp, consumerKey: consumerKey, token: token)
    let now = clock.secondsSince1970()
    let (window, capacity) = (window, capacity)
    return state.withLock { $0.insert(key, expiry: max(timestamp, now) + window, now: now, capacity: capacity) }
  }

  /// How many nonces are remembered now.
  public var count: Int { state.withLock { $0.seen.count } }

  /// How many entries were dropped for room before they expired.
  public var evictedBeforeExpiry: Int { state.withLock { $0.evicted } }

  /// The remembered nonces, behind ``state``'s lock.
  private struct State {
    var seen: Set<Key> = []
    /// Insertion order, for expiry and eviction: (expiry, key).
    var queue: [(expiry: Int64, key: Key)] = []
    var head = 0
    var evicted = 0

    init(reserving initial: Int) {
      seen.reserveCapacity(initial)
      queue.reserveCapacity(initial)
    }

    /// Records `key` unless it is there (`false`: a replay), after dropping what expired by
    /// `now`, and the oldest entries past `capacity`.
    mutating func insert(_ key: Key, expiry: Int64, now: Int64, capacity: Int) -> Bool {
      expire(now: now)
      guard seen.insert(key).inserted else { return false }
      queue.append((expiry, key))
      while seen.count > capacity {
        seen.remove(queue[head].key)
        head += 1
        evicted += 1
      }
      compact()
      return true
    }

    private mutating func expire(now: Int64) {
      // Entries are in insertion order, and expiry mostly follows it; stop at the first live one.
      while head < queue.count, queue[head].expiry < now {
        seen.remove(queue[head].key)
        head += 1
      }
    }

    private mutating func compact() {
      if head > 1024 && head * 2 > queue.count {
        queue.removeFirst(head)
        head = 0
      }
    }
  }

  /// One (consumer, token, timestamp, nonce), compared by its bytes: two keys are equal only
  /// when every part has the same UTF-8 bytes (not merely canonically equivalent text). Each
  /// String hashes its bytes and a terminator, so no two different tuples run together. No
  /// token and an empty one are the same.
  private struct Key: Hashable {
    let nonce: String
    let timestamp: Int64
    let consumerKey: String
    let token: String

    init(nonce: String, timestamp: Int64, consumerKey: String, token: String?) {
      self.nonce = nonce
      self.timestamp = timestamp
      self.consumerKey = consumerKey
      self.token = token ?? ""
    }

    func hash(into hasher: inout Hasher) {
      hasher.combine(timestamp)
      hasher.combine(nonce)
      hasher.combine(consumerKey)
      hasher.combine(token)
    }

    static func == (lhs: Key, rhs: Key) -> Bool {
      lhs.timestamp == rhs.timestamp && sameBytes(lhs.nonce, rhs.nonce) && sameBytes(lhs.consumerKey, rhs.consumerKey)
        && sameBytes(lhs.token, rhs.token)
    }

    private static func sameBytes(_ lhs: String, _ rhs: String) -> Bool {
      lhs.utf8.count == rhs.utf8.count && lhs.utf8.elementsEqual(rhs.utf8)
    }
  }
}
