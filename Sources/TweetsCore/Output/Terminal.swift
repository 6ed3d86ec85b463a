import Foundation

/// Where the tool writes and reads: the standard streams in the program, buffers in tests.
public struct Terminal: Sendable {
  public var writeOut: @Sendable (String) -> Void
  public var writeError: @Sendable (String) -> Void
  public var readLine: @Sendable () -> String?
  /// Whether standard output is a terminal (for colour and progress).
  public var isInteractive: Bool
  /// Whether colour may be used: a terminal, and no `NO_COLOR`.
  public var useColor: Bool

  public init(
    writeOut: @escaping @Sendable (String) -> Void, writeError: @escaping @Sendable (String) -> Void,
    readLine: @escaping @Sendable () -> String?, isInteractive: Bool, useColor: Bool
  ) {
    self.writeOut = writeOut
    self.writeError = writeError
    self.readLine = readLine
    self.isInteractive = isInteractive
    self.useColor = useColor
  }

  /// The process's own standard streams.
  public static func standard(environment: [String: String]) -> Terminal {
    let interactive = isatty(STDOUT_FILENO) == 1
    return Terminal(
      writeOut: { text in FileHandle.standardOutput.write(Data(text.utf8)) },
      writeError: { text in FileHandle.standardError.write(Data(text.utf8)) },
      readLine: { Swift.readLine(strippingNewline: true) },
      isInteractive: interactive,
      useColor: interactive && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb")
  }

  public func out(_ line: String) { writeOut(line + "\n") }
  public func err(_ line: String) { writeError(line + "\n") }
}
