import CommandLineSupport
import Foundation
import XAPI
import XArchive

/// Looks tweets up by id, batch by batch, and hands each batch to its destination (standard
/// output, an `--output` file, a `--db` archive) in the order the ids were given: `show` and
/// `hydrate`.
enum IDLookup {
  static func isTweetID(_ text: String) -> Bool {
    !text.isEmpty && text.count <= 19 && text.allSatisfy(\.isASCIIDigit)
  }

  /// Looks up every id of `source` (`total` of them, when known: a file) and returns
  /// ``ExitCode/notFound`` when X did not return some.
  static func run(_ source: IDInput.Source, total: Int?, _ session: Session) async throws -> ExitCode {
    let options = session.options
    if options.format == .raw && options.api == .v1 {
      throw UsageError("--format raw shows tweets with --api v2 (X's lookup answer); v1.1 looks tweets up one by one")
    }
    let (client, _) = try session.client()
    if options.output == nil && options.database == nil {
      return try await lookUp(
        try IDInput(source, terminal: session.terminal), total: total, client: client, into: StandardOutputSink(session), session)
    }
    return try await Interruption.cancelling {
      let sink: any LookupSink =
        if let file = options.output { try FileSink(file, session) } else { try ArchiveSink(options.database!, session) }
      return try await lookUp(try IDInput(source, terminal: session.terminal), total: total, client: client, into: sink, session)
    }
  }

  private static func lookUp(_ input: IDInput, total: Int?, client: XClient, into sink: any LookupSink, _ session: Session) async throws
    -> ExitCode
  {
    let terminal = session.terminal
    if sink.isComplete {
      terminal.err("tweets: \(sink.name) is complete (\(sink.alreadyDone) ids done): nothing to resume")
      return .success
    }
    if sink.alreadyDone > 0 { terminal.err("tweets: resuming after \(sink.alreadyDone) ids in \(sink.name)") }
    try input.skip(sink.alreadyDone)
    let batchSize = session.options.api == .v2 ? 100 : 1
    var done = sink.alreadyDone, missing = 0, found = 0
    let start = Date()
    var pending = try input.nextID()
    if pending == nil && done == 0 { throw UsageError("no tweet ids in the input") }
    do {
      while let first = pending {
        var batch = [first]
        while batch.count < batchSize, let id = try input.nextID() { batch.append(id) }
        pending = try input.nextID()
        let result = try await lookUp(batch, client: client, session)
        done += batch.count
        found += result.tweets.count
        missing += result.missing.count
        terminal.status("")
        try sink.commit(result, inputDone: done, complete: pending == nil)
        terminal.status("… " + progress(done: done, total: total, missing: missing, from: sink.alreadyDone, since: start))
      }
      sink.finish()
    } catch {
      terminal.status("")
      sink.stopped(after: done)
      throw error
    }
    terminal.status("")
    let ids = done - sink.alreadyDone
    if missing > 0 || sink.summarizes {
      terminal.err(
        "tweets: \(ids) ids looked up, \(found) tweets found, \(missing) not returned (deleted, withheld, protected or unknown)"
          + (sink.summarizes ? " in \(sink.name)" : "") + ".")
    }
    return missing > 0 ? .notFound : .success
  }

  /// One lookup: the batch's tweets in its order (an id given twice, twice), and its missing ids
  /// with X's reason.
  static func lookUp(_ batch: [String], client: XClient, _ session: Session) async throws -> LookupBatch {
    switch session.options.api {
    case .v2:
      var seen = Set<String>()
      let lookup = try await client.v2.tweets(ids: batch.filter { seen.insert($0).inserted }, options: session.options.timelineOptions)
      let found = Dictionary(lookup.tweets.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
      var problems: [String: XProblem] = [:]
      for problem in lookup.errors { if let id = problem.resourceID ?? problem.value { problems[id] = problem } }
      var tweets: [Tweet] = [], missing: [MissingTweet] = []
      for id in batch {
        if let tweet = found[id] {
          tweets.append(tweet)
        } else if !missing.contains(where: { $0.id == id }) {
          let problem = problems[id]
          missing.append(MissingTweet(id: id, reason: problem?.title ?? "not returned", detail: problem?.detail))
        }
      }
      return LookupBatch(tweets: tweets, missing: missing, body: lookup.body)
    case .v1:
      let result: Result<Tweet, XError>
      do { result = .success(try await client.v1.show(id: batch[0])) } catch { result = .failure(error) }
      switch result {
      case .success(let tweet):
        return LookupBatch(tweets: [tweet], missing: [], body: Data())
      case .failure(.notFound(let message)):
        return LookupBatch(tweets: [], missing: [MissingTweet(id: batch[0], reason: "Not Found Error", detail: message)], body: Data())
      case .failure(let error):
        throw error
      }
    }
  }

  /// `… 12300 of 200000 ids, 41 missing, 310 ids/s, about 10 min left`.
  private static func progress(done: Int, total: Int?, missing: Int, from start: Int, since: Date) -> String {
    let elapsed = Date().timeIntervalSince(since)
    let rate = elapsed > 0 ? Double(done - start) / elapsed : 0
    var text = "\(done)" + (total.map { " of \($0)" } ?? "") + " ids, \(missing) missing, \(Int(rate.rounded())) ids/s"
    if let total, rate > 0, done < total {
      let left = Double(total - done) / rate
      text +=
        left < 90
        ? ", about \(Int(left)) s left" : left < 5400 ? ", about \(Int(left / 60)) min left" : String(format: ", about %.1f h left", left / 3600)
    }
    return text
  }
}

/// What one lookup gave.
struct LookupBatch {
  var tweets: [Tweet]
  var missing: [MissingTweet]
  /// X's answer as sent (`--format raw`, and each tweet's raw JSON in `--db`).
  var body: Data
}
