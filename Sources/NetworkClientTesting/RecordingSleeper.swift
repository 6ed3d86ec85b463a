import Foundation
import NetworkClient

/// A `Sleeper` (from `NetworkClient`) that records each wait and returns at once, so that a test of
/// retries and rate limits neither waits nor depends on time (cancellation is still honoured).
///
/// ```swift
/// let sleeper = RecordingSleeper()
/// let retry = RetryBehavior(sleeper: sleeper)
/// // … send through a client with `retry` …
/// sleeper.waits  // [0.5, 1.2]
/// ```
public final class RecordingSleeper: Sleeper, Sendable {
  private let recorded = Locked<[TimeInterval]>([])

  /// Creates a sleeper that has recorded no wait yet.
  public init() {}

  /// Every wait asked for so far, in seconds, in order.
  public var waits: [TimeInterval] { recorded.withLock { $0 } }

  public func sleep(seconds: TimeInterval) async throws {
    recorded.withLock { $0.append(seconds) }
    try Task.checkCancellation()
  }
}
