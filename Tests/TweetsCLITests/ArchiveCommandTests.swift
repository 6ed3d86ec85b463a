import Foundation
import TestSupport
import Testing

/// `tweets --db FILE` as processes against the X sandbox over loopback (every signature checked
/// by oauthlib), the archive read back by Python's own `sqlite3`, an independent reader: kills at
/// random moments and `--resume`, a re-run that updates counts without rows, SIGTERM, hydrate
/// at dataset scale, and the schema documentation's queries run as written.
@Suite("tweets --db: the SQLite archive", .sandboxChecks, .tags(.peers, .processes), .tier(.peers), .serialized)
struct ArchiveCommandTests {
  let folder: URL

  init() throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("tweets-db-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  /// What Python's `sqlite3` reads in the archive (`Tests/Peers/archive_reader.py`).
  struct Reading: Decodable {
    let integrity: String
    let user_version: Int
    let journal_mode: String
    let tweet_ids: [String]
    let missing_ids: [String]
    let tweets_with_author_row: Int
    let fetches: [Fetch]
    let queries: [String: [[JSONValue]]]

    struct Fetch: Decodable {
      let id: Int
      let command: [String]
      let status: String
      let records: Int
      let input_done: Int?
    }
  }

  /// A cell of a query's row: text, number or NULL.
  enum JSONValue: Decodable, Equatable {
    case text(String)
    case number(Double)
    case null
    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if container.decodeNil() {
        self = .null
      } else if let number = try? container.decode(Double.self) {
        self = .number(number)
      } else {
        self = .text(try container.decode(String.self))
      }
    }
  }

  static func read(_ file: URL, queries: [String: String] = [:]) async throws -> Reading {
    let request = try JSONSerialization.data(withJSONObject: ["path": file.path, "queries": queries])
    return try JSONDecoder().decode(Reading.self, from: await PythonPeer.run(script: "archive_reader.py", input: request))
  }

  /// Starts `tweets` with `arguments`, output discarded.
  func start(_ tweets: TweetsRunner, _ arguments: [String]) throws -> Process {
    let process = Process()
    process.executableURL = PackagePaths.executable("tweets")
    process.arguments = arguments + tweets.common
    process.environment = tweets.environment
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.runOneAtATime()
    return process
  }

  struct NoEnd: Error, CustomStringConvertible {
    let kills: Int
    var description: String { "no end after 200 attempts (\(kills) kills)" }
  }

