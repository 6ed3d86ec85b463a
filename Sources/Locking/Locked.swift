import Foundation

/// A value behind a lock: the package's one lock type, for state that concurrent tasks and
/// threads share. (`Synchronization.Mutex` would do, but needs macOS 15; this runs wherever
/// Foundation does.) A thread that must wait for the value to reach some state (a queue that
/// is no longer empty) waits here too, with ``withLock(waitingUntil:_:)``, rather than through
/// a second primitive.
///
/// ```swift
/// let count = Locked(0)
/// count.withLock { $0 += 1 }
/// ```
///
/// Invariant (why `@unchecked Sendable` is sound, and the only such lock in the package):
/// `value` is read and written only inside `withLock`'s body, while `condition`'s mutex is
/// held, so no two threads ever touch it at once; `waiters` is guarded the same way. The body
/// must not let the `inout` value escape. Each `withLock` wakes the waiting threads when there
/// are any, so a change cannot go unseen by a waiter; with none waiting it costs one comparison.
public final class Locked<Value>: @unchecked Sendable {
  private let condition = NSCondition()
  private var value: Value
  /// How many threads are in ``withLock(waitingUntil:_:)`` waiting for a change.
  private var waiters = 0

  /// A lock around `value`.
  public init(_ value: Value) { self.value = value }

  /// Runs `body` with the value, alone: no other `withLock` runs meanwhile.
  public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    condition.lock()
    defer { unlock() }
    return try body(&value)
  }

  /// Waits until `isReady` holds for the value, then runs `body` with it, alone. The thread
  /// blocks (use it on threads of your own, never on Swift's cooperative pool); every other
  /// `withLock` wakes it to check `isReady` again.
  ///
  /// ```swift
  /// let jobs = Locked([String]())
  /// // A worker thread:
  /// let hasWork: ([String]) -> Bool = { !$0.isEmpty }
  /// let job = jobs.withLock(waitingUntil: hasWork) { $0.removeFirst() }
  /// ```
  public func withLock<Result>(waitingUntil isReady: (Value) -> Bool, _ body: (inout Value) throws -> Result) rethrows -> Result {
    condition.lock()
    defer { unlock() }
    while !isReady(value) { wait(until: nil) }
    return try body(&value)
  }

  /// Like ``withLock(waitingUntil:_:)``, but gives up at `deadline`: `nil` when `isReady`
  /// still does not hold then, and `body` does not run.
  ///
  /// ```swift
  /// let ready = Locked(false)
  /// let late = ready.withLock(waitingUntil: \.self, deadline: Date().addingTimeInterval(5)) { _ in } == nil
  /// ```
  public func withLock<Result>(
    waitingUntil isReady: (Value) -> Bool, deadline: Date, _ body: (inout Value) throws -> Result
  ) rethrows -> Result? {
    condition.lock()
    defer { unlock() }
    while !isReady(value) {
      guard wait(until: deadline) else { return isReady(value) ? try body(&value) : nil }
    }
    return try body(&value)
  }

  /// Waits for the next `withLock` (with the mutex held); `false` once `deadline` passed.
  @discardableResult
  private func wait(until deadline: Date?) -> Bool {
    waiters += 1
    defer { waiters -= 1 }
    guard let deadline else {
      condition.wait()
      return true
    }
    return condition.wait(until: deadline)
  }

  private func unlock() {
    if waiters > 0 { condition.broadcast() }
    condition.unlock()
  }
}
