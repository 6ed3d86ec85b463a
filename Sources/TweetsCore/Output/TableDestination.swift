import CommandLineSupport
import Foundation

/// Where a table goes: standard output, or a file that appears under its name only whole.
///
/// A regular file (or a new one) is written beside its final name (`FILE.partial`) in 64 KiB
/// pieces and renamed at ``finish()``, so that a run stopped half way leaves no half table that
/// reads as a whole one. Anything else (`/dev/null`, `/dev/stdout`, a named pipe) is written to
/// as it is: renaming over it would replace the device or pipe with a file. Every write is
/// checked (``CheckedOutput``): the first that fails is kept, nothing more is written, and
/// ``finish()`` throws it.
///
/// ```swift
/// let table = try TableDestination(file: URL(fileURLWithPath: "posts.csv"), terminal: terminal)
/// table.write("id,text\n")
/// try table.finish()
/// ```
final class TableDestination {
  private let terminal: Terminal
  /// The file renamed to its name at the end; `nil` for standard output or a file written in place.
  private let file: URL?
  /// The file written (the `.partial` beside it, or the file itself in place); `nil` for standard output.
  private let output: CheckedOutput?
  private var buffer = ""

  /// Writes to `file`, or to `terminal`'s standard output when `file` is `nil`.
  init(file: URL?, terminal: Terminal) throws {
    self.terminal = terminal
    guard let file else {
      (self.file, output) = (nil, nil)
      return
    }
    var status = stat()
    // stat follows a symbolic link (/dev/stdout): what counts is what it leads to.
    let inPlace = stat(file.path, &status) == 0 && (status.st_mode & S_IFMT) != S_IFREG
    let written = inPlace ? file : Self.partial(file)
    let descriptor = open(written.path, O_WRONLY | O_CLOEXEC | (inPlace ? 0 : O_CREAT | O_TRUNC), 0o644)
    guard descriptor >= 0 else {
      throw TweetsFailure("cannot write \(written.path): \(String(cString: strerror(errno)))", exitCode: .failure)
    }
    (self.file, output) = (inPlace ? nil : file, CheckedOutput(descriptor: descriptor, naming: written.path))
  }

  deinit { close() }

  /// Adds `text`; it is written when 64 KiB have gathered.
  func write(_ text: String) {
    buffer += text
    if buffer.utf8.count >= 65_536 { flush() }
  }

  /// Throws the first write that failed, to the file or to standard output: a loop that
  /// produces rows asks between them, to stop producing what can no longer be written.
  func check() throws(WriteFailure) {
    if let output { try output.check() } else { try terminal.checkOutput() }
  }

  /// Writes what is left, and gives the file its name; a write that failed is thrown here.
  func finish() throws {
    flush()
    close()
    try check()
    guard let file else { return }
    guard rename(Self.partial(file).path, file.path) == 0 else {
      throw TweetsFailure("cannot rename the table to \(file.path): \(String(cString: strerror(errno)))", exitCode: .failure)
    }
  }

  /// Removes what was written beside the file, after a failure: no half table is left.
  func abandon() {
    close()
    if let file { try? FileManager.default.removeItem(at: Self.partial(file)) }
  }

  private var closed = false

  private func close() {
    guard let output, !closed else { return }
    closed = true
    Foundation.close(output.descriptor)
  }

  private func flush() {
    guard !buffer.isEmpty else { return }
    defer { buffer = "" }
    if let output { output.write(buffer) } else { terminal.writeOut(buffer) }
  }

  private static func partial(_ file: URL) -> URL { URL(fileURLWithPath: file.path + ".partial") }
}