  /// Runs `arguments` (with `--resume` after the first try), killing each run with SIGKILL at a
  /// random moment until `kills` kills have landed, then lets the last run finish: returns its
  /// exit status and how many kills landed. The moments are drawn from `microseconds`, stretched
  /// by the sanitizers' time scale when `scaled`.
  func killAndResume(
    _ tweets: TweetsRunner, _ arguments: [String], kills wanted: Int, within microseconds: ClosedRange<UInt32>, scaled: Bool = true
  ) async throws -> (
    status: Int32, kills: Int
  ) {
    var kills = 0, attempts = 0
    var random = SystemRandomNumberGenerator()
    // On a machine whose load changes, a run can end before the first kill lands: then the
    // moments are halved and the fetch starts over (its database removed), until one lands.
    var shrink = 1.0, fresh = true
    while true {
      attempts += 1
      guard attempts < 200 else { throw NoEnd(kills: kills) }
      let process = try start(tweets, arguments + (fresh ? [] : ["--resume"]))
      fresh = false
      if kills < wanted {
        let moment = Double(UInt32.random(in: microseconds, using: &random)) * (scaled ? TestTiming.scale : 1) * shrink
        try await Task.sleep(for: .microseconds(moment))
        if process.isRunning {
          kill(process.processIdentifier, SIGKILL)
          if try await process.exited().signal != nil { kills += 1 }
          continue
        }
        if kills == 0, shrink > 1.0 / 64, let database = arguments.firstIndex(of: "--db").map({ arguments[$0 + 1] }) {
          try await process.exited()
          for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) }
          shrink /= 2
          fresh = true
          continue
        }
      }
      return (try await process.exited().code, kills)
    }
  }

  @Test("A paged fetch killed with SIGKILL at random moments and resumed until done: every tweet exactly once, authors joined, integrity ok")
  func killedAndResumed() async throws {
    let tweets = try TweetsRunner(server: try await VerifiedSandbox.start(tweetsPerUser: 2000))
    try await tweets.loginWithTokens()
    let file = folder.appendingPathComponent("timeline.sqlite")
    // Uninterrupted runs into other databases say how long one takes with this build (a
    // sanitizer slows it several times): the kills land within the quicker (the first run
    // also pays the servers' warm-up).
    var quickest = Double.infinity
    for run in 1...2 {
      let whole = try await tweets.run(["timeline", "sandbox_user", "--all", "--db", folder.appendingPathComponent("whole\(run).sqlite").path])
      quickest = min(quickest, whole.seconds)
      #expect(whole.status == 0, "\(whole.stderr)")
    }
    let typical = quickest
    let reference = try await tweets.run(["timeline", "sandbox_user", "--all", "--format", "jsonl"])
    let expected = Set(
      reference.stdout.split(separator: "\n").compactMap { line in
        (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? String
      })
    #expect(expected.count == 2000)

    let (status, kills) = try await killAndResume(
      tweets, ["timeline", "sandbox_user", "--all", "--db", file.path], kills: 12,
      within: UInt32(typical * 50_000)...UInt32(typical * 500_000), scaled: false)
    #expect(status == 0)
    #expect(kills >= 1, "no kill landed before the fetch ended")
    let reading = try await Self.read(file)
    #expect(reading.integrity == "ok")
    #expect(reading.journal_mode == "wal" && reading.user_version == 4)
    #expect(reading.tweet_ids.count == expected.count, "every tweet once: \(reading.tweet_ids.count) rows")
    #expect(Set(reading.tweet_ids) == expected)
    #expect(reading.tweets_with_author_row == expected.count, "every tweet's author is in users")
    // The profile's ledger, written by every one of those processes (killed ones included):
    // each post charged once on this day, none twice (issue #30).
    let usage = try await tweets.run(["usage", "--format", "json"])
    let rows = (try usage.json() as? [String: Any])?["spent"] as? [[String: Any]] ?? []
    let charged = rows.filter { $0["command"] as? String == "timeline" }.map { $0["items"] as? Int ?? 0 }.reduce(0, +)
    #expect(charged == expected.count, "posts charged in the ledger: \(charged) of \(expected.count); \(rows)")
    // One fetch, resumed after each kill (no kill landed before its row was made, or a second
    // fetch was started from the beginning by the --resume of a run with none yet).
    #expect(reading.fetches.last?.status == "complete" && reading.fetches.last?.records == 2000, "\(reading.fetches)")
    print(
      "[db] \(kills) SIGKILLs, then complete: \(reading.tweet_ids.count) tweets, \(reading.fetches.count) fetch rows, integrity \(reading.integrity)")
  }

  @Test("A re-run updates the counts without new rows; the documented queries run as written in Python's sqlite3")
  func rerunAndQueries() async throws {
    let server = try await VerifiedSandbox.start(tweetsPerUser: 120)
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()
    let file = folder.appendingPathComponent("swift.sqlite")
    let command = ["timeline", "swift_lang", "--limit", "50", "--db", file.path]
    #expect(try await tweets.run(command).status == 0)
    let first = try await Self.read(file)
    #expect(first.tweet_ids.count == 50)
    // A reply by sandbox_user to swift_lang's newest tweet: that tweet's reply count grows, and
    // the reply is not in swift_lang's timeline.
    let newest = try #require(first.tweet_ids.compactMap { UInt64($0) }.max())
    let before = try await Self.read(file, queries: ["replies": "SELECT reply_count FROM tweets WHERE id = \(newest)"])
    #expect(try await tweets.run(["post", "A reply to count", "--reply-to", String(newest)]).status == 0)
    let rerun = try await tweets.run(command)
    #expect(rerun.status == 0, "\(rerun.stderr)")
    let after = try await Self.read(file, queries: ["replies": "SELECT reply_count FROM tweets WHERE id = \(newest)"])
    #expect(Set(after.tweet_ids) == Set(first.tweet_ids), "no new rows")
    guard case .number(let old) = before.queries["replies"]?.first?.first, case .number(let new) = after.queries["replies"]?.first?.first else {
      Issue.record("no reply count: \(before.queries) \(after.queries)")
      return
    }
    #expect(new == old + 1, "the newest count wins")
    #expect(after.fetches.count == 2, "a re-run adds a row to fetches only")

    // More data for the queries: a conversation and other authors.
    #expect(try await tweets.run(["search", "swift", "--limit", "60", "--db", file.path]).status == 0)
    let queries = try Self.documentedQueries()
    #expect(queries.count == 3)
    let reading = try await Self.read(file, queries: Dictionary(uniqueKeysWithValues: queries.enumerated().map { ("q\($0.offset)", $0.element) }))
    for (name, rows) in reading.queries.sorted(by: { $0.key < $1.key }) {
      #expect(!rows.isEmpty, "query \(name) returned nothing")
    }
    // Top authors: swift_lang first, with its 50 timeline tweets at least.
    if case .text(let top) = reading.queries["q0"]?.first?.first { #expect(top == "swift_lang") }
  }

  /// The ```sql blocks of the schema article, as a reader would copy them.
  static func documentedQueries() throws -> [String] {
    let article = try String(contentsOf: PackagePaths.root.appendingPathComponent("Sources/XArchive/XArchive.docc/ArchiveSchema.md"), encoding: .utf8)
    return article.components(separatedBy: "```sql\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
  }

  @Test("SIGTERM stops a fetch cleanly: exit 143, the fetch recorded as stopped, the database closed (no log left), and --resume completes it")
  func terminated() async throws {
    let server = try await VerifiedSandbox.start(tweetsPerUser: 1000)
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()
    // Two pages at once, then a third that takes 30 s: the signal comes while it is awaited.
    try await server.script("/2/users/1001/tweets", [["delay": 0], ["delay": 0], ["delay": 30]])
    let file = folder.appendingPathComponent("term.sqlite")
    let process = try start(tweets, ["timeline", "sandbox_user", "--all", "--db", file.path])
    let deadline = Date().addingTimeInterval(TestTiming.seconds(20))
    while Date() < deadline, process.isRunning, (try? await Self.read(file).tweet_ids.count) ?? 0 < 200 {
      try await Task.sleep(for: .milliseconds(50))
    }
    let signalled = Date()
    kill(process.processIdentifier, SIGTERM)
    let exit = try await process.exited()
    #expect(exit.code == 143, "exit \(exit)")
    #expect(Date().timeIntervalSince(signalled) < TestTiming.seconds(10), "the awaited page was cancelled, not waited for")
    #expect(!FileManager.default.fileExists(atPath: file.path + "-wal"), "the database was closed: no write-ahead log left")
    let stopped = try await Self.read(file)
    #expect(stopped.integrity == "ok")
    #expect(stopped.fetches.map(\.status) == ["stopped"] && stopped.tweet_ids.count == 200, "\(stopped.fetches), \(stopped.tweet_ids.count)")

    let resumed = try await tweets.run(["timeline", "sandbox_user", "--all", "--db", file.path, "--resume"])
    #expect(resumed.status == 0, "\(resumed.stderr)")
    #expect(resumed.stderr.contains("resuming fetch 1 after 200 tweets (2 pages)"), "\(resumed.stderr)")
    let done = try await Self.read(file)
    #expect(done.tweet_ids.count == 1000 && Set(done.tweet_ids).count == 1000)
    #expect(done.fetches.count == 1 && done.fetches[0].status == "complete")
  }

  @Test("hydrate of 100,000 ids with kills and --resume: every found id once in tweets, every missing id once in missing_tweets")
  func hydrateAtScale() async throws {
    // X's limit of 300 lookups per window, with a 1-second window: 1,000 lookups are not held up.
    let server = try await VerifiedSandbox.start(tweetsPerUser: 20_000, rateWindow: 1)
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()
    let known = try await server.tweetIDs()
    #expect(known.count == 60_000)
    // 100,000 ids: the 60,000 tweets and 40,000 ids between them that name none, mixed.
    let absent = known.prefix(40_000).map { String(UInt64($0)! + 1) }
    var input: [String] = []
    input.reserveCapacity(100_000)
    for (index, id) in known.enumerated() {
      input.append(id)
      if index < absent.count { input.append(absent[index]) }
    }
    #expect(input.count == 100_000)
    let ids = folder.appendingPathComponent("ids.txt")
    try (input.joined(separator: "\n") + "\n").write(to: ids, atomically: true, encoding: .utf8)
    let file = folder.appendingPathComponent("hydrated.sqlite")

    let started = Date()
    let (status, kills) = try await killAndResume(tweets, ["hydrate", ids.path, "--db", file.path], kills: 5, within: 500_000...4_000_000)
    // The status is the last run's: 4 when it met a missing id, 0 when the kills let it start
    // past the last of them (the input's last 20,000 ids all name tweets). The table is the record.
    #expect(status == 4 || status == 0, "exit \(status)")
    let reading = try await Self.read(file)
    #expect(reading.integrity == "ok")
    #expect(reading.tweet_ids.count == 60_000 && Set(reading.tweet_ids) == Set(known))
    #expect(reading.missing_ids.count == 40_000 && Set(reading.missing_ids) == Set(absent))
    #expect(reading.fetches.last?.input_done == 100_000 && reading.fetches.last?.status == "complete", "\(reading.fetches)")
    print(
      "[hydrate] 100,000 ids (60,000 found, 40,000 missing) with \(kills) SIGKILLs: complete in "
        + String(format: "%.1f s", Date().timeIntervalSince(started)) + ", each id once")
  }

  @Test("hydrate --output --resume continues after the ids done; refusals name what to do")
  func hydrateToAFile() async throws {
    let tweets = try TweetsRunner(server: try await VerifiedSandbox.start(tweetsPerUser: 300))
    try await tweets.loginWithTokens()
    let reference = try await tweets.run(["timeline", "sandbox_user", "--all", "--format", "jsonl"])
    let known = reference.stdout.split(separator: "\n").compactMap { line in
      (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? String
    }
    let ids = folder.appendingPathComponent("ids.txt")
    try (known.joined(separator: "\n") + "\n").write(to: ids, atomically: true, encoding: .utf8)
    let out = folder.appendingPathComponent("out.jsonl")
    let (status, _) = try await killAndResume(
      tweets, ["hydrate", ids.path, "--format", "jsonl", "--output", out.path], kills: 2, within: 10_000...150_000)
    #expect(status == 0)
    let lines = try String(contentsOf: out, encoding: .utf8).split(separator: "\n").map { line in
      (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? String ?? "?"
    }
    #expect(lines == known, "the input's order, each id once")

    let both = try await tweets.run(["hydrate", ids.path, "--output", out.path, "--db", folder.appendingPathComponent("x.sqlite").path])
    #expect(both.status == 2 && both.stderr.contains("give --output FILE or --db FILE, not both"))
    let format = try await tweets.run(["timeline", "--format", "csv", "--db", folder.appendingPathComponent("x.sqlite").path])
    #expect(format.status == 2 && format.stderr.contains("leave out --format"))
    let notAnArchive = try await tweets.run(["timeline", "--limit", "5", "--db", ids.path])
    #expect(notAnArchive.status == 1 && notAnArchive.stderr.contains(ids.path), "\(notAnArchive.stderr)")
  }
}
