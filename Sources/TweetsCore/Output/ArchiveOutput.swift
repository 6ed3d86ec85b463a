import Foundation
import XAPI
import XArchive

/// `--db FILE`: pages stored in an SQLite archive (``TweetArchive``), each in one transaction
/// with the fetch's progress, so that a run killed at any moment resumes with `--resume` from
/// the database alone, and a re-run updates rows instead of adding them.
extension TweetStream {
  static func archive<Item: OutputRecord>(_ pages: Pages<Item>, to file: URL, _ session: Session) async throws {
    let terminal = session.terminal
    let options = session.options
    try await Interruption.cancelling {
      let archive = try TweetArchive(path: file.path)
      defer { archive.close() }
      var fetch = try archive.beginFetch(command: options.commandLine, resume: options.resume)
      if fetch.status == .complete {
        terminal.err("tweets: the last fetch of this command in \(file.path) is complete (\(fetch.records) \(Item.plural)): nothing to resume")
        return
      }
      let before = fetch.records
      if fetch.resumed {
        terminal.err("tweets: resuming fetch \(fetch.id) after \(fetch.records) \(Item.plural) (\(fetch.pages) pages) in \(file.path)")
      } else if options.resume {
        terminal.err("tweets: no fetch of this command in \(file.path) yet: fetching from the beginning")
      }
      let start = Date()
      var pageCount = 0
      func progress() -> String {
        Self.progress(Item.self, written: fetch.records, fetched: fetch.records - before, pages: pageCount, since: start, file: file)
      }
      do {
        var iterator = pages.resuming(from: fetch.cursor, limit: options.limit.map { max($0 - fetch.records, 0) }).makeAsyncIterator()
        while let page = try await iterator.next() {
          pageCount += 1
          try Item.store(page, in: archive, fetch: &fetch, complete: iterator.isFinished)
          terminal.status("")
          for problem in page.partialErrors { terminal.err(TerminalText.visible("tweets: \(problem.description)")) }
          terminal.status("… " + progress())
        }
        if fetch.status != .complete { try archive.complete(&fetch) }
      } catch {
        terminal.status("")
        try? archive.stop(&fetch)
        terminal.err("tweets: stopped after \(fetch.records) \(Item.plural) in \(file.path) (fetch \(fetch.id)); resume with:")
        terminal.err("  " + ResumableOutput.resumeCommand(options.commandLine, storedWith: "--db", file.path))
        throw error
      }
      terminal.status("")
      let summary = Self.progress(
        Item.self, written: fetch.records - before, fetched: fetch.records - before, pages: pageCount, since: start, file: nil)
      terminal.err("tweets: stored \(summary) in \(file.path) (fetch \(fetch.id); \(fetch.records) in all)")
    }
  }
}

extension Tweet {
  /// Stores a page of tweets in the archive (``OutputRecord``'s way into `--db`).
  package static func store(_ page: Page<Tweet>, in archive: TweetArchive, fetch: inout ArchiveFetch, complete: Bool) throws {
    try archive.store(page, in: &fetch, complete: complete)
  }
}

extension XUser {
  /// Stores a page of users in the archive (``OutputRecord``'s way into `--db`).
  package static func store(_ page: Page<XUser>, in archive: TweetArchive, fetch: inout ArchiveFetch, complete: Bool) throws {
    try archive.store(page, in: &fetch, complete: complete)
  }
}
