import Foundation

/// Where a table goes: standard output, or a file that appears under its name only whole.
///
/// The file is written beside its final name (`FILE.partial`) in 64 KiB pieces and renamed at
/// ``finish()``, so that a run stopped half way leaves no half table that reads as a whole one.
///
/// ```swift
/// let table = try TableDestination(file: URL(fileURLWithPath: "posts.csv"), terminal: terminal)
/// table.write("id,text\n")
/// try table.finish()
/// ```
final class TableDestination {
  private let terminal: Terminal
  private let file: URL?
  private let handle: FileHandle?
  private var buffer = ""
  private var failure: (any Error)?

  /// Writes to `file`, or to `terminal`'s standard output when `file` is `nil`.
  init(file: URL?, terminal: Terminal) throws {
    self.terminal = terminal
    self.file = file
    guard let file else {
      handle = nil
      return
    }
    let partial = Self.partial(file)
    guard FileManager.default.createFile(atPath: partial.path, contents: nil), let handle = FileHandle(forWritingAtPath: partial.path) else {
      throw TweetsFailure("cannot write \(partial.path): \(String(cString: strerror(errno)))", exitCode: .failure)
    }
    self.handle = handle
  }

  /// Adds `text`; it is written when 64 KiB have gathered.
  func write(_ text: String) {
    buffer += text
    if buffer.utf8.count >= 65_536 { flush() }
  }

  /// Writes what is left, and gives the file its name; a write that failed is thrown here.
  func finish() throws {
    flush()
    guard let file, let handle else { return }
    try? handle.close()
    if let failure { throw TweetsFailure("cannot write \(Self.partial(file).path): \(failure)", exitCode: .failure) }
    guard rename(Self.partial(file).path, file.path) == 0 else {
      throw TweetsFailure("cannot rename the table to \(file.path): \(String(cString: strerror(errno)))", exitCode: .failure)
    }
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
