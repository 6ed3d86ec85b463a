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
/// has been a zombie (exited, not reaped) for ``reapAfter`` seconds: then it is reaped here,
/// with `waitpid`, and its status read from that.
///
/// Once a child is reaped here, Foundation believes it runs for ever: its `terminationStatus`
/// must not be read (it traps). Callers take the status from ``Status``.
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

  /// How long a child may stay a zombie before it is reaped here instead of by Foundation.
  public static let reapAfter: TimeInterval = 1

  /// Blocks until `process` (started) has exited, or until `deadline`: its status, or `nil` when
  /// it still runs at the deadline. It polls every 10 ms; call it on a thread of its own.
  public static func wait(_ process: Process, until deadline: Date) -> Status? {
    let pid = process.processIdentifier
    var zombieSince: Date?
    while true {
      if let status = reaped.withLock({ $0[Key(process: ObjectIdentifier(process), pid: pid)] }) { return status }
      if !process.isRunning {
        return Status(
          code: process.terminationStatus, signal: process.terminationReason == .uncaughtSignal ? process.terminationStatus : nil)
      }
      if isZombie(pid) {
        let since = zombieSince ?? Date()
        zombieSince = since
        if Date().timeIntervalSince(since) >= reapAfter {
          var status: Int32 = 0
          if waitpid(pid, &status, WNOHANG) == pid {
            let decoded = decode(status)
            reaped.withLock { $0[Key(process: ObjectIdentifier(process), pid: pid)] = decoded }
            return decoded
          }
          // -1: Foundation reaped it meanwhile, and `isRunning` turns false.
        }
      }
      if Date() >= deadline { return nil }
      usleep(10_000)
    }
  }

  /// The statuses of the children reaped here, for a second wait on the same process (which
  /// Foundation still believes running). Kept for the run: a few per test at most.
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

  /// `WIFEXITED`/`WEXITSTATUS`/`WTERMSIG`, which Swift does not import from C's macros.
  static func decode(_ status: Int32) -> Status {
    let signal = status & 0x7f
    return signal == 0 ? Status(code: (status >> 8) & 0xff, signal: nil) : Status(code: signal, signal: signal)
  }
}
