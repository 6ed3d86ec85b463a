import CommandLineSupport
import Foundation
import NetworkClient
import XAPI

/// Streams pages to the output as they arrive. When standard error is a terminal, whatever
/// standard output is (`tweets timeline x --all > out.jsonl`), one status line there says how far
/// it got (tweets, pages, rate, elapsed time), rewritten in place after each page and cleared
/// before anything else is written; nothing is shown when standard error is not a terminal.
enum TweetStream {
  static func print<Item: OutputRecord>(_ pages: Pages<Item>, _ session: Session) async throws {
    if let file = session.options.output { return try await write(pages, to: file, session) }
    if let file = session.options.database { return try await archive(pages, to: file, session) }
    let terminal = session.terminal
    let writer = RecordWriter<Item>(format: session.options.format, terminal: terminal)
    let start = Date()
    var pageCount = 0
    func progress() -> String {
      Self.progress(Item.self, written: writer.written, fetched: writer.written, pages: pageCount, since: start, file: nil)
    }
    do {
      for try await page in pages {
        pageCount += 1
        terminal.status("")
        page.items.forEach(writer.write)
        writer.writeRaw(page.body)
        for problem in page.partialErrors { terminal.err(TerminalText.visible("tweets: \(problem.description)")) }
        // A page that could not be written ends the fetch: the next one would be paid for too.
        try terminal.checkOutput()
        terminal.status("… " + progress())
      }
    } catch {
      terminal.status("")
      writer.finish()
      throw error
    }
    writer.finish()
    // The last status stays, as a line of its own.
    terminal.status(terminal.errorIsInteractive ? "done: " + progress() + "\n" : "")
  }
}

extension TweetStream {
  /// The status line: records written (to `file`, when there is one), pages, the rate of this
  /// run's records, and the time elapsed.
  static func progress<Item: OutputRecord>(
    _: Item.Type, written: Int, fetched: Int, pages: Int, since start: Date, file: URL?
  ) -> String {
    let elapsed = Date().timeIntervalSince(start)
    let rate = Int((elapsed > 0 ? Double(fetched) / elapsed : 0).rounded())
    return "\(written) \(Item.plural)" + (file.map { " in \($0.lastPathComponent)" } ?? "") + ", \(pages) page\(pages == 1 ? "" : "s")"
      + (file == nil ? "" : " this run") + ", \(rate) \(Item.plural)/s, " + String(format: "%.1f s", elapsed)
  }

  /// `--output FILE`: each page appended and committed with its checkpoint (``ResumableOutput``);
  /// with `--resume`, from the checkpoint's cursor. Any failure leaves the checkpoint of the last
  /// whole page and says how to resume.
  static func write<Item: OutputRecord>(_ pages: Pages<Item>, to file: URL, _ session: Session) async throws {
    let terminal = session.terminal
    let output = try ResumableOutput(file: file, command: session.options.commandLine, resume: session.options.resume)
    let committed = output.checkpoint
    if committed.complete {
      terminal.err("tweets: \(file.path) is complete (\(committed.records) \(Item.plural)): nothing to resume")
      return
    }
    if output.resumed {
      terminal.err("tweets: resuming after \(committed.records) \(Item.plural) (\(committed.pages) pages) in \(file.path)")
    } else if session.options.resume {
      terminal.err("tweets: no checkpoint for \(file.path) yet: fetching from the beginning")
    }
    var pageText = ""
    let writer = RecordWriter<Item>(format: session.options.format, alreadyWritten: committed.records) { pageText += $0 }
    let remaining = session.options.limit.map { max($0 - committed.records, 0) }
    let start = Date()
    var pageCount = 0
    func progress() -> String {
      Self.progress(
        Item.self, written: writer.written, fetched: writer.written - committed.records, pages: pageCount, since: start, file: file)
    }
    do {
      var iterator = pages.resuming(from: committed.pageCursor, limit: remaining).makeAsyncIterator()
      var done = false
      while let page = try await iterator.next() {
        pageCount += 1
        page.items.forEach(writer.write)
        writer.writeRaw(page.body)
        // The last page and the end of the fetch are one commit: no moment where the file is
        // whole but the checkpoint does not say so (a resume would then start over).
        done = iterator.isFinished
        if done { writer.finish() }
        try output.commit(pageText, records: writer.written, next: done ? nil : page.next, complete: done)
        pageText = ""
        terminal.status("")
        for problem in page.partialErrors { terminal.err(TerminalText.visible("tweets: \(problem.description)")) }
        terminal.status("… " + progress())
      }
      if !done {
        // No page at all (a limit already reached): the end, with what the format closes.
        writer.finish()
        try output.commit(pageText, records: writer.written, next: nil, complete: true)
      }
    } catch {
      terminal.status("")
      terminal.err("tweets: stopped after \(output.checkpoint.records) \(Item.plural) in \(file.path); the checkpoint is saved. Resume with:")
      terminal.err("  " + output.resumeCommand)
      throw error
    }
    terminal.status(terminal.errorIsInteractive ? "done: " + progress() + "\n" : "")
  }
}
