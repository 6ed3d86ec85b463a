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
  /// Waits for the process to exit without holding a thread of the concurrency pool: the
  /// blocking `waitUntilExit()` runs on a thread of its own (``onOwnThread(_:)``). A test that
  /// starts a process, sleeps a random moment and kills it awaits this instead.
  public func exited() async throws {
    try await onOwnThread { self.waitUntilExit() }
  }
}
