import Foundation

/// Runs `work`, which blocks (waits for processes, sleeps), on a thread of its own, so that a
/// long blocking test does not hold one of the few threads every other async test shares.
public func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    let thread = Thread { continuation.resume(with: Result { try work() }) }
    thread.start()
  }
}

extension Process {
  /// Waits for the process to exit without holding a thread of the concurrency pool (the wait
  /// runs on a thread of its own, ``onOwnThread(_:)``), and without trusting Foundation alone to
  /// notice the exit (``ChildExit``): how it ended. Read its status from here, never from
  /// `terminationStatus`, which traps for a child ``ChildExit`` reaped. A test that starts a
  /// process, sleeps a random moment and kills it awaits this.
  @discardableResult
  public func exited() async throws -> ChildExit.Status {
    try await onOwnThread { ChildExit.wait(self, until: .distantFuture)! }
  }
}

extension Process {
  /// `run()`, one start at a time in this test process. A loaded suite run crashed inside
  /// Foundation's `Process.run()` (a `memcpy` past a buffer's end) while many threads started
  /// children at once; a start takes milliseconds, so taking turns costs nothing.
  public func runOneAtATime() throws {
    try processStarts.withLock { try run() }
  }
}

private let processStarts = NSLock()
