import CommandLineSupport
import Foundation

/// The tweet ids of `hydrate`'s input, read one line at a time, so that memory does not grow with
/// the input (a dataset of millions of ids): a file read in 64 KiB chunks, or standard input.
///
/// A line is a tweet id or a JSON object with an `id` (or `id_str`); blank lines are skipped.
final class IDInput {
  /// Where the ids come from: a value that can cross into the task that reads them.
  enum Source: Sendable {
    /// A file, or standard input for `nil`.
    case file(String?)
    /// A list (`show`'s arguments).
    case list([String])
  }

  private let lines: InputLines
  /// The line number of the last line read (1-based), for messages.
  var lineNumber: Int { lines.lineNumber }

  /// The ids of `file`, or of standard input (through `terminal`) when `file` is `nil` or `-`.
  init(file: String?, terminal: Terminal) throws {
    lines = try InputLines(file: file, terminal: terminal)
  }

  /// The ids of a list (`show`'s arguments).
  init(ids: [String]) {
    var remaining = ids[...]
    lines = InputLines { remaining.popFirst() }
  }

  /// The ids of `source`.
  convenience init(_ source: Source, terminal: Terminal) throws {
    switch source {
    case .file(let file): try self.init(file: file, terminal: terminal)
    case .list(let ids): self.init(ids: ids)
    }
  }

  /// The next id, `nil` at the end; a line that is not an id is a usage error naming it.
  func nextID() throws -> String? {
    while let line = lines.next() {
      let text = line.trimmingCharacters(in: .whitespaces)
      if text.isEmpty { continue }
      guard let id = Self.id(in: text), IDLookup.isTweetID(id) else {
        throw UsageError("line \(lineNumber) is neither a tweet id nor a JSON object with an \"id\": \(CommandSpec.shown(text))")
      }
      return id
    }
    return nil
  }

  /// Skips `count` ids (those a resumed run has done).
  func skip(_ count: Int) throws {
    for _ in 0..<count where try nextID() == nil { return }
  }

  /// How many ids `file` holds, every line checked, read once before the lookups for the
  /// progress line (and so that a bad line stops the run before its first request).
  static func count(file: String) throws -> Int {
    let input = try IDInput(
      file: file, terminal: Terminal(writeOut: { _ in }, writeError: { _ in }, readLine: { nil }, isInteractive: false, useColor: false))
    var count = 0
    while try input.nextID() != nil { count += 1 }
    return count
  }

  /// The id a line gives: the line itself, or the `id` (or `id_str`) of a JSON object.
  static func id(in line: String) -> String? {
    guard line.hasPrefix("{") else { return line }
    guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
    if let id = object["id_str"] as? String ?? object["id"] as? String { return id }
    return (object["id"] as? NSNumber)?.stringValue
  }
}

/// The lines of a file, or of standard input for `-`, one at a time, counted for messages.
final class InputLines {
  private let read: () -> String?
  /// The number of the last line read (1-based).
  private(set) var lineNumber = 0

  /// The lines of `file`, or of standard input (through `terminal`) when `file` is `nil` or `-`.
  convenience init(file: String?, terminal: Terminal) throws {
    if let file, file != "-" {
      let reader = try LineReader(path: file)
      self.init { reader.nextLine() }
    } else {
      self.init(read: terminal.readLine)
    }
  }

  /// The lines `read` gives until it gives `nil`.
  init(read: @escaping () -> String?) { self.read = read }

  /// The next line, `nil` at the end.
  func next() -> String? {
    guard let line = read() else { return nil }
    lineNumber += 1
    return line
  }
}

/// Reads a file's lines in chunks: no more of the file in memory than one chunk and one line.
final class LineReader {
  private let handle: FileHandle
  /// The bytes read and not yet returned start at `position`.
  private var buffer: [UInt8] = []
  private var position = 0
  /// Where the search for the next line's end resumes: the bytes before it hold none, so a long
  /// line is scanned once, not once per chunk.
  private var scanned = 0
  private var atEnd = false

  init(path: String) throws {
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw TweetsFailure("cannot read \(path): \(String(cString: strerror(errno)))", exitCode: .failure)
    }
    self.handle = handle
  }

  deinit { try? handle.close() }

  /// The next line without its `\n` (or `\r\n`); the last line may lack one; `nil` at the end.
  func nextLine() -> String? {
    while true {
      if let newline = buffer[max(position, scanned)...].firstIndex(of: UInt8(ascii: "\n")) {
        var end = newline
        if end > position && buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        defer { position = newline + 1 }
        return String(decoding: buffer[position..<end], as: UTF8.self)
      }
      if atEnd {
        guard position < buffer.count else { return nil }
        defer { position = buffer.count }
        return String(decoding: buffer[position...], as: UTF8.self)
      }
      // Only the unfinished line is kept before the next chunk.
      buffer.removeSubrange(0..<position)
      position = 0
      scanned = buffer.count
      let chunk = (try? handle.read(upToCount: 65_536)) ?? nil
      if let chunk, !chunk.isEmpty { buffer.append(contentsOf: chunk) } else { atEnd = true }
    }
  }
}
