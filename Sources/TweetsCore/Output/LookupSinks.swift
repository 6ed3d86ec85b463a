import Foundation
import XAPI
import XArchive

/// Where `show` and `hydrate` put each batch: standard output, an `--output` file, or a `--db`
/// archive. The two that persist record the count of input ids done with each batch, in the
/// same commit, so a resumed run skips exactly those.
protocol LookupSink {
  /// The file, for messages.
  var name: String { get }
  /// Input ids a previous run already did (0 for a new run).
  var alreadyDone: Int { get }
  /// Whether a previous run did them all.
  var isComplete: Bool { get }
  /// Whether the end of the run is worth a line on stderr even with nothing missing (the
  /// records went to a file, not to the screen).
  var summarizes: Bool { get }
  /// Stores one batch, with the count of input ids done; `complete` for the last.
  func commit(_ batch: LookupBatch, inputDone: Int, complete: Bool) throws
  /// Closes what the format needs closed.
  func finish()
  /// Says, after a failure, how far the run got and how to resume.
  func stopped(after done: Int)
}

/// Standard output: tweets written as they come, missing ids reported on stderr.
final class StandardOutputSink: LookupSink {
  let writer: TweetWriter
  let terminal: Terminal
  var name: String { "standard output" }
  var alreadyDone: Int { 0 }
  var isComplete: Bool { false }
  var summarizes: Bool { false }

  init(_ session: Session) {
    terminal = session.terminal
    writer = TweetWriter(format: session.options.format, terminal: terminal)
  }

  func commit(_ batch: LookupBatch, inputDone: Int, complete: Bool) throws {
    writer.writeRaw(batch.body)
    batch.tweets.forEach(writer.write)
    for absent in batch.missing { terminal.err(TerminalText.visible("tweets: \(absent.id): \(absent.detail ?? absent.reason)")) }
    // A batch that could not be written ends the lookup: the next one would be paid for too.
    try terminal.checkOutput()
  }

  func finish() { writer.finish() }
  func stopped(after done: Int) { writer.finish() }
}

/// `--output FILE`: each batch appended and committed with its checkpoint (``ResumableOutput``).
final class FileSink: LookupSink {
  let output: ResumableOutput
  let format: OutputFormat
  let terminal: Terminal
  var name: String { output.file.path }
  let alreadyDone: Int
  var isComplete: Bool { output.checkpoint.complete }
  var summarizes: Bool { true }

  init(_ file: URL, _ session: Session) throws {
    output = try ResumableOutput(file: file, command: session.options.commandLine, resume: session.options.resume)
    alreadyDone = output.checkpoint.inputDone ?? 0
    format = session.options.format
    terminal = session.terminal
  }

  func commit(_ batch: LookupBatch, inputDone: Int, complete: Bool) throws {
    var text = ""
    let writer = TweetWriter(format: format, alreadyWritten: output.checkpoint.records) { text += $0 }
    writer.writeRaw(batch.body)
    batch.tweets.forEach(writer.write)
    if complete { writer.finish() }
    for absent in batch.missing { terminal.err(TerminalText.visible("tweets: \(absent.id): \(absent.detail ?? absent.reason)")) }
    try output.commit(text, records: writer.written, next: nil, complete: complete, inputDone: inputDone)
  }

  func finish() {}

  func stopped(after done: Int) {
    terminal.err("tweets: stopped after \(output.checkpoint.inputDone ?? 0) ids in \(name); the checkpoint is saved. Resume with:")
    terminal.err("  " + output.resumeCommand)
  }
}

/// `--db FILE`: each batch stored in one transaction with the fetch's count of ids done; missing
/// ids go to the `missing_tweets` table, not to stderr (a dataset can miss a million).
final class ArchiveSink: LookupSink {
  let archive: TweetArchive
  var fetch: ArchiveFetch
  let command: [String]
  let terminal: Terminal
  var name: String { archive.path }
  let alreadyDone: Int
  var isComplete: Bool { fetch.status == .complete }
  var summarizes: Bool { true }

  init(_ file: URL, _ session: Session) throws {
    archive = try TweetArchive(path: file.path)
    command = session.options.commandLine
    fetch = try archive.beginFetch(command: command, resume: session.options.resume)
    alreadyDone = fetch.inputDone
    terminal = session.terminal
    if session.options.resume && !fetch.resumed {
      terminal.err("tweets: no fetch of this command in \(file.path) yet: starting from the first id")
    }
  }

  deinit { archive.close() }

  func commit(_ batch: LookupBatch, inputDone: Int, complete: Bool) throws {
    try archive.store(lookup: batch.tweets, body: batch.body, missing: batch.missing, inputDone: inputDone, in: &fetch, complete: complete)
  }

  func finish() {}

  func stopped(after done: Int) {
    try? archive.stop(&fetch)
    terminal.err("tweets: stopped after \(fetch.inputDone) ids in \(name) (fetch \(fetch.id)); resume with:")
    terminal.err("  " + ResumableOutput.resumeCommand(command, storedWith: "--db", name))
  }
}
