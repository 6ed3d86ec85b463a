import Foundation
import Locking
import OAuth1

/// A clock a test moves by hand: to age nonces out of a store, or to step past a rate-limit
/// reset, without waiting. Safe to share between tasks. (For a clock that never moves, use
/// `FixedClock` (in `OAuth1`).)
///
/// ```swift
/// let clock = ManualClock(seconds: 1_000)
/// let store = InMemoryNonceStore(window: 600, clock: clock)
/// clock.advance(by: 601)
/// ```
public final class ManualClock: OAuthClock, Sendable {
  private let now: Locked<Int64>

  /// Creates a clock that reads `seconds` since 1970-01-01T00:00:00Z until ``advance(by:)`` moves it.
  public init(seconds: Int64) {
    now = Locked(seconds)
  }

  public func secondsSince1970() -> Int64 { now.withLock { $0 } }

  /// Moves the clock by `seconds` (backwards when negative).
  public func advance(by seconds: Int64) {
    now.withLock { $0 += seconds }
  }
}
