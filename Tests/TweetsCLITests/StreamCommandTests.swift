import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `tweets stream` and `tweets stream rules` as processes against the sandbox over loopback,
/// with faults injected through its control API. The waits between reconnects are measured
/// from the server's own log of connection times, not from the client's words. The stream goes
/// to the sandbox directly (`directURL`): it is bearer-only, so the oauthlib proxy has nothing
/// to check, and a proxy that buffers would hide the stream's timing.
@Suite("tweets stream against the sandbox", .sandboxChecks, .serialized, .tags(.peers, .processes), .tier(.peers, .processes))
struct StreamCommandTests {
  static let bearer = ["X_BEARER_TOKEN": VerifiedSandbox.bearerToken]
  /// Rules that together match every post of the sandbox's data.
  static let everyone = ["from:sandbox_user", "from:swift_lang", "from:oauth_fan"]

  func run(_ runner: TweetsRunner, _ arguments: [String], scale: Double? = nil) async throws -> ProcessResult {
    var environment = runner.environment.merging(Self.bearer) { $1 }
    if let scale { environment["TWEETS_STREAM_TIME_SCALE"] = String(scale) }
    // The session's options first: after a `--` every word is the rule's.
    let result = try await ProcessRunner.run(
      PackagePaths.executable("tweets"), runner.common(baseURL: runner.server.directURL.absoluteString) + arguments, environment: environment,
      timeout: TweetsRunner.hangTimeout)
    runner.record(result)
    return result
  }

  func addRules(_ runner: TweetsRunner, _ values: [String]) async throws {
    for value in values {
      let added = try await run(runner, ["stream", "rules", "add", value, "--tag", value.replacingOccurrences(of: "from:", with: "")])
      try #require(added.status == 0, "\(added.stderr)")
    }
  }

  /// Gaps in seconds between consecutive connection attempts (opened to opened).
  static func gaps(_ connections: [VerifiedSandbox.StreamConnection]) -> [Double] {
    zip(connections, connections.dropFirst()).map { $1.opened - $0.opened }
  }

  static func format(_ values: [Double]) -> String { values.map { String(format: "%.3f", $0) }.joined(separator: ", ") }

  @Test("rules: add with a tag, list, a refused rule shows X's words and exits non-zero, delete by id and --all")
  func rules() async throws {
    let server = try await VerifiedSandbox.start(tweetsPerUser: 20)
    let runner = try TweetsRunner(server: server)

    let added = try await run(runner, ["stream", "rules", "add", "from:swift_lang", "has:media", "--tag", "swift media"])
    #expect(added.status == 0, "\(added.stderr)")
    let id = try #require(added.stdout.split(separator: " ").dropFirst(2).first.map { String($0.dropLast()) })
    #expect(added.stdout.contains("from:swift_lang has:media (tag: swift media)"))

    let listed = try await run(runner, ["stream", "rules"])
    #expect(listed.status == 0)
    #expect(listed.stdout.contains("\(id)  from:swift_lang has:media  (tag: swift media)"))

    // X refuses a rule with an unknown operator, a duplicate, an over-long rule, a negation only.
    let refusals: [([String], String)] = [
      (["frm:swift_lang"], "Reference to invalid operator 'frm'"),
      (["from:swift_lang", "has:media"], "DuplicateRule"),
      ([String(repeating: "a", count: 1025)], "1024"),
      (["--", "-from:swift_lang"], "non-negation term"),
    ]
    for (words, expected) in refusals {
      let refused = try await run(runner, ["stream", "rules", "add"] + words)
      #expect(refused.status == 1, "\(words.joined(separator: " ").prefix(40)): \(refused.stderr)")
      #expect(refused.stderr.contains("X refused the rule") && refused.stderr.contains(expected), "\(refused.stderr)")
    }
    #expect(try await server.streamConnections().rules == 1, "a refused rule is not created")

    let unknown = try await run(runner, ["stream", "rules", "delete", "1234567"])
    #expect(unknown.status == 1 && unknown.stderr.contains("Rule does not exist"), "\(unknown.stderr)")
    let deleted = try await run(runner, ["stream", "rules", "delete", id])
    #expect(deleted.status == 0 && deleted.stdout.contains("Deleted 1 of 1 rules."), "\(deleted.stdout)\(deleted.stderr)")

    try await addRules(runner, Self.everyone)
    let all = try await run(runner, ["stream", "rules", "delete", "--all"])
    #expect(all.status == 0 && all.stdout.contains("Deleted 3 rules."), "\(all.stdout)\(all.stderr)")
    let empty = try await run(runner, ["stream", "rules"])
    #expect(empty.status == 0 && empty.stdout.isEmpty && empty.stderr.contains("No rules"))
    let noRules = try await run(runner, ["stream", "--limit", "1"])
    #expect(noRules.status != 0 && noRules.stderr.contains("no rules"), "a stream with no rule is X's 409: \(noRules.stderr)")
    #expect(!runner.everything.contains(VerifiedSandbox.bearerToken), "the bearer token is never printed")
  }

