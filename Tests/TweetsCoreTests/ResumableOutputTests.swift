import Foundation
import Testing
import XAPI

@testable import TweetsCore

/// The states a `kill -9` can leave `--output` in, made by hand: lines written past the last
/// checkpoint (half a line among them) and a checkpoint's temporary file from a killed rename.
@Suite("Resumable output")
struct ResumableOutputTests {
  /// `ResumableOutput(file:command:resume:)`, tried again for up to 2 s while its lock is held:
  /// a child another test's thread is starting holds a copy of every descriptor of this process
  /// until its `exec` (where `O_CLOEXEC` closes it), and with it the lock of a file just closed
  /// here. A loaded run met that once. `tweets` itself starts no child while it writes.
  static func opened(file: URL, command: [String], resume: Bool) throws -> ResumableOutput {
    let deadline = Date().addingTimeInterval(2)
    while true {
      do {
        return try ResumableOutput(file: file, command: command, resume: resume)
      } catch let failure as TweetsFailure where failure.message.contains("another tweets is writing") && Date() < deadline {
        Thread.sleep(forTimeInterval: 0.02)
      }
    }
  }

  let command = ["timeline", "jack", "--all", "--format", "jsonl"]

  func folder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("resumable-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  @Test func whatFollowsTheLastCommitIsCutOnResume() throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("out.jsonl")
    do {
      let output = try Self.opened(file: file, command: command, resume: false)
      try output.commit("{\"id\":\"3\"}\n{\"id\":\"2\"}\n", records: 2, next: .token("page-2"), complete: false)
    }
    // A killed run: the next page half written, its checkpoint never saved, a temporary left.
    let handle = try FileHandle(forWritingTo: file)
    try handle.seekToEnd()
    try handle.write(contentsOf: Data("{\"id\":\"1\"}\n{\"id\":".utf8))
    try handle.close()
    let stale = folder.appendingPathComponent(".out.jsonl.checkpoint.999999.1.tmp")
    try Data("{".utf8).write(to: stale)

    let resumed = try Self.opened(file: file, command: command, resume: true)
    #expect(resumed.checkpoint.pageCursor == .token("page-2") && resumed.checkpoint.records == 2)
    #expect(try String(contentsOf: file, encoding: .utf8) == "{\"id\":\"3\"}\n{\"id\":\"2\"}\n")
    #expect(!FileManager.default.fileExists(atPath: stale.path))
    try resumed.commit("{\"id\":\"1\"}\n", records: 3, next: nil, complete: true)
    #expect(try String(contentsOf: file, encoding: .utf8) == "{\"id\":\"3\"}\n{\"id\":\"2\"}\n{\"id\":\"1\"}\n")
    #expect(resumed.checkpoint.complete && resumed.checkpoint.pages == 2)
  }

  @Test func aKillBeforeTheFirstCommitStartsOver() throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("out.jsonl")
    _ = try Self.opened(file: file, command: command, resume: false)
    try Data("{\"id\":".utf8).write(to: file)
    let resumed = try Self.opened(file: file, command: command, resume: true)
    #expect(resumed.checkpoint.pageCursor == nil && resumed.checkpoint.bytes == 0)
    #expect(try Data(contentsOf: file).isEmpty)
  }

  /// `--resume` before any checkpoint exists (the run was killed, or failed, before its output
  /// was opened), as a retry loop runs it: from the beginning while the file is absent or
  /// empty; refused once it has lines that no checkpoint accounts for.
  @Test func resumeWithoutACheckpointStartsWhenThereIsNothingToLose() throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let absent = folder.appendingPathComponent("absent.jsonl")
    do {
      let output = try Self.opened(file: absent, command: command, resume: true)
      #expect(!output.resumed && output.checkpoint.bytes == 0 && output.checkpoint.pages == 0 && !output.checkpoint.complete)
      #expect(FileManager.default.fileExists(atPath: absent.path + ".checkpoint"))
      try output.commit("{\"id\":\"3\"}\n", records: 1, next: .token("t"), complete: false)
    }
    #expect(try Self.opened(file: absent, command: command, resume: true).resumed)

    let empty = folder.appendingPathComponent("empty.jsonl")
    try Data().write(to: empty)
    #expect(try !Self.opened(file: empty, command: command, resume: true).resumed)

    let lines = folder.appendingPathComponent("lines.jsonl")
    try Data("{\"id\":\"3\"}\n".utf8).write(to: lines)
    #expect {
      _ = try Self.opened(file: lines, command: command, resume: true)
    } throws: { error in
      let failure = error as? TweetsFailure
      return failure?.exitCode == .usage && failure?.message.contains("holds 11 bytes but has no checkpoint (lines.jsonl.checkpoint)") == true
        && failure?.message.contains("move it away or remove it") == true
    }
    #expect(try String(contentsOf: lines, encoding: .utf8) == "{\"id\":\"3\"}\n", "the refused file is left as it was")
  }

  @Test func aCutFileOrASecondWriterIsRefused() throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("out.jsonl")
    do {
      let first = try Self.opened(file: file, command: command, resume: false)
      try first.commit("{\"id\":\"3\"}\n", records: 1, next: .token("t"), complete: false)
      // While it is open, another writer of the same file is refused.
      #expect(throws: TweetsFailure.self) { _ = try Self.opened(file: file, command: command, resume: true) }
    }
    // A file cut below its checkpoint is not padded with zeros and appended to.
    try Data("{".utf8).write(to: file)
    #expect(throws: TweetsFailure.self) { _ = try Self.opened(file: file, command: command, resume: true) }
  }

  @Test func theLastPageRecordsTheEnd() throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("out.jsonl")
    do {
      let output = try Self.opened(file: file, command: command, resume: false)
      try output.commit("x\n", records: 1, next: nil, complete: true)
    }
    #expect(try Self.opened(file: file, command: command, resume: true).checkpoint.complete)
  }

  @Test func v1CursorsRoundTrip() throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("out.jsonl")
    do {
      let output = try Self.opened(file: file, command: command, resume: false)
      try output.commit("x\n", records: 1, next: .maxID("41"), complete: false)
    }
    #expect(try Self.opened(file: file, command: command, resume: true).checkpoint.pageCursor == .maxID("41"))
    #expect(ResumableOutput.shell(["search", "from:a b", "it's"]) == "search 'from:a b' 'it'\\''s'")
  }
}
