import Foundation

/// A value behind a lock, for behaviors that keep state across concurrent requests.
/// (`Synchronization.Mutex` would do, but needs macOS 15; this runs wherever Foundation does.)
///
/// ```swift
/// let count = Locked(0)
/// count.withLock { $0 += 1 }
/// ```
public final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  /// A lock around `value`.
  public init(_ value: Value) { self.value = value }

  /// Runs `body` with the value, alone: no other `withLock` runs meanwhile.
  public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