  @Test("TCP/IP errors back off linearly by 250 ms (a failed first connection counts); after a drop, reconnect at once")
  func networkBackoff() async throws {
    // The client's policy unscaled (X's 250 ms steps are measurable as they are); the sandbox's
    // firehose fast, so that the posts come at once.
    let server = try await VerifiedSandbox.start(tweetsPerUser: 20, streamTimeScale: 0.05)
    let runner = try TweetsRunner(server: server)
    try await addRules(runner, Self.everyone)
    try await server.script("/2/tweets/search/stream", Array(repeating: ["reset_connection": true], count: 3))
    try await server.streamFault(["disconnect": true, "after": 2])

    let result = try await run(runner, ["stream", "--limit", "5"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.split(separator: "\n").count == 5)
    let log = try await server.streamConnections().connections
    try #require(log.count == 5, "3 resets, the connection that dropped, the one that ended: \(log)")
    #expect(log.map { $0.status ?? -1 } == [0, 0, 0, 200, 200])
    #expect(log[3].reason == "disconnect (scripted)")
    let waits = Self.gaps(Array(log.prefix(4)))
    let dropToReconnect = log[4].opened - (log[3].closed ?? 0)
    print("[stream] network back-off waits (s): \(Self.format(waits)); after the drop: \(Self.format([dropToReconnect]))")
    // 0.25, 0.50, 0.75: the waits the client chose, in order, as it says them; each measured
    // wait no shorter. The upper bounds only catch a wrong policy (a busy machine adds whole
    // tenths of a second to a process's wake-up: a bound of 0.12 s failed for no fault).
    let chosen = result.stderr.split(separator: "\n").compactMap { $0.firstMatch(of: /waiting (\d+\.\d+) s/).map { String($0.1) } }
    #expect(chosen == ["0.25", "0.50", "0.75"], "\(result.stderr)")
    for (index, wait) in waits.enumerated() {
      let expected = 0.25 * Double(index + 1)
      #expect(wait >= expected - 0.01 && wait < expected + TestTiming.seconds(3), "wait \(index + 1): \(wait) s, X's \(expected) s")
    }
    // After the drop, no back-off: the client says it reconnects at once, and chose no wait.
    #expect(result.stderr.contains("the stream dropped") && result.stderr.contains("reconnecting at once"), "\(result.stderr)")
    #expect(dropToReconnect < TestTiming.seconds(3), "reconnect at once after a drop, not after a back-off: \(dropToReconnect) s")
  }

  @Test("HTTP errors back off from 5 s doubling, a 429 waits a minute doubling, 20 s of silence is a drop (all at 1/20 scale)")
  func httpBackoffRateLimitAndStall() async throws {
    let scale = 0.05
    let server = try await VerifiedSandbox.start(tweetsPerUser: 20, streamTimeScale: scale)
    let runner = try TweetsRunner(server: server)
    try await addRules(runner, Self.everyone)
    try await server.script("/2/tweets/search/stream", [["status": 503], ["status": 503], ["status": 429], ["status": 429]])
    try await server.streamFault(["stall": 3, "after": 2])

    let result = try await run(runner, ["stream", "--limit", "6", "--format", "raw"], scale: scale)
    #expect(result.status == 0, "\(result.stderr)")
    let log = try await server.streamConnections().connections
    try #require(log.count == 6, "two 503s, two 429s, the connection that stalled, the one that ended: \(log)")
    #expect(log.map { $0.status ?? -1 } == [503, 503, 429, 429, 200, 200])
    let waits = Self.gaps(Array(log.prefix(5)))
    let stalled = try #require(log[4].stalled)
    let silence = log[5].opened - stalled
    print(
      "[stream] at scale \(scale): HTTP 503 waits (s) \(Self.format(Array(waits.prefix(2)))), 429 waits \(Self.format(Array(waits.suffix(2)))), silence before the reconnect \(Self.format([silence]))"
    )
    // X's 5 s, 10 s, 60 s, 120 s and 20 s, scaled: the waits the client chose, as it says them,
    // and each measured wait no shorter. The upper bounds catch a wrong policy only, not a slow
    // wake-up on a busy machine.
    let chosen = result.stderr.split(separator: "\n").compactMap { $0.firstMatch(of: /waiting (\d+\.\d+) s/).map { Double($0.1) ?? -1 } }
    #expect(chosen == [5.0, 10, 60, 120].map { $0 * scale }, "\(result.stderr)")
    for (wait, expected) in zip(waits, [5.0, 10, 60, 120].map { $0 * scale }) {
      #expect(wait >= expected - 0.01 && wait < expected * 1.5 + TestTiming.seconds(3), "\(wait) s for X's \(expected / scale) s")
    }
    #expect(silence >= 20 * scale && silence < 20 * scale * 1.5 + TestTiming.seconds(3), "a stall of \(silence) s, X's 20 s")
    #expect(log[4].reason == "client gone", "the server found the client gone when it reconnected, not at the stall's end")
    #expect(result.stderr.contains("TooManyConnections"), "the 429 shows X's words: \(result.stderr)")
    #expect(result.stderr.contains("no post or keep-alive"))
    for line in result.stdout.split(separator: "\n") {
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      #expect(object?["data"] != nil && object?["matching_rules"] != nil, "raw lines are X's objects: \(line.prefix(80))")
    }
  }

  @Test(
    "a stale connection: the stream gets X's 429 TooManyConnections and names tweets stream connections --terminate-all; after it, the stream connects"
  )
  func staleConnection() async throws {
    let scale = 0.05
    let server = try await VerifiedSandbox.start(tweetsPerUser: 20, streamTimeScale: scale)
    let runner = try TweetsRunner(server: server)
    try await addRules(runner, Self.everyone)
    let none = try await run(runner, ["stream", "connections"])
    #expect(none.status == 0 && none.stdout.isEmpty && none.stderr.contains("No active connections"), "\(none.stderr)")

    // What a crashed collector leaves: a connection X still counts.
    try await server.streamFault(["stale": true])
    let listed = try await run(runner, ["stream", "connections"])
    #expect(listed.status == 0 && listed.stdout.contains("  filtered_stream since ") && listed.stdout.contains(" from 127.0.0.1"), "\(listed)")
    // X's 429 waits a minute (3 s at this scale): --duration ends the stream during the wait.
    let blocked = try await run(runner, ["stream", "--duration", "1"], scale: scale)
    #expect(blocked.stderr.contains("TooManyConnections"), "X's words: \(blocked.stderr)")
    #expect(blocked.stderr.contains("tweets stream connections --terminate-all"), "the command that cures it: \(blocked.stderr)")
    #expect(blocked.stderr.contains("waiting 3.00 s"), "then X's back-off as before: \(blocked.stderr)")
    #expect(try await server.streamConnections().connections.map { $0.status ?? -1 } == [200, 429])

    let ended = try await run(runner, ["stream", "connections", "--terminate-all"])
    #expect(ended.status == 0 && ended.stdout == "Ended 1 connection.\n", "\(ended.stdout)\(ended.stderr)")
    let streamed = try await run(runner, ["stream", "--limit", "2"], scale: scale)
    #expect(streamed.status == 0 && streamed.stdout.split(separator: "\n").count == 2, "\(streamed.stderr)")
    #expect(!streamed.stderr.contains("TooManyConnections"))

    // --terminate ID ends one connection; an unknown id is reported and exits 1.
    try await server.streamFault(["stale": true])
    let again = try await run(runner, ["stream", "connections"])
    let id = String(again.stdout.prefix { $0 != " " })
    let byID = try await run(runner, ["stream", "connections", "--terminate", id])
    #expect(byID.status == 0 && byID.stdout == "Ended 1 connection.\n", "\(byID.stdout)\(byID.stderr)")
    let unknown = try await run(runner, ["stream", "connections", "--terminate", "00000000-0000-0000-0000-000000000000", "not-a-connection"])
    #expect(unknown.status == 1 && unknown.stdout == "Ended 0 connections; 2 could not be ended.\n", "\(unknown.stdout)\(unknown.stderr)")
    #expect(unknown.stderr.contains("not-a-connection was not ended"), "\(unknown.stderr)")
    let extra = try await run(runner, ["stream", "connections", "now"])
    #expect(extra.status == 2 && extra.stderr.contains("takes no more arguments"), "\(extra.stderr)")
  }

  @Test("--duration ends the stream on time with exit 0; text shows the rules' tags; --sandbox streams offline")
  func durationAndOffline() async throws {
    let server = try await VerifiedSandbox.start(tweetsPerUser: 20, streamTimeScale: 0.05)
    let runner = try TweetsRunner(server: server)
    try await addRules(runner, Self.everyone)
    let timed = try await run(runner, ["stream", "--duration", "1", "--format", "text"])
    let elapsed = timed.seconds
    #expect(timed.status == 0, "\(timed.stderr)")
    // At least the duration; the upper bound catches a stream that does not end (the sandbox's
    // goes on for minutes), not a slow start on a busy machine.
    #expect(elapsed >= 1 && elapsed < TestTiming.seconds(30), "\(elapsed) s for --duration 1")
    #expect(timed.stdout.contains("  rules: swift_lang") || timed.stdout.contains("  rules: oauth_fan"), "\(timed.stdout.prefix(300))")

    // In process: no server, the sandbox's demo rule (from:swift_lang, tagged swift_lang).
    var environment = runner.environment
    environment["X_BEARER_TOKEN"] = nil
    let offline = try await ProcessRunner.run(
      PackagePaths.executable("tweets"), ["--sandbox", "--config-dir", runner.configDirectory.path, "stream", "--limit", "2"],
      environment: environment, timeout: 30)
    #expect(offline.status == 0, "\(offline.stderr)")
    let lines = offline.stdout.split(separator: "\n")
    #expect(lines.count == 2)
    for line in lines {
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      #expect((object?["author"] as? [String: Any])?["username"] as? String == "swift_lang")
      #expect((object?["matching_rules"] as? [[String: Any]])?.first?["tag"] as? String == "swift_lang")
    }
  }

  /// `tweets budget` is the profile's limit per billing cycle, shared by its runs (issue #43): it
  /// used to limit each run, so a second stream under the same budget bought as much again.
  @Test("tweets budget stops the stream at the billing cycle's limit, and the next run finds it spent")
  func theCycleBudgetStopsTheStream() async throws {
    let server = try await VerifiedSandbox.start(tweetsPerUser: 20, streamTimeScale: 0.05)
    let runner = try TweetsRunner(server: server)
    try await addRules(runner, Self.everyone)
    #expect(try await run(runner, ["budget", "0.01"]).status == 0)
    let first = try await run(runner, ["stream", "--format", "jsonl", "--duration", "5"])
    #expect(first.status == 7 && first.stderr.contains("billing cycle") && first.stderr.contains("tweets budget"), "\(first.stderr)")
    #expect(first.stdout.split(separator: "\n").count == 2, "two posts at $0.005: \(first.stdout.prefix(300))")
    let second = try await run(runner, ["stream", "--format", "jsonl", "--duration", "5"])
    #expect(second.status == 7, "\(second.stderr)")
    #expect(second.stdout.split(separator: "\n").count <= 1, "the cycle's $0.01 is spent: \(second.stdout.prefix(300))")
  }

  /// Streams with `arguments` (rules matching every post) until `written` says 5 posts are
  /// stored, then sends SIGTERM and returns how the process ended.
  func streamUntilFive(_ name: String, _ arguments: (URL) -> [String], written: (URL) async -> Int) async throws -> (
    file: URL, result: ProcessResult
  ) {
    let server = try await VerifiedSandbox.start(tweetsPerUser: 20, streamTimeScale: 0.05)
    let runner = try TweetsRunner(server: server)
    try await addRules(runner, Self.everyone)
    // Not in the runner's folder, which goes with the runner when this returns.
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("tweets-stream-\(UUID().uuidString)-\(name)")
    var environment = runner.environment
    environment["X_BEARER_TOKEN"] = VerifiedSandbox.bearerToken
    let process = try InteractiveProcess(
      PackagePaths.executable("tweets"), ["stream"] + arguments(file) + runner.common(baseURL: server.directURL.absoluteString),
      environment: environment)
    let deadline = Date().addingTimeInterval(TestTiming.seconds(20))
    while Date() < deadline, await written(file) < 5 { try await Task.sleep(for: .milliseconds(20)) }
    kill(process.pid, SIGTERM)
    let result = await process.wait(timeout: TestTiming.seconds(10))
    return (file, result)
  }

  @Test("SIGTERM ends the stream cleanly: exit 0, whole lines in the file, each with its rules' tags")
  func sigterm() async throws {
    let (file, result) = try await streamUntilFive(
      "stream.jsonl", { ["--output", $0.path] },
      written: { file in ((try? String(contentsOf: file, encoding: .utf8)) ?? "").split(separator: "\n").count })
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains("posts in"), "\(result.stderr)")
    let text = try String(contentsOf: file, encoding: .utf8)
    #expect(text.hasSuffix("\n"), "the last line is whole")
    let lines = text.split(separator: "\n")
    #expect(lines.count >= 5)
    for line in lines {
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      let rules = object?["matching_rules"] as? [[String: Any]]
      #expect(object?["id"] != nil && rules?.first?["tag"] != nil, "\(line.prefix(80))")
    }
  }

