import Foundation

/// Where a table goes: standard output, or a file that appears under its name only whole.
///
/// A regular file (or a new one) is written beside its final name (`FILE.partial`) in 64 KiB
/// pieces and renamed at ``finish()``, so that a run stopped half way leaves no half table that
/// reads as a whole one. Anything else (`/dev/null`, `/dev/stdout`, a named pipe) is written to
/// as it is: renaming over it would replace the device or pipe with a file.
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
  private let handle: FileHandle?
  private var buffer = ""
  private var failure: (any Error)?

  /// Writes to `file`, or to `terminal`'s standard output when `file` is `nil`.
  init(file: URL?, terminal: Terminal) throws {
    self.terminal = terminal
    guard let file else {
      (self.file, handle) = (nil, nil)
      return
    }
    var status = stat()
    // stat follows a symbolic link (/dev/stdout): what counts is what it leads to.
    let inPlace = stat(file.path, &status) == 0 && (status.st_mode & S_IFMT) != S_IFREG
    let written = inPlace ? file : Self.partial(file)
    guard inPlace || FileManager.default.createFile(atPath: written.path, contents: nil), let handle = FileHandle(forWritingAtPath: written.path)
    else {
      throw TweetsFailure("cannot write \(written.path): \(String(cString: strerror(errno)))", exitCode: .failure)
    }
    (self.file, self.handle) = (inPlace ? nil : file, handle)
  }

  /// Adds `text`; it is written when 64 KiB have gathered.
  func write(_ text: String) {
    buffer += text
    if buffer.utf8.count >= 65_536 { flush() }
  }

  /// Writes what is left, and gives the file its name; a write that failed is thrown here.
  func finish() throws {
    flush()
    try? handle?.close()
    if let failure { throw TweetsFailure("cannot write \(file.map(Self.partial)?.path ?? "the table"): \(failure)", exitCode: .failure) }
    guard let file else { return }
    guard rename(Self.partial(file).path, file.path) == 0 else {
      throw TweetsFailure("cannot rename the table to \(file.path): \(String(cString: strerror(errno)))", exitCode: .failure)
    }
  }

  /// Removes what was written beside the file, after a failure: no half table is left.
  func abandon() {
    try? handle?.close()
    if let file { try? FileManager.default.removeItem(at: Self.partial(file)) }
  }

  private func flush() {
    guard !buffer.isEmpty else { return }
    defer { buffer = "" }
    guard let handle else { return terminal.writeOut(buffer) }
    guard failure == nil else { return }
    do { try handle.write(contentsOf: Data(buffer.utf8)) } catch { failure = error }
  }

  private static func partial(_ file: URL) -> URL { URL(fileURLWithPath: file.path + ".partial") }
}
