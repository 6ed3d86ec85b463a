import CommandLineSupport
import Foundation
import XAPI

/// `--output FILE`: tweets appended to a file one page at a time, with a checkpoint beside it
/// (`FILE.checkpoint`) that says how far the file is good and where the next page starts, so
/// that `--resume` continues a fetch after a crash, a `kill -9` or a rate-limit stop with every
/// tweet exactly once.
///
/// The order of each commit is what makes any moment safe to die at:
/// 1. the page's lines are appended and flushed to disk;
/// 2. the checkpoint is replaced atomically (``AtomicFile``) with the file's new length and the
///    next page's cursor.
///
/// A run killed before step 2 leaves lines past the checkpoint's length (perhaps half a line):
/// `--resume` cuts the file back to that length and fetches the page again from the saved
/// cursor. No line is lost (the cursor is the one after the last committed page) and none is
/// written twice (what follows the committed length is cut).
final class ResumableOutput {
  /// What the checkpoint file holds.
  struct Checkpoint: Codable, Equatable {
    /// The command and its arguments, without `--resume` and `--output`: a resumed run must be the same fetch.
    var command: [String]
    /// Where the next page starts (`nil`: the first page), and of which kind.
    var cursor: String?
    var cursorKind: String?
    /// How many bytes of the file are committed, and the records (tweets or users) and pages in them.
    var bytes: UInt64
    var records: Int
    var pages: Int
    /// Whether the fetch reached its end (or its limit).
    var complete: Bool
    /// For a lookup of a list of ids (`hydrate`): how many input ids are done, in input order.
    var inputDone: Int?

    enum CodingKeys: String, CodingKey {
      case command, cursor, bytes, records, pages, complete
      case cursorKind = "cursor_kind"
      case inputDone = "input_done"
    }

    var pageCursor: PageCursor? {
      guard let cursor else { return nil }
      return cursorKind == "max_id" ? .maxID(cursor) : .token(cursor)
    }

    mutating func set(_ next: PageCursor?) {
      switch next {
      case .token(let token): (cursor, cursorKind) = (token, "token")
      case .maxID(let id): (cursor, cursorKind) = (id, "max_id")
      case nil: (cursor, cursorKind) = (nil, nil)
      }
    }
  }

  let file: URL
  var checkpointFile: URL { file.appendingPathExtension("checkpoint") }
  private(set) var checkpoint: Checkpoint
  /// The open file, positioned at the committed end; owned here, closed by `deinit`. It is -1
  /// once closed: a throw from `init` after it is set still runs `deinit`, which must not close
  /// a descriptor number another thread may have been given meanwhile (it closed a test's
  /// listening socket that way).
  private var descriptor: Int32

  /// Whether a checkpoint was read: `false` for a new fetch, with or without `--resume`.
  let resumed: Bool

