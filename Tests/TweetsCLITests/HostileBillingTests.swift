import Foundation
import TestSupport
import Testing

/// What a server says must not decide what the budget believes (issue #43, items 4, 5 and 12):
/// `tweets` as a process against `Tests/Peers/hostile_billing.py`, a loopback X that sends any
/// `Date`, more posts than asked for, and counts near `Int.max`.
@Suite("A hostile server cannot move, hide or inflate the charges", .tags(.processes), .tier(.processes))
struct HostileBillingTests {
  /// A config directory of its own, inside a folder of its own (so that a profile name that
  /// climbs out of the config directory is caught in the folder), and the server.
  final class Setup: @unchecked Sendable {
    let folder: URL
    let configDirectory: URL
    let server: LoopbackServer
    let requestLog: URL

    init(_ arguments: [String]) async throws {
      folder = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-billing-\(UUID().uuidString)")
      configDirectory = folder.appendingPathComponent("config")
      try FileManager.default.createDirectory(at: configDirectory, withIntermediateDirectories: true)
      requestLog = folder.appendingPathComponent("requests.log")
      server = try await LoopbackServer.start(script: "hostile_billing.py", arguments: arguments + ["--log", requestLog.path])
    }

    deinit {
      server.stop()
      try? FileManager.default.removeItem(at: folder)
    }

    /// Runs `tweets` against the server with user and app credentials from the environment.
    func run(_ arguments: [String], stdin: String = "") async throws -> ProcessResult {
      var environment = ProcessInfo.processInfo.environment
      for key in environment.keys where key.hasPrefix("X_") || key.hasPrefix("TWITTER_") || key.hasPrefix("TWEETS_") {
        environment.removeValue(forKey: key)
      }
      environment["NO_COLOR"] = "1"
      environment["X_CONSUMER_KEY"] = "hostile-consumer"
      environment["X_CONSUMER_SECRET"] = "hostile-consumer-secret"
      environment["X_ACCESS_TOKEN"] = "42-hostile-token"
      environment["X_ACCESS_TOKEN_SECRET"] = "hostile-token-secret"
      environment["X_BEARER_TOKEN"] = "hostile-bearer"
      return try await ProcessRunner.run(
        PackagePaths.executable("tweets"),
        arguments + ["--base-url", server.baseURL.absoluteString, "--config-dir", configDirectory.path], stdin: Data(stdin.utf8),
        environment: environment, timeout: 60)
    }

    /// The requests the server answered whose target starts with `prefix`.
    func requests(_ prefix: String) throws -> [String] {
      guard let text = try? String(contentsOf: requestLog, encoding: .utf8) else { return [] }
      return text.split(separator: "\n").map { String($0.dropFirst(4)) }.filter { $0.hasPrefix(prefix) }
    }

    /// `tweets usage --format json`: what the ledger says was spent this cycle, and the report.
    func spent() async throws -> (cycle: String, report: [String: Any]) {
      let usage = try await run(["usage", "--format", "json"])
      let report = try #require(try JSONSerialization.jsonObject(with: Data(usage.stdout.utf8)) as? [String: Any], "\(usage.stderr)")
      return (report["spent_this_cycle"] as? String ?? "?", report)
    }
  }

  static func httpDate(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter.string(from: date)
  }

  static func utcDay(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd"
    return formatter.string(from: date)
  }

  /// A `Date` of 9999 or 2000 used to date the charges outside the billing cycle, where
  /// `tweets usage` did not look: $0.05 of posts showed as $0. Such a `Date` is not believed
  /// now (a warning says so), and the charges are on this computer's UTC day.
  @Test(arguments: ["Fri, 31 Dec 9999 23:59:59 GMT", "Sat, 01 Jan 2000 00:00:00 GMT"])
  func aDateFarFromTheClockDoesNotHideTheSpending(date: String) async throws {
    let setup = try await Setup(["--date", date])
    let search = try await setup.run(["search", "a", "--limit", "10", "--format", "jsonl"])
    #expect(search.status == 0, "\(search.stderr)")
    #expect(search.stdout.split(separator: "\n").count == 10)
    #expect(search.stderr.contains("warning: the server's clock"), "\(search.stderr)")
    let (cycle, report) = try await setup.spent()
    #expect(USDText(cycle) == USDText("0.05"), "\(report)")
    let rows = report["spent"] as? [[String: Any]] ?? []
    #expect(rows.map { $0["day"] as? String } == [Self.utcDay(Date())], "\(rows)")
  }

