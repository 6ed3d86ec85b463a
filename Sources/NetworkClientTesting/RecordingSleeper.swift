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
public final class RecordingSleeper: Sleeper, @unchecked Sendable {
  private let lock = NSLock()
  private var recorded: [TimeInterval] = []

  /// Creates a sleeper that has recorded no wait yet.
  public init() {}

  /// Every wait asked for so far, in seconds, in order.
  public var waits: [TimeInterval] { lock.withLock { recorded } }

  public func sleep(seconds: TimeInterval) async throws {
    lock.withLock { recorded.append(seconds) }
    try Task.checkCancellation()
  }
}
