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

/// An in-memory nonce store with bounded memory that never forgets a live nonce.
///
/// A nonce is kept until its timestamp is outside the verifier's window (a replay that late is
/// refused by the timestamp check anyway), and at most `capacity` are kept at once. When that
/// many are live, a new one is refused: ``insert(nonce:timestamp:consumerKey:token:)`` throws
/// ``Full`` and ``OAuthVerifier`` answers `temporarily_unavailable` (HTTP 503), as it does when a
/// shared store such as Redis cannot answer. A replay is still `nonce_used`.
///
/// Why refuse, rather than make room: dropping the oldest live nonces let one client with any
/// valid key sign `capacity` cheap requests and then replay anybody's captured request, which
/// its store had forgotten. A low-water mark (forget the oldest, then refuse every timestamp at
/// or below the newest forgotten one as `nonce_used`) would not fail open either, but it
/// answers honest requests with a 401 that blames them for a replay they did not send, and
/// under the same flood it ends up refusing them all the same. A 503 says what happened: the
/// server is over capacity, try again; the count of refusals (``refusedWhenFull``) tells the
/// operator to raise `capacity` or share a store. Size `capacity` for the peak request rate times
/// the window (say 200 requests/s × 600 s = 120,000; about 150 bytes a nonce). Safe to use from
/// many tasks at once.
///
/// ```swift
/// let store = InMemoryNonceStore(window: 600, capacity: 200_000)
/// let verifier = OAuthVerifier(credentials: lookup, nonceStore: store)
/// ```
public final class InMemoryNonceStore: OAuthNonceStore, Sendable {
  /// How long an entry is kept, in seconds, counted from its timestamp (or from when it was recorded, if later).
  public let window: Int64
  /// The most nonces remembered at once (at least 1). With that many live, a new one is refused (``Full``) until one expires.
  public let capacity: Int
  private let clock: any OAuthClock
  private let state: Locked<State>

  /// Why a nonce was not recorded: the store holds ``capacity`` live nonces, none of which may be
  /// forgotten before it expires. The verifier refuses the request as `temporarily_unavailable`
  /// and keeps this description for the provider's logs.
  public struct Full: Error, Sendable, Hashable, CustomStringConvertible {
    /// The store's capacity, all of it live.
    public let capacity: Int
    /// In how many seconds the oldest entry expires and makes room.
    public let secondsUntilRoom: Int64

    /// Creates the error a store of `capacity` live nonces throws, with room in `secondsUntilRoom` seconds.
    public init(capacity: Int, secondsUntilRoom: Int64) {
      self.capacity = capacity
      self.secondsUntilRoom = secondsUntilRoom
    }

    public var description: String {
      "the in-memory nonce store holds \(capacity) live nonces, its capacity, and refuses new ones rather than forget one (room in \(secondsUntilRoom) s); raise InMemoryNonceStore's capacity to the peak requests per second times its window, or share a store such as OAuth1Redis"
    }
  }

  /// Creates an empty store.
  /// - Parameters:
  ///   - window: How long a nonce is kept, in seconds from its timestamp (or from when it was recorded, if later); 600 by default,
  ///     values below 0 count as 0. Keep it at least the verifier's `maxClockSkew`, or a replay can outlive its entry
  ///     (``OAuthVerifier``'s own store uses twice that).
  ///   - capacity: The most nonces kept at once, 100,000 by default; values below 1 count as 1.
  ///   - clock: The clock that ages entries out; the system clock by default. Give it the verifier's clock.
  public init(window: Int64 = 600, capacity: Int = 100_000, clock: any OAuthClock = SystemClock()) {
    self.window = max(0, window)
    self.capacity = max(1, capacity)
    self.clock = clock
    // Room for the first thousands of nonces at once: growing from empty rehashes every key
    // at each doubling, which a busy server would pay in its first seconds.
    state = Locked(State(reserving: min(self.capacity, 4096)))
  }

  /// Records the nonce: `true` for a first use, `false` for a replay.
  /// - Throws: ``Full`` when ``capacity`` live nonces are kept and this one is new.
  public func insert(nonce: String, timestamp: Int64, consumerKey: String, token: String?) async throws(Full) -> Bool {
    let key = Key(nonce: nonce, timestamp: timestamp, consumerKey: consumerKey, token: token)
    let now = clock.secondsSince1970()
    // Saturated: no timestamp, clock or window overflows.
    let (expiry, overflow) = max(timestamp, now).addingReportingOverflow(window)
    let capacity = capacity
    let outcome = state.withLock { state in
      Result { () throws(Full) in try state.insert(key, expiry: overflow ? .max : expiry, now: now, capacity: capacity) }
    }
    return try outcome.get()
  }

  /// How many nonces are remembered now.
  public var count: Int { state.withLock { $0.seen.count } }

  /// How many new nonces were refused because the store was full of live ones.
  public var refusedWhenFull: Int { state.withLock { $0.refused } }

  /// The remembered nonces, behind ``state``'s lock.
  private struct State {
    var seen: Set<Key> = []
    /// The same keys in a binary min-heap on their expiry: the next to expire is at the top, so
    /// expiring costs a logarithm per entry whatever order the expiries came in.
    var expiries: [(expiry: Int64, key: Key)] = []
    var refused = 0

    init(reserving initial: Int) {
      seen.reserveCapacity(initial)
      expiries.reserveCapacity(initial)
    }

    /// Records `key` unless it is there (`false`: a replay), after dropping what expired by
    /// `now`; throws ``Full`` for a new key when `capacity` live ones are kept.
    mutating func insert(_ key: Key, expiry: Int64, now: Int64, capacity: Int) throws(Full) -> Bool {
      expire(now: now)
      // One hash of the key while there is room (the usual case); full, a replay is still told
      // from a new nonce.
      guard seen.count < capacity else {
        if seen.contains(key) { return false }
        refused += 1
        let (wait, overflow) = (expiries.first?.expiry ?? now).subtractingReportingOverflow(now)
        throw Full(capacity: capacity, secondsUntilRoom: overflow ? .max : max(0, wait) &+ 1)
      }
      guard seen.insert(key).inserted else { return false }
      push((expiry, key))
      return true
    }

    private mutating func expire(now: Int64) {
      // Read in place: copying the top entry out would retain and release its strings on every insert.
      while !expiries.isEmpty, expiries[0].expiry < now {
        seen.remove(expiries[0].key)
        popFirst()
      }
    }

    private mutating func push(_ entry: (expiry: Int64, key: Key)) {
      expiries.append(entry)
      var child = expiries.count - 1
      while child > 0 {
        let parent = (child - 1) / 2
        guard expiries[child].expiry < expiries[parent].expiry else { return }
        expiries.swapAt(child, parent)
        child = parent
      }
    }

    private mutating func popFirst() {
      let last = expiries.count - 1
      expiries.swapAt(0, last)
      expiries.removeLast()
      var parent = 0
      while true {
        let left = 2 * parent + 1, right = left + 1
        var smallest = parent
        if left < expiries.count, expiries[left].expiry < expiries[smallest].expiry { smallest = left }
        if right < expiries.count, expiries[right].expiry < expiries[smallest].expiry { smallest = right }
        guard smallest != parent else { return }
        expiries.swapAt(parent, smallest)
        parent = smallest
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
