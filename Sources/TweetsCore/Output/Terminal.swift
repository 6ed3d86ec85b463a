import CommandLineSupport
import Foundation

/// Where the tool writes and reads: the standard streams in the program, buffers in tests.
package struct Terminal: Sendable {
  /// Writes to the standard output (results: tweets, JSON, help), exactly the text given. It
  /// cannot throw: a write that failed is kept, and ``outputFailure`` tells it.
  package var writeOut: @Sendable (String) -> Void
  /// Writes to the standard error (errors, progress, prompts, `--verbose` logs); a failure
  /// there is dropped, since there is nowhere left to report it.
  package var writeError: @Sendable (String) -> Void
  /// The first write to the standard output that failed (a full disk, a closed pipe), or `nil`:
  /// what a command asks between pages, to stop fetching what can no longer be written.
  package var outputFailure: @Sendable () -> WriteFailure?
  /// Reads one line of standard input without its newline (the PIN); `nil` at end of input.
  package var readLine: @Sendable () -> String?
  /// Whether standard output is a terminal (for colour).
  package var isInteractive: Bool
  /// Whether standard error is a terminal: progress lines and countdowns are shown there, in
  /// place, whatever standard output is (a file, a pipe), and never when it is not a terminal.
  package var errorIsInteractive: Bool
  /// Whether colour may be used: a terminal, and no `NO_COLOR`.
  package var useColor: Bool

  /// A terminal made of these functions and facts; tests pass buffers.
  package init(
    writeOut: @escaping @Sendable (String) -> Void, writeError: @escaping @Sendable (String) -> Void,
    readLine: @escaping @Sendable () -> String?, isInteractive: Bool, useColor: Bool, errorIsInteractive: Bool = false,
    outputFailure: @escaping @Sendable () -> WriteFailure? = { nil }
  ) {
    self.writeOut = writeOut
    self.writeError = writeError
    self.outputFailure = outputFailure
    self.readLine = readLine
    self.isInteractive = isInteractive
    self.useColor = useColor
    self.errorIsInteractive = errorIsInteractive
  }

  /// The process's own standard streams, written through ``CheckedOutput``: a failed write
  /// is kept, never a crash.
  package static func standard(environment: [String: String]) -> Terminal {
    let interactive = isatty(STDOUT_FILENO) == 1
    return Terminal(
      writeOut: { text in CheckedOutput.standardOutput.write(text) },
      writeError: { text in CheckedOutput.standardError.write(text) },
      readLine: { Swift.readLine(strippingNewline: true) },
      isInteractive: interactive,
      useColor: interactive && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb",
      errorIsInteractive: isatty(STDERR_FILENO) == 1 && environment["TERM"] != "dumb",
      outputFailure: { CheckedOutput.standardOutput.failure })
  }

  /// Throws the standard output's first failed write, if one happened: called at page
  /// boundaries, so that a fetch stops instead of paying for posts that cannot be written.
  package func checkOutput() throws(WriteFailure) {
    if let failure = outputFailure() { throw failure }
  }

  /// Rewrites the status line on the standard error in place (`\r`, erase the line, `text`),
  /// when it is a terminal; nothing otherwise.
  package func status(_ text: String) {
    if errorIsInteractive { writeError("\r\u{1B}[K" + text) }
  }

  /// Writes `line` and a newline to the standard output.
  package func out(_ line: String) { writeOut(line + "\n") }
  /// Writes `line` and a newline to the standard error.
  package func err(_ line: String) { writeError(line + "\n") }
}
