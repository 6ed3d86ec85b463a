import Foundation
import TestSupport
import Testing

/// `tweets --output FILE` and `--resume` as processes against the X sandbox over loopback: a 2,000-tweet
/// timeline (20 pages) killed with SIGKILL at random moments and resumed until done, many
/// times over; a run stopped by a rate limit and resumed; and the refusals.
@Suite("tweets --output and --resume", .sandboxChecks, .tags(.peers, .processes), .tier(.peers), .serialized)
struct ResumeTests {
  static let tweetCount = 2000
  static let wantedKills = 50

  func fetch(_ tweets: TweetsRunner, _ file: URL, resume: Bool, pause: Bool = false) throws -> Process {
    let process = Process()
    process.executableURL = PackagePaths.executable("tweets")
    process.arguments =
      ["timeline", "sandbox_user", "--all", "--format", "jsonl", "--output", file.path] + (resume ? ["--resume"] : []) + tweets.common
    var environment = tweets.environment
    // Every other fetch widens the moment between a page's write and its checkpoint to 30 ms,
    // so that kills land there too, not only while waiting for the network.
    if pause { environment["TWEETS_FAULT_PAUSE_MS"] = "30" }
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.runOneAtATime()
    return process
  }

  /// Every line whole JSON, every id once.
  func ids(in file: URL) throws -> [String] {
    let text = try String(contentsOf: file, encoding: .utf8)
    #expect(text.isEmpty || text.hasSuffix("\n"), "the file ends in half a line")
    return try text.split(separator: "\n").map { line in
      let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a whole JSON line: \(line)")
      return try #require(object["id"] as? String)
    }
  }

