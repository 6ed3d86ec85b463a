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
  /// `run()`, one start at a time, and only while this test process has fewer than
  /// ``maxOpenDescriptorsToStart`` open file descriptors.
  ///
  /// Why: Foundation's `Process.run()` on Linux lists `/proc/self/fd` and copies each entry's
  /// whole 256-byte name field (swift-corelibs-foundation PR #5472, fixed after Swift 6.3.1):
  /// once the listing fills glibc's 32 KiB directory buffer (about 1,350 descriptors), the
  /// last copy can read past the buffer into an unmapped page. Loaded suite runs crashed there
  /// (`memcpy` in `Process.run`) with 1,405 descriptors open. So a start waits, up to
  /// ``descriptorWait`` seconds, until other tests have closed enough of theirs.
  public func runOneAtATime() throws {
    try processStarts.withLock {
      let deadline = Date().addingTimeInterval(Process.descriptorWait)
      while Process.openDescriptors() >= Process.maxOpenDescriptorsToStart && Date() < deadline { usleep(20_000) }
      try run()
    }
  }

  /// The most descriptors this process may have open when it starts a child (well under the
  /// about 1,350 at which Foundation's listing of them can crash).
  public static let maxOpenDescriptorsToStart = 1_200

  /// How long a start waits for descriptors to be closed before it goes ahead regardless.
  public static let descriptorWait: TimeInterval = 10

  /// How many descriptors this process has open (the entries of `/proc/self/fd`, read by
  /// FileManager, whose listing copies names by their length).
  static func openDescriptors() -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
  }
}

private let processStarts = NSLock()
