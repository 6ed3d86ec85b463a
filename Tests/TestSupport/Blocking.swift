import Foundation

/// Runs `work`, which blocks (waits for processes, sleeps), on a thread of its own, so that a
/// long blocking test does not hold one of the few threads every other async test shares.
public func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    let thread = Thread { continuation.resume(with: Result { try work() }) }
    thread.start()
  }
}