  /// Charges already in the ledger dated outside the cycle (recorded by a run that believed a
  /// `Date` of 9999) are listed apart by `tweets usage` and counted in the cycle.
  @Test func usageShowsChargesRecordedInTheCycleButDatedOutsideIt() async throws {
    let setup = try await Setup([])
    try await Self.seedLedger(setup, day: "9999-12-31", ids: 1...20)
    let (cycle, report) = try await setup.spent()
    #expect(USDText(cycle) == USDText("0.10"), "\(report)")
    let outside = report["dated_outside_cycle"] as? [[String: Any]] ?? []
    #expect(outside.count == 1 && outside.first?["day"] as? String == "9999-12-31" && outside.first?["items"] as? Int == 20, "\(report)")
    let text = try await setup.run(["usage"])
    #expect(text.stdout.contains("dated outside it") && text.stdout.contains("9999-12-31"), "\(text.stdout)")
  }

  /// The budget took the ids already bought from the previous answer's `Date` day: with a
  /// server whose `Date` says yesterday, posts bought yesterday looked free today, and a run
  /// under `--max-cost 0.50` looked up ten batches of them ($5.00 at X), recorded as $0. Now
  /// the day is this computer's, the first batch costs $0.50 and the second is refused.
  @Test func aStaleDateCannotMakeTodaysPostsFree() async throws {
    let yesterday = Date().addingTimeInterval(-86_400)
    let setup = try await Setup(["--date", Self.httpDate(yesterday)])
    try await Self.seedLedger(setup, day: Self.utcDay(yesterday), ids: 1...1000)
    let file = setup.folder.appendingPathComponent("ids.txt")
    try Data((1...1000).map(String.init).joined(separator: "\n").utf8).write(to: file)
    let hydrate = try await setup.run(["hydrate", file.path, "--format", "jsonl", "--max-cost", "0.50"])
    #expect(hydrate.status == 7, "\(hydrate.stderr)")
    let lookups = try setup.requests("/2/tweets?")
    #expect(lookups.count == 1, "\(lookups)")
    #expect(hydrate.stderr.contains("warning: the server's clock"), "\(hydrate.stderr)")
    let (_, report) = try await setup.spent()
    #expect(USDText(report["spent_today"] as? String ?? "?") == USDText("0.50"), "\(report)")
  }

  /// A server that answers 500 posts to a request for 10 used to have all 500 recorded ($2.50
  /// under a $0.05 limit). What was asked for is charged; the rest is counted in a warning.
  @Test func moreThanWasAskedForIsNotCharged() async throws {
    let setup = try await Setup(["--posts", "500"])
    let search = try await setup.run(["search", "a", "--limit", "10", "--format", "jsonl", "--max-cost", "0.05"])
    #expect(search.status == 0, "\(search.stderr)")
    #expect(search.stderr.contains("answered 490 more items than were asked for"), "\(search.stderr)")
    let (cycle, report) = try await setup.spent()
    #expect(USDText(cycle) == USDText("0.05"), "\(report)")
  }

  /// Counts near `Int.max` trapped the sum of the buckets (exit 132) in `tweets counts` and in
  /// `search --estimate --all`; they are shown now, and the estimate says "more than".
  @Test func countsNearIntMaxDoNotCrash() async throws {
    let setup = try await Setup([])
    let counts = try await setup.run(["counts", "a", "--granularity", "day"])
    #expect(counts.status == 0, "\(counts.status) \(counts.stderr)")
    #expect(counts.stdout.contains("total: \(Int.max)"), "\(counts.stdout)")
    let estimate = try await setup.run(["search", "a", "--estimate", "--all"])
    #expect(estimate.status == 0, "\(estimate.status) \(estimate.stderr)")
    #expect(estimate.stdout.contains("\(Int.max) posts match: fetching them costs more than $"), "\(estimate.stdout)")
  }

  /// `USD` read 13 digits of dollars and multiplied them by 10^6 (a trap for
  /// `--max-cost 9999999999999`). Amounts are at most $1,000,000,000 (`USD.maximum`): at it
  /// they are taken, past it refused with a message that names it.
  @Test func moneyInputsStopAtTheirMaximum() async throws {
    let setup = try await Setup([])
    for amount in ["9999999999999", "99999999999999999999999", "1000000000.000001"] {
      let budget = try await setup.run(["budget", amount])
      #expect(budget.status == 2 && budget.stderr.contains("at most $1000000000.00"), "\(amount): \(budget.status) \(budget.stderr)")
      let search = try await setup.run(["search", "a", "--limit", "1", "--max-cost", amount])
      #expect(search.status == 2 && search.stderr.contains("at most $1000000000.00"), "\(amount): \(search.status) \(search.stderr)")
    }
    let atMost = try await setup.run(["budget", "1000000000"])
    #expect(atMost.status == 0 && atMost.stdout.contains("$1000000000.00"), "\(atMost.stderr)")
    let search = try await setup.run(["search", "a", "--limit", "1", "--format", "jsonl", "--max-cost", "1,000,000,000.00"])
    #expect(search.status == 0, "\(search.stderr)")
    #expect(try setup.requests("/2/tweets/search/recent").isEmpty == false)
  }

