import Foundation
import Testing

/// The trait that checks, after each test, every ``SandboxProcess`` the test started: the
/// processes are stopped and their answers checked against X's specification (``SpecCheck``)
/// on threads of their own, and a finding is recorded as an issue of that test.
///
/// Why a trait: the check waits for the one checker process, which other tests' checks may be
/// using for seconds. Done in a sandbox's `deinit` at the end of a test, that wait held one of
/// the concurrency pool's threads (two on a 2-core machine); two tests ending together held
/// both, and every other test's awaits stood still: a library call bounded at 4 s took 66 s
/// in a loaded CI run. Here the test's task awaits the check and holds no thread.
///
/// Every suite that starts a sandbox carries it; a sandbox started outside it is an issue:
///
/// ```swift
/// @Suite(.sandboxChecks) struct TimelineTests {
///   @Test func timeline() async throws {
///     let server = try await VerifiedSandbox.start()  // checked when the test ends
///   }
/// }
/// ```
public struct SandboxChecks: TestTrait, SuiteTrait, TestScoping {
  public var isRecursive: Bool { true }

  public func scopeProvider(for test: Test, testCase: Test.Case?) -> SandboxChecks? {
    testCase == nil ? nil : self
  }

  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    // One of `concurrentTests` turns: these tests start processes (a sandbox, its proxy, the
    // commands under test), and started off the pool nothing else bounds how many run at once:
    // a run had 171 children and 744 pipes open and stalled.
    await SandboxChecks.turns.take()
    let started = Started()
    do {
      try await Started.$current.withValue(started) { try await function() }
    } catch {
      await started.check()
      await SandboxChecks.turns.give()
      throw error
    }
    await started.check()
    await SandboxChecks.turns.give()
  }

  /// How many tests with this trait run at once: two per core.
  public static let concurrentTests = 2 * ProcessInfo.processInfo.activeProcessorCount
  static let turns = Turns(concurrentTests)

  /// A counting semaphore for tasks: a task waiting for its turn holds no thread.
  actor Turns {
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ count: Int) { free = count }

    func take() async {
      if free > 0 {
        free -= 1
        return
      }
      await withCheckedContinuation { waiting.append($0) }
    }

    func give() {
      if waiting.isEmpty {
        free += 1
      } else {
        waiting.removeFirst().resume()
      }
    }
  }

  /// The sandboxes one test started, checked in the order they started.
  final class Started: @unchecked Sendable {
    @TaskLocal static var current: Started?

    private let lock = NSLock()
    private var processes: [SandboxProcess] = []

    func add(_ process: SandboxProcess) {
      lock.withLock {
        if !processes.contains(where: { $0 === process }) { processes.append(process) }
      }
    }

    /// Stops and checks each sandbox off the pool, then records its findings in the test.
    func check() async {
      let all = lock.withLock {
        defer { processes = [] }
        return processes
      }
      for process in all {
        let finding = try? await onOwnThread { process.stopAndCheck() }
        if let finding = finding ?? nil { Issue.record(Comment(rawValue: finding)) }
      }
    }
  }

  /// Hands `process` to the running test's checks; outside a test with this trait, records an
  /// issue (its check then runs when it goes away, on whatever thread drops it).
  static func adopt(_ process: SandboxProcess) {
    guard let started = Started.current else {
      Issue.record("A sandbox was started in a test without the .sandboxChecks trait: add it to the suite (Tests/TestSupport/SandboxChecks.swift)")
      return
    }
    started.add(process)
  }
}

extension Trait where Self == SandboxChecks {
  /// Checks every sandbox a test starts when the test ends, off the concurrency pool
  /// (``SandboxChecks``).
  public static var sandboxChecks: SandboxChecks { SandboxChecks() }
}