  /// Opens `file` for a new fetch (it must not exist, or be empty) or, with `resume`, for the
  /// fetch its checkpoint records, which must be `command`'s. With `resume` and no checkpoint
  /// yet (a run killed before its first page, as `wget -c` or `curl -C -` would retry it), an
  /// absent or empty `file` starts a new fetch; one with lines but no checkpoint is refused,
  /// since where its fetch stopped is unknown.
  init(file: URL, command: [String], resume: Bool) throws {
    self.file = file
    let checkpointFile = file.appendingPathExtension("checkpoint")
    AtomicFile.removeStaleTemporaries(of: checkpointFile)
    let existing = try? Data(contentsOf: checkpointFile)
    let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.uint64Value ?? 0
    resumed = resume && existing != nil
    if resume, let existing {
      do {
        checkpoint = try JSONDecoder().decode(Checkpoint.self, from: existing)
      } catch {
        throw TweetsFailure("--resume: \(checkpointFile.path) is not a checkpoint of tweets --output (\(error))", exitCode: .failure)
      }
      guard checkpoint.command == command else {
        throw TweetsFailure(
          "--resume: \(file.path) holds another fetch; resume it with: \(Self.resumeCommand(checkpoint.command, file))", exitCode: .usage)
      }
    } else {
      if resume && size > 0 {
        throw TweetsFailure(
          "--resume: \(file.path) holds \(size) bytes but has no checkpoint (\(checkpointFile.lastPathComponent)), so where its fetch "
            + "stopped is unknown: move it away or remove it, then run the same command again to fetch from the beginning",
          exitCode: .usage)
      }
      if !resume && (existing != nil || size > 0) {
        throw TweetsFailure(
          "\(file.path) already exists\(existing != nil ? " with a checkpoint" : ""): add --resume to continue that fetch, or remove it",
          exitCode: .usage)
      }
      checkpoint = Checkpoint(command: command, bytes: 0, records: 0, pages: 0, complete: false)
    }
    // A checkpoint of the last page whose end was not recorded (written before the end was
    // committed with the last page) has no cursor left: nothing remains to fetch.
    // (A lookup of ids records its progress in `inputDone`, not in a cursor.)
    if checkpoint.cursor == nil && checkpoint.pages > 0 && checkpoint.inputDone == nil { checkpoint.complete = true }
    descriptor = open(file.path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw TweetsFailure("cannot open \(file.path): \(String(cString: strerror(errno)))", exitCode: .failure) }
    // One writer at a time: a second `--resume` of the same file would interleave pages.
    guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
      close(descriptor)
      descriptor = -1
      throw TweetsFailure("another tweets is writing \(file.path); wait for it to end", exitCode: .failure)
    }
    var status = stat()
    guard fstat(descriptor, &status) == 0, UInt64(status.st_size) >= checkpoint.bytes else {
      close(descriptor)
      descriptor = -1
      throw TweetsFailure(
        "\(file.path) is shorter than its checkpoint says (\(checkpoint.bytes) bytes): it was cut or replaced; "
          + "remove \(file.lastPathComponent).checkpoint to start over", exitCode: .failure)
    }
    // Whatever a killed run wrote after its last commit is cut: it is fetched again.
    guard ftruncate(descriptor, off_t(checkpoint.bytes)) == 0, lseek(descriptor, 0, SEEK_END) >= 0 else {
      let reason = String(cString: strerror(errno))
      close(descriptor)
      descriptor = -1
      throw TweetsFailure("cannot prepare \(file.path): \(reason)", exitCode: .failure)
    }
    if !resumed { try saveCheckpoint() }
  }

  deinit { if descriptor >= 0 { close(descriptor) } }

  /// Appends one page's `text`, then records that the file is good up to here, that it holds
  /// `records` records, and where the next page starts (`complete` when there is none).
  func commit(_ text: String, records: Int, next: PageCursor?, complete: Bool, inputDone: Int? = nil) throws {
    let data = Data(text.utf8)
    // Fault injection for the durability test (never set outside it): the page is written in
    // two halves with a pause after each, so that random kills land mid-page (half a line on
    // disk) and between the page and its checkpoint, not only while waiting for the network.
    let parts = Self.faultPause == nil ? [data] : [data.prefix(data.count / 2), data.dropFirst(data.count / 2)]
    for part in parts {
      do throws(WriteFailure) {
        try CheckedWrite.all(Data(part), to: descriptor, naming: file.path)
      } catch {
        throw TweetsFailure("cannot write \(file.path): \(String(cString: strerror(error.code)))", exitCode: .failure)
      }
      if let pause = Self.faultPause { usleep(pause) }
    }
    guard fsync(descriptor) == 0 else {
      throw TweetsFailure("cannot write \(file.path): \(String(cString: strerror(errno)))", exitCode: .failure)
    }
    checkpoint.bytes += UInt64(data.count)
    checkpoint.records = records
    checkpoint.pages += 1
    checkpoint.set(next)
    checkpoint.complete = complete
    if let inputDone { checkpoint.inputDone = inputDone }
    try saveCheckpoint()
  }

  /// `TWEETS_FAULT_PAUSE_MS`: how long (in microseconds here) to pause after each half of a
  /// page's write, before its checkpoint.
  static let faultPause: UInt32? = ProcessInfo.processInfo.environment["TWEETS_FAULT_PAUSE_MS"].flatMap { UInt32($0) }.map { $0 * 1000 }

  private func saveCheckpoint() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    do {
      try AtomicFile.write(try encoder.encode(checkpoint), to: checkpointFile)
    } catch {
      throw TweetsFailure("cannot save the checkpoint \(checkpointFile.path): \(error)", exitCode: .failure)
    }
  }

  /// The command line to resume with, quoted for a POSIX shell.
  var resumeCommand: String { Self.resumeCommand(checkpoint.command, file) }

  static func resumeCommand(_ command: [String], _ file: URL) -> String {
    resumeCommand(command, storedWith: "--output", file.path)
  }

  /// The command line that resumes `command`, whose progress `option` (`--output`, `--db`)
  /// records in `path`, quoted for a POSIX shell.
  static func resumeCommand(_ command: [String], storedWith option: String, _ path: String) -> String {
    "tweets " + shell(command + [option, path]) + " --resume"
  }

  static func shell(_ words: [String]) -> String {
    words.map { word in
      word.allSatisfy({ $0.isLetter || $0.isNumber || "-_./:=@,+".contains($0) }) && !word.isEmpty
        ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }.joined(separator: " ")
  }
}
