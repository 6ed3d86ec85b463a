import Foundation

/// How a behavior waits (between retries), so that tests can wait without time passing.
///
/// ```swift
/// RetryBehavior(sleeper: TaskSleeper())  // the default: Task.sleep, cancellable
/// ```
public protocol Sleeper: Sendable {
  /// Waits `seconds`; throws `CancellationError` when the task is cancelled meanwhile.
  func sleep(seconds: TimeInterval) async throws
}

/// Sleeps with `Task.sleep`.
public struct TaskSleeper: Sleeper {
  /// Creates a sleeper that waits with `Task.sleep`, returns at once for 0 seconds or less, and throws
  /// `CancellationError` when the task is cancelled.
  public init() {}
  public func sleep(seconds: TimeInterval) async throws {
    guard seconds > 0 else { return }
    try await Task.sleep(nanoseconds: UInt64(min(seconds, 1e9) * 1_000_000_000))
  }
}