  /// `tweets budget` limited each run: two runs under `tweets budget 0.50` spent $1.015
  /// together. It is the profile's limit per billing cycle now, checked against what the ledger
  /// recorded: the second run is refused before its first request.
  @Test func theProfilesBudgetIsSharedByItsRuns() async throws {
    let setup = try await Setup([])
    #expect(try await setup.run(["budget", "0.50"]).stdout.contains("per billing cycle"))
    let first = try await setup.run(["search", "a", "--limit", "100", "--format", "jsonl"])
    #expect(first.status == 0, "\(first.stderr)")
    let second = try await setup.run(["search", "a", "--limit", "10", "--format", "jsonl"])
    #expect(second.status == 7, "\(second.stderr)")
    #expect(second.stderr.contains("of the $0.50 allowed this billing cycle") && second.stderr.contains("tweets budget"), "\(second.stderr)")
    #expect(try setup.requests("/2/tweets/search/recent").count == 1)
    let (cycle, _) = try await setup.spent()
    #expect(USDText(cycle) == USDText("0.50"))
  }

  /// `--profile ../../x` named a ledger outside the config directory. A profile's name is one
  /// file name of a documented character set; any other is refused before anything is written.
  @Test(arguments: ["../../escaped", "../escaped", "a/b", ".hidden", "", String(repeating: "p", count: 65), "naïve"])
  func aProfileNameCannotLeaveTheConfigDirectory(name: String) async throws {
    let setup = try await Setup([])
    let result = try await setup.run(["search", "a", "--limit", "1", "--profile", name])
    #expect(result.status == 2 && result.stderr.contains("--profile takes a name of 1 to 64 letters"), "\(result.status) \(result.stderr)")
    #expect(try setup.requests("/").isEmpty)
    let everything = FileManager.default.enumerator(atPath: setup.folder.path)?.allObjects as? [String] ?? []
    #expect(!everything.contains { $0.hasSuffix(".sqlite") }, "\(everything)")
    let fine = try await setup.run(["search", "a", "--limit", "1", "--format", "jsonl", "--profile", "work-2@x.com_1"])
    #expect(fine.status == 0, "\(fine.stderr)")
    #expect(FileManager.default.fileExists(atPath: setup.configDirectory.appendingPathComponent("ledgers/work-2@x.com_1.sqlite").path))
  }

  /// Writes charges for post `ids` dated `day` into the profile's ledger, as an earlier run
  /// would have: Python's sqlite3, with the ledger's schema (XArchive's `SQLiteLedger`).
  static func seedLedger(_ setup: Setup, day: String, ids: ClosedRange<Int>) async throws {
    let ledgers = setup.configDirectory.appendingPathComponent("ledgers")
    try FileManager.default.createDirectory(at: ledgers, withIntermediateDirectories: true)
    let script = """
      import sqlite3, sys, datetime
      db = sqlite3.connect(sys.argv[1])
      db.executescript("CREATE TABLE IF NOT EXISTS charges(day TEXT NOT NULL, kind TEXT NOT NULL, id TEXT NOT NULL, price_micros INTEGER NOT NULL, command TEXT NOT NULL, recorded_at TEXT NOT NULL, PRIMARY KEY (day, kind, id)) WITHOUT ROWID; PRAGMA user_version = 1;")
      now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
      db.executemany("INSERT INTO charges VALUES (?, 'post', ?, 5000, 'hydrate', ?)", [(sys.argv[2], str(i), now) for i in range(int(sys.argv[3]), int(sys.argv[4]) + 1)])
      db.commit()
      """
    let result = try await ProcessRunner.run(
      URL(fileURLWithPath: "/usr/bin/env"),
      ["python3", "-c", script, ledgers.appendingPathComponent("default.sqlite").path, day, String(ids.lowerBound), String(ids.upperBound)])
    #expect(result.status == 0, "\(result.stderr)")
  }
}

/// X answers a compliance job with one line per uploaded id; a server that adds lines for ids
/// never uploaded had them printed (and, over an archive, applied) as X's word (issue #43).
@Suite("Compliance results are matched against the ids uploaded", .tags(.processes), .tier(.processes))
struct ComplianceMatchingTests {
  @Test func resultsForIDsNotUploadedAreIgnoredAndCounted() async throws {
    let setup = try await HostileBillingTests.Setup(["--extra-results", "999,1000"])
    let run = try await setup.run(["compliance", "--ids", "-", "--poll-interval", "0.1"], stdin: "1\n2\n")
    #expect(run.status == 0, "\(run.stderr)")
    let ids = run.stdout.split(separator: "\n").compactMap { line in
      (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? String
    }
    #expect(ids == ["1", "2"], "\(run.stdout)")
    #expect(run.stderr.contains("answered 2 results for ids that were not uploaded"), "\(run.stderr)")
  }
}