  @Test("--db stores each post with the tags of the rules it matched; SIGTERM closes the database cleanly (exit 0, no log left)")
  func intoTheArchive() async throws {
    let (file, result) = try await streamUntilFive(
      "stream.sqlite", { ["--db", $0.path] }, written: { file in (try? await ArchiveCommandTests.read(file).tweet_ids.count) ?? 0 })
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.isEmpty, "--db prints no post")
    #expect(!FileManager.default.fileExists(atPath: file.path + "-wal"), "the database was closed")
    let reading = try await ArchiveCommandTests.read(
      file,
      queries: [
        "untagged": "SELECT count(*) FROM tweets t WHERE NOT EXISTS (SELECT 1 FROM stream_matches m WHERE m.tweet_id = t.id)",
        "tags":
          "SELECT DISTINCT m.tag FROM stream_matches m JOIN tweets t ON t.id = m.tweet_id JOIN users u ON u.id = t.author_id WHERE m.tag = u.username",
      ])
    #expect(reading.integrity == "ok")
    #expect(reading.tweet_ids.count >= 5)
    #expect(reading.queries["untagged"]?.first?.first == .number(0), "every post has its rules")
    #expect((reading.queries["tags"]?.count ?? 0) >= 1, "a post's rule tag is its author's (the rules are from:USER, tagged USER)")
    // `records` counts the posts delivered; the archive keeps each once. A reconnect (a busy
    // machine's stall past the 20 s keep-alive) may deliver a post again: never fewer records.
    #expect(reading.fetches.count == 1 && reading.fetches[0].status == "complete" && reading.fetches[0].records >= reading.tweet_ids.count)
  }

  @Test(
    "Without X_BEARER_TOKEN the app's bearer token is obtained from its consumer key and secret; a wrong secret is refused (exit 3), nothing secret printed"
  )
  func bearerFromTheConsumer() async throws {
    let server = try await VerifiedSandbox.start(tweetsPerUser: 20)
    let runner = try TweetsRunner(server: server)
    let base = runner.common(baseURL: server.directURL.absoluteString)
    let keys = ["X_CONSUMER_KEY": VerifiedSandbox.consumerKey, "X_CONSUMER_SECRET": VerifiedSandbox.consumerSecret]
    let environment = runner.environment.merging(keys) { $1 }
    let listed = try await ProcessRunner.run(PackagePaths.executable("tweets"), base + ["stream", "rules", "--verbose"], environment: environment)
    #expect(listed.status == 0, "\(listed.stderr)")
    #expect(listed.stderr.contains("bearer token obtained from the consumer key and secret"), "\(listed.stderr)")
    let counts = try await ProcessRunner.run(PackagePaths.executable("tweets"), base + ["counts", "swift"], environment: environment)
    #expect(counts.status == 0, "\(counts.stderr)")
    for result in [listed, counts] {
      #expect(!(result.stdout + result.stderr).contains(VerifiedSandbox.bearerToken), "the bearer token is never printed")
      #expect(!(result.stdout + result.stderr).contains(VerifiedSandbox.consumerSecret))
    }

    var wrong = runner.environment
    wrong["X_CONSUMER_KEY"] = VerifiedSandbox.consumerKey
    wrong["X_CONSUMER_SECRET"] = "not-the-secret"
    let refused = try await ProcessRunner.run(PackagePaths.executable("tweets"), base + ["stream", "rules"], environment: wrong)
    #expect(refused.status == 3, "\(refused.stderr)")
    #expect(refused.stderr.contains("X did not issue one for consumer key \(VerifiedSandbox.consumerKey)"), "\(refused.stderr)")
    #expect(refused.stderr.contains("Unable to verify your credentials"), "X's words: \(refused.stderr)")
    #expect(!refused.stderr.contains("not-the-secret"))
  }
}
