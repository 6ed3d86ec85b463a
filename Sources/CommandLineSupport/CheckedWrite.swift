import Foundation
import Locking

/// Why bytes could not be written: what they were for (standard output, a path) and the
/// system's error number, so that a tool can say which output failed and why, and tell a
/// reader that went away (`EPIPE`) from a disk that is full.
///
/// ```swift
/// do { try CheckedWrite.all(Data("hi\n".utf8), to: STDOUT_FILENO, naming: "standard output") } catch {
///   if !error.isClosedPipe { print(error) }  // cannot write to standard output: No space left on device
/// }
/// ```
package struct WriteFailure: Error, Sendable, Hashable, CustomStringConvertible {
  /// What could not be written: `standard output`, or a file's path.
  package let target: String
  /// The system's error number (`ENOSPC`, `EIO`, `EBADF`, `EPIPE`, ...).
  package let code: Int32

  /// A failure of writing to `target` with the error number `code`.
  package init(target: String, code: Int32) {
    self.target = target
    self.code = code
  }

  /// Whether the reader of a pipe or socket went away (`tweets ... | head -1`): no error to
  /// report, only a reason to stop.
  package var isClosedPipe: Bool { code == EPIPE }

  /// `cannot write to TARGET: REASON`, the system's words for the error number.
  package var description: String { "cannot write to \(target): \(String(cString: strerror(code)))" }
}

/// The one way the command-line tools write bytes to a file descriptor: `write(2)` until every
/// byte is written, again after an interruption (`EINTR`) or a partial write, and a thrown
/// ``WriteFailure`` when the system refuses. Foundation's `FileHandle.write(_:)` stops the
/// process (SIGILL) on any error, and `print` loses the error in C's buffer; neither may write
/// what the tools produce.
package enum CheckedWrite {
  /// Writes all of `data` to `descriptor`; `target` names it in the failure.
  package static func all(_ data: Data, to descriptor: Int32, naming target: String) throws(WriteFailure) {
    let code = data.withUnsafeBytes { buffer -> Int32? in
      var written = 0
      while written < buffer.count {
        let result = Foundation.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
        if result < 0 {
          if errno == EINTR { continue }
          return errno
        }
        written += result
      }
      return nil
    }
    if let code { throw WriteFailure(target: target, code: code) }
  }
}

/// An output of a tool (standard output, standard error, a file written in place) that keeps
/// its first failure: after it, nothing more is written (no later line lands after a gap), and
/// the command, which writes through closures that cannot throw, asks ``failure`` at its page
/// boundaries and stops instead of fetching what can no longer be written. Writes are whole
/// and one at a time, so lines written from several tasks never interleave.
///
/// ```swift
/// let output = CheckedOutput.standardOutput
/// output.write("a line\n")
/// try output.check()  // throws the WriteFailure of the first write that failed
/// ```
package final class CheckedOutput: Sendable {
  /// The process's standard output.
  package static let standardOutput = CheckedOutput(descriptor: STDOUT_FILENO, naming: "standard output")
  /// The process's standard error: its failures are kept too, but nothing can report them.
  package static let standardError = CheckedOutput(descriptor: STDERR_FILENO, naming: "standard error")

  /// The descriptor written to; not closed here.
  package let descriptor: Int32
  /// What the descriptor is, for messages: `standard output`, a path.
  package let target: String
  private let state = Locked<WriteFailure?>(nil)

  /// An output writing to `descriptor`, which `target` names in a failure.
  package init(descriptor: Int32, naming target: String) {
    self.descriptor = descriptor
    self.target = target
  }

  /// Writes all of `data`, unless an earlier write failed; `false` when nothing more can be written.
  @discardableResult
  package func write(_ data: Data) -> Bool {
    state.withLock { failure in
      guard failure == nil else { return false }
      do throws(WriteFailure) {
        try CheckedWrite.all(data, to: descriptor, naming: target)
        return true
      } catch {
        failure = error
        return false
      }
    }
  }

  /// Writes `text` in UTF-8, unless an earlier write failed; `false` when nothing more can be written.
  @discardableResult
  package func write(_ text: String) -> Bool { write(Data(text.utf8)) }

  /// The first write that failed, or `nil`.
  package var failure: WriteFailure? { state.withLock { $0 } }

  /// Throws the first write that failed, if one did.
  package func check() throws(WriteFailure) {
    if let failure { throw failure }
  }

  /// Ends the process with `status`, or, when standard output's reader went away (`EPIPE`: the
  /// signal was ignored, by this process or by a library for a while), the way a Unix tool
  /// ends then: killed by SIGPIPE, silently (a shell shows status 141). Without the ignoring,
  /// the kernel sends SIGPIPE at the failed write itself, to the same end.
  package static func exit(_ status: Int32) -> Never {
    if standardOutput.failure?.isClosedPipe == true {
      signal(SIGPIPE, SIG_DFL)
      var signals = sigset_t()
      sigemptyset(&signals)
      sigaddset(&signals, SIGPIPE)
      sigprocmask(SIG_UNBLOCK, &signals, nil)
      raise(SIGPIPE)
    }
    Foundation.exit(status)
  }
}
