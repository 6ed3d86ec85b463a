import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// How the tests wait for a child process to exit, without trusting Foundation alone to notice.
///
/// Foundation's `Process` on Linux learns of a child's exit from SIGCHLD and reaps it then; a
/// loaded suite run showed it missing one: a Python server stayed a zombie for 27 minutes
/// while `waitUntilExit()` spun on it, holding a thread of the concurrency pool, and the run
/// never ended. So a wait here ends when Foundation says the child is gone, or when the child
/// has been a zombie (exited, not reaped) for ``reapAfter`` seconds: then its status is read
/// here with `waitid(WNOWAIT)`, which leaves the child for Foundation to reap.
///
/// Callers take the status from ``Status``, never from `terminationStatus`, which traps while
/// Foundation has not seen the exit.
///
/// ```swift
/// try process.runOneAtATime()
/// guard let status = ChildExit.wait(process, until: Date() + 60) else { /* still running */ }
/// ```
public enum ChildExit {
  /// How a child ended.
  public struct Status: Sendable, Equatable {
    /// The exit code, or the number of the signal that ended it.
    public let code: Int32
    /// The signal that ended it, `nil` when it exited.
    public let signal: Int32?
  }

  /// How long a child may stay a zombie before its status is read here instead of from Foundation.
  public static let reapAfter: TimeInterval = 1

  /// Blocks until `process` (started) has exited, or until `deadline`: its status, or `nil` when
  /// it still runs at the deadline. It polls every 10 ms; call it on a thread of its own.
  public static func wait(_ process: Process, until deadline: Date) -> Status? {
    let pid = process.processIdentifier
    var zombieSince: Date?
    while true {
      if let status = reaped.withLock({ $0[Key(process: ObjectIdentifier(process), pid: pid)] }) { return status }
      if !process.isRunning {
        // Foundation has seen the exit, so this returns at once; and it is where Foundation
        // lets go of the child's pipes: polled without it, every child leaked its three read
        // ends (600 descriptors for 200 children of `/bin/true`, 14 with it), and a suite run
        // reached the 1,350 descriptors at which `Process.run()` itself can crash.
        process.waitUntilExit()
        return Status(
          code: process.terminationStatus, signal: process.terminationReason == .uncaughtSignal ? process.terminationStatus : nil)
      }
      if isZombie(pid) {
        let since = zombieSince ?? Date()
        zombieSince = since
        if Date().timeIntervalSince(since) >= reapAfter {
          // WNOWAIT: the status is read and the child left for Foundation to reap. Reaped here,
          // Foundation kept each such process and its pipes for ever: a run leaked 1,100 pipes.
          var info = siginfo_t()
          if waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0, info._sifields._sigchld.si_pid == pid {
            let code = info._sifields._sigchld.si_status
            let decoded = info.si_code == CLD_EXITED ? Status(code: code, signal: nil) : Status(code: code, signal: code)
            reaped.withLock { $0[Key(process: ObjectIdentifier(process), pid: pid)] = decoded }
            return decoded
          }
          // Otherwise Foundation reaped it meanwhile, and `isRunning` turns false.
        }
      }
      if Date() >= deadline { return nil }
      usleep(10_000)
    }
  }

  /// The statuses read here, for a second wait on the same process (which Foundation may still
  /// believe running). Kept for the run: a few per test at most.
  private static let reaped = Reaped()

  /// A process object and its child's id: an object's address may serve a later process, whose
  /// child has another id.
  private struct Key: Hashable {
    let process: ObjectIdentifier
    let pid: Int32
  }

  private final class Reaped: @unchecked Sendable {
    private let lock = NSLock()
    private var statuses: [Key: Status] = [:]
    func withLock<T>(_ body: (inout [Key: Status]) -> T) -> T {
      lock.lock()
      defer { lock.unlock() }
      return body(&statuses)
    }
  }

  /// Whether `pid` is a child that has exited and is not reaped yet (state `Z` in
  /// `/proc/PID/stat`).
  static func isZombie(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return false }
    // "PID (COMMAND) STATE ...": the command may hold spaces and parentheses, the state follows the last ")".
    return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
  }

}
