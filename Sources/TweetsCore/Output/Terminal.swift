import Foundation

/// Where the tool writes and reads: the standard streams in the program, buffers in tests.
package struct Terminal: Sendable {
  /// Writes to the standard output (results: tweets, JSON, help), exactly the text given.
  package var writeOut: @Sendable (String) -> Void
  /// Writes to the standard error (errors, progress, prompts, `--verbose` logs).
  package var writeError: @Sendable (String) -> Void
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
    readLine: @escaping @Sendable () -> String?, isInteractive: Bool, useColor: Bool, errorIsInteractive: Bool = false
  ) {
    self.writeOut = writeOut
    self.writeError = writeError
    self.readLine = readLine
    self.isInteractive = isInteractive
    self.useColor = useColor
    self.errorIsInteractive = errorIsInteractive
  }

  /// The process's own standard streams.
  package static func standard(environment: [String: String]) -> Terminal {
    let interactive = isatty(STDOUT_FILENO) == 1
    return Terminal(
      writeOut: { text in FileHandle.standardOutput.write(Data(text.utf8)) },
      writeError: { text in FileHandle.standardError.write(Data(text.utf8)) },
      readLine: { Swift.readLine(strippingNewline: true) },
      isInteractive: interactive,
      useColor: interactive && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb",
      errorIsInteractive: isatty(STDERR_FILENO) == 1 && environment["TERM"] != "dumb")
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