  @Test("Killed with SIGKILL at random moments and resumed until done: every tweet exactly once")
  func killedAndResumed() async throws {
    let tweets = try TweetsRunner(server: try await VerifiedSandbox.start(tweetsPerUser: Self.tweetCount))
    try await tweets.loginWithTokens()
    let reference = try await tweets.run(["timeline", "sandbox_user", "--all", "--format", "jsonl"])
    let expected = reference.stdout.split(separator: "\n").compactMap { line in
      (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? String
    }
    #expect(expected.count == Self.tweetCount && Set(expected).count == Self.tweetCount)

    var kills = 0, fetches = 0, resumes = 0, uncommittedTails = 0, halfLines = 0
    var random = SystemRandomNumberGenerator()
    let started = Date()
    while kills < Self.wantedKills {
      fetches += 1
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tweets-resume-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: folder) }
      let file = folder.appendingPathComponent("out.jsonl")
      var attempts = 0
      while true {
        attempts += 1
        #expect(attempts < 200, "no progress after 200 attempts")
        if attempts >= 200 { return }
        let resume = FileManager.default.fileExists(atPath: file.path + ".checkpoint")
        if resume { resumes += 1 }
        let process = try fetch(tweets, file, resume: resume, pause: fetches % 2 == 0)
        // A random moment within a typical run (about 0.3 to 0.7 s here, most of it pages),
        // stretched as the sanitizers stretch the run (under ThreadSanitizer no kill came late
        // enough for a page to land, and 200 attempts made no progress).
        try await Task.sleep(for: .microseconds(Double(UInt32.random(in: 20_000...450_000, using: &random)) * TestTiming.scale))
        if process.isRunning {
          kill(process.processIdentifier, SIGKILL)
          if try await process.exited().signal != nil {
            kills += 1
            // What the kill left: lines past the checkpoint (to be cut), perhaps half of one.
            let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.intValue ?? 0
            let checkpoint = (try? Data(contentsOf: file.appendingPathExtension("checkpoint")))
              .flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
            let committed = (checkpoint?["bytes"] as? NSNumber)?.intValue ?? 0
            if size > committed { uncommittedTails += 1 }
            if size > 0, let data = try? Data(contentsOf: file), data.last != UInt8(ascii: "\n") { halfLines += 1 }
            continue
          }
        }
        let exit = try await process.exited()
        #expect(exit.code == 0, "a fetch ended with status \(exit)")
        break
      }
      let found = try ids(in: file)
      #expect(found == expected, "fetch \(fetches): \(found.count) lines, \(Set(found).count) distinct ids, \(expected.count) expected")
      let checkpoint = try String(contentsOf: file.appendingPathExtension("checkpoint"), encoding: .utf8)
      #expect(checkpoint.contains(#""complete" : true"#))
    }
    print(
      "[resume] \(kills) SIGKILLs over \(fetches) complete fetches of \(Self.tweetCount) tweets (\(resumes) resumed runs; "
        + "\(uncommittedTails) kills left lines past the checkpoint, \(halfLines) half a line) in "
        + String(format: "%.1f s", Date().timeIntervalSince(started)) + "; every fetch: every id exactly once, every line whole")
  }

  @Test("A rate-limit stop leaves a checkpoint, says how to resume, and the resumed run completes")
  func stoppedByARateLimit() async throws {
    let server = try await VerifiedSandbox.start(tweetsPerUser: 1000)
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tweets-ratelimit-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("out.csv")
    let command = ["timeline", "sandbox_user", "--all", "--format", "csv", "--output", file.path, "--no-wait"]

    try await server.setRemaining("/2/users/1001/tweets", 4)
    let stopped = try await tweets.run(command)
    #expect(stopped.status == 5, "\(stopped.stderr)")
    #expect(stopped.stderr.contains("stopped after 400 tweets"), "\(stopped.stderr)")
    // The command to resume with: the fetch, without how it ran (--no-wait).
    #expect(stopped.stderr.contains("Resume with:\n  tweets timeline sandbox_user --all --format csv --base-url "))
    #expect(stopped.stderr.contains(" --output \(file.path) --resume\n") && !stopped.stderr.contains("--no-wait --"))
    #expect(stopped.stderr.contains("--resume"))

    try await server.reset()
    let resumed = try await tweets.run(command + ["--resume"])
    #expect(resumed.status == 0, "\(resumed.stderr)")
    #expect(resumed.stderr.contains("resuming after 400 tweets (4 pages)"))
    let rows = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\r\n").filter { !$0.isEmpty }
    #expect(rows.first?.hasPrefix("id,created_at,") == true)
    #expect(rows.filter { $0.hasPrefix("id,") }.count == 1, "one header, not one per run")
    let ids = rows.dropFirst().map { $0.prefix { $0 != "," } }
    #expect(ids.count == 1000 && Set(ids).count == 1000)

    let again = try await tweets.run(command + ["--resume"])
    #expect(again.status == 0 && again.stderr.contains("is complete (1000 tweets): nothing to resume"))
  }

  /// The peak memory of a `tweets` process (its maximum resident set, from a Python parent's
  /// `getrusage(RUSAGE_CHILDREN)`), fetching `count` tweets with `--all --output`. Under
  /// AddressSanitizer (`.ci/sanitizers address`) its quarantine of freed memory is turned off for
  /// that process, so that the figure is the program's and not the quarantine's (which kept
  /// 248 MB more for 5,000 tweets than for 500).
  func peakMemory(tweets count: Int) async throws -> (kilobytes: Int, lines: Int) {
    let tweets = try TweetsRunner(server: try await VerifiedSandbox.start(tweetsPerUser: count))
    try await tweets.loginWithTokens()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tweets-memory-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("out.jsonl")
    let measure =
      "import resource, subprocess, sys; code = subprocess.run(sys.argv[1:]).returncode; "
      + "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); sys.exit(code)"
    let result = try await ProcessRunner.run(
      URL(fileURLWithPath: "/usr/bin/env"),
      [
        "python3", "-c", measure, PackagePaths.executable("tweets").path, "timeline", "sandbox_user", "--all", "--format", "jsonl", "--output",
        file.path,
      ]
        + tweets.common, environment: Self.withoutQuarantine(tweets.environment), timeout: TestTiming.seconds(120))
    #expect(result.status == 0, "\(result.stderr)")
    let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").count
    return (Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0, lines)
  }

  /// `environment` with AddressSanitizer's quarantine off (it has no effect on a build without it).
  static func withoutQuarantine(_ environment: [String: String]) -> [String: String] {
    var environment = environment
    let options = [environment["ASAN_OPTIONS"], "quarantine_size_mb=0:thread_local_quarantine_size_kb=0"].compactMap { $0 }
    environment["ASAN_OPTIONS"] = options.joined(separator: ":")
    return environment
  }

  @Test("Memory stays flat with the number of tweets: 5,000 tweets peak within 16 MB of 500")
  func memoryStaysFlat() async throws {
    let small = try await peakMemory(tweets: 500), large = try await peakMemory(tweets: 5000)
    #expect(small.lines == 500 && large.lines == 5000)
    print("[memory] tweets --all --output: peak RSS \(small.kilobytes) KB for 500 tweets, \(large.kilobytes) KB for 5,000")
    #expect(large.kilobytes - small.kilobytes < 16_384, "peak grew by \(large.kilobytes - small.kilobytes) KB")
  }

  @Test("Refusals: an existing file, another fetch's checkpoint, json, other commands, lines with no checkpoint")
  func refusals() async throws {
    let tweets = try TweetsRunner(server: try await VerifiedSandbox.start())
    try await tweets.loginWithTokens()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tweets-refusals-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("out.jsonl")
    #expect(try await tweets.run(["timeline", "sandbox_user", "--limit", "30", "--format", "jsonl", "--output", file.path]).status == 0)
    #expect(try ids(in: file).count == 30)

    // Credentials given as options are never written to the checkpoint nor printed to resume with.
    let withKeys = folder.appendingPathComponent("keys.jsonl")
    let keyed = try await tweets.run(["timeline", "sandbox_user", "--limit", "5", "--format", "jsonl", "--output", withKeys.path] + tweets.consumer)
    #expect(keyed.status == 0)
    let checkpoint = try String(contentsOf: withKeys.appendingPathExtension("checkpoint"), encoding: .utf8)
    #expect(!checkpoint.contains(VerifiedSandbox.consumerSecret) && !checkpoint.contains("--consumer-secret"))

    let again = try await tweets.run(["timeline", "sandbox_user", "--limit", "30", "--format", "jsonl", "--output", file.path])
    #expect(again.status == 2 && again.stderr.contains("already exists with a checkpoint: add --resume"))
    let other = try await tweets.run(["search", "from:swift_lang", "--format", "jsonl", "--output", file.path, "--resume"])
    #expect(other.status == 2 && other.stderr.contains("holds another fetch; resume it with: tweets timeline sandbox_user"))
    let json = try await tweets.run(["timeline", "sandbox_user", "--json", "--output", folder.appendingPathComponent("x.json").path])
    #expect(json.status == 2 && json.stderr.contains("use --format jsonl"))
    let show = try await tweets.run(["show", "1", "--output", folder.appendingPathComponent("s.jsonl").path])
    #expect(show.status == 2 && show.stderr.contains("tweets show does not take --output: timeline, hydrate, search,"), "\(show.stderr)")
    let unaccounted = folder.appendingPathComponent("lines.jsonl")
    try Data("{\"id\":\"1\"}\n".utf8).write(to: unaccounted)
    let noCheckpoint = try await tweets.run(["timeline", "sandbox_user", "--format", "jsonl", "--output", unaccounted.path, "--resume"])
    #expect(noCheckpoint.status == 2 && noCheckpoint.stderr.contains("holds 11 bytes but has no checkpoint"), "\(noCheckpoint.stderr)")
  }

  /// A retry loop (`until tweets ... --resume; do sleep 60; done`) whose first run stopped
  /// before its output existed (here a rate limit on the user lookup, with --no-wait): the
  /// next runs start from the beginning, as `wget -c` does, instead of failing for ever.
  @Test("--resume with no checkpoint yet starts from the beginning when the file is absent or empty")
  func resumeBeforeTheFirstCheckpoint() async throws {
    let server = try await VerifiedSandbox.start(tweetsPerUser: 300)
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tweets-first-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("out.jsonl")
    let command = ["timeline", "sandbox_user", "--all", "--format", "jsonl", "--output", file.path, "--resume", "--no-wait"]

    try await server.script("/2/users/by/username", [["status": 429, "reset_in": 600]])
    let stopped = try await tweets.run(command)
    #expect(stopped.status == 5, "\(stopped.stderr)")
    #expect(!FileManager.default.fileExists(atPath: file.path + ".checkpoint"))

    let started = try await tweets.run(command)
    #expect(started.status == 0, "\(started.stderr)")
    #expect(started.stderr.contains("tweets: no checkpoint for \(file.path) yet: fetching from the beginning"), "\(started.stderr)")
    #expect(try ids(in: file).count == 300)
    let again = try await tweets.run(command)
    #expect(again.status == 0 && again.stderr.contains("is complete (300 tweets): nothing to resume"), "\(again.stderr)")

    let empty = folder.appendingPathComponent("empty.jsonl")
    try Data().write(to: empty)
    let fromEmpty = try await tweets.run(["timeline", "sandbox_user", "--limit", "5", "--format", "jsonl", "--output", empty.path, "--resume"])
    #expect(fromEmpty.status == 0 && fromEmpty.stderr.contains("fetching from the beginning"), "\(fromEmpty.stderr)")
    #expect(try ids(in: empty).count == 5)
  }
}
