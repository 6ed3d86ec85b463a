import Foundation
import TestSupport
import Testing

/// `tweets compliance` (issue #31) as a real process against the sandbox behind the oauthlib
/// proxy: an archive of 2,000 posts brought in line with what their authors did, read back with
/// Python's sqlite3 (code this project did not write); the storage URLs on another origin never
/// see a credential; a kill during the upload and during the polling resumes the same job.
@Suite("tweets compliance", .sandboxChecks, .tags(.processes), .tier(.processes))
struct ComplianceCommandTests {
  /// Runs `script` (Python, reading the archive at `argv[1]`) and decodes its JSON output.
  static func python(_ script: String, _ archive: String, _ arguments: [String] = []) async throws -> [String: Any] {
    let result = try await ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, archive] + arguments, timeout: 120)
    try #require(result.status == 0, "\(result.stderr)")
    return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
  }

  /// Every post of the archive: id → [author, text].
  static let postsScript = """
    import json, sqlite3, sys
    c = sqlite3.connect(sys.argv[1])
    print(json.dumps({str(i): [str(a), t] for i, a, t in c.execute('select id, author_id, text from tweets')}))
    """

  /// A sandbox, a signed-in `tweets`, and an archive of @sandbox_user's timeline.
  static func archiveOfOneTimeline(tweetsPerUser: Int) async throws -> (VerifiedSandbox, TweetsRunner, String) {
    let server = try await VerifiedSandbox.start(tweetsPerUser: tweetsPerUser)
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()
    let archive = tweets.configDirectory.appendingPathComponent("archive.sqlite").path
    #expect(try await tweets.run(["timeline", "sandbox_user", "--all", "--db", archive]).status == 0)
    return (server, tweets, archive)
  }

  /// Fills an archive with every post of the sandbox's three authors.
  static func fill(_ tweets: TweetsRunner, _ archive: String) async throws {
    for user in ["sandbox_user", "swift_lang", "oauth_fan"] {
      let run = try await tweets.run(["timeline", user, "--all", "--db", archive])
      #expect(run.status == 0, "\(run.stderr)")
    }
  }

  @Test("2,000 posts: 37 deleted, 5 protected, an author suspended, then an account deactivated: content gone, events kept, no credential to storage")
  func archiveFollowsItsAuthors() async throws {
    let server = try await VerifiedSandbox.start(tweetsPerUser: 667)
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()
    let archive = tweets.configDirectory.appendingPathComponent("study.sqlite").path
    try await Self.fill(tweets, archive)
    let before = try await Self.python(Self.postsScript, archive) as? [String: [String]] ?? [:]
    #expect(before.count >= 2000, "\(before.count) posts")

    // X's events: 37 posts deleted and 5 protected among 1001's and 1002's, author 1003 suspended.
    let others = before.filter { $0.value[0] != "1003" }.keys.sorted()
    let deleted = Array(others.prefix(37)), protected = Array(others.dropFirst(37).prefix(5))
    let suspended = before.filter { $0.value[0] == "1003" }.keys
    #expect(suspended.count > 300)
    var events: [String: String] = [:]
    for id in deleted { events[id] = "deleted" }
    for id in protected { events[id] = "protected" }
    try await server.compliance(["urls": "storage", "posts": events, "users": ["1003": "suspended"]])

    let run = try await tweets.run(["compliance", "--db", archive, "--poll-interval", "0.1"])
    #expect(run.status == 0, "\(run.stderr)")
    let removed = Set(deleted + protected + suspended)
    #expect(run.stdout.contains("removed \(removed.count) posts"), "\(run.stdout)")

    // Read back by Python: the removed posts are gone from every table, the rest unchanged.
    let after = try await Self.python(Self.postsScript, archive) as? [String: [String]] ?? [:]
    #expect(Set(after.keys) == Set(before.keys).subtracting(removed))
    #expect(after.allSatisfy { before[$0.key] == $0.value })
    let leftovers = try await Self.python(
      """
      import json, sqlite3, sys
      c = sqlite3.connect(sys.argv[1])
      ids = [r[0] for r in c.execute('select id from compliance_events where kind = "tweet"')]
      q = lambda t, col: c.execute(f'select count(*) from {t} where {col} in (select id from compliance_events)').fetchone()[0]
      events = {str(i): [e, a, j] for i, e, a, j in c.execute('select id, event, action, job_id from compliance_events where kind = "tweet"')}
      print(json.dumps({'events': events, 'left': sum(q(t, 'tweet_id') for t in ['raw_tweets', 'tweet_media', 'tweet_hashtags', 'tweet_references', 'stream_matches']),
        'jobs': [list(r) for r in c.execute('select id, type, state, ids from compliance_jobs')]}))
      """, archive)
    #expect(leftovers["left"] as? Int == 0)
    let recorded = leftovers["events"] as? [String: [String]] ?? [:]
    #expect(Set(recorded.keys) == removed)
    #expect(deleted.allSatisfy { recorded[$0]?[0] == "deleted" } && protected.allSatisfy { recorded[$0]?[0] == "protected" })
    #expect(suspended.allSatisfy { recorded[$0]?[0] == "suspended" && recorded[$0]?[1] == "delete" })
    let jobs = leftovers["jobs"] as? [[Any]] ?? []
    #expect(jobs.count == 1 && jobs.first?[2] as? String == "applied" && jobs.first?[3] as? Int == before.count)

    // No copy of a removed text is left in the files, where no remaining post holds it too (a
    // retweet quotes its original).
    let files = [archive, archive + "-wal"].compactMap { FileManager.default.contents(atPath: $0) }.reduce(Data(), +)
    let remaining = after.values.map { $0[1] }.joined(separator: "\n")
    let checked = removed.compactMap { before[$0]?[1] }.filter { !remaining.contains($0) && $0.utf8.count > 20 }
    #expect(checked.count > 300)
    #expect(checked.allSatisfy { files.range(of: Data($0.utf8)) == nil })

    // The storage stand-in (the sandbox's other origin) got the ids and gave the results, and
    // saw no credential in any header.
    let storage = try await server.offsite().requests.filter { $0.target.contains("compliance") }
    #expect(storage.map(\.method) == ["PUT", "GET"] && storage.allSatisfy { $0.status == 200 })
    #expect(
      storage.allSatisfy { request in
        request.headers.allSatisfy { $0.name.lowercased() != "authorization" && !$0.value.contains(VerifiedSandbox.bearerToken) }
      })
    let transfers = try await server.compliance()["transfers"] as? [[String: Any]] ?? []
    #expect(transfers.map { $0["kind"] as? String } == ["upload"] && transfers.first?["authorization"] as? Bool == false)

    // A users job: the account and its posts go, each post's event naming it.
    try await server.compliance(["users": ["1002": "deactivated"]])
    let users = try await tweets.run(["compliance", "--db", archive, "--type", "users", "--poll-interval", "0.1"])
    #expect(users.status == 0, "\(users.stderr)")
    let final = try await Self.python(Self.postsScript, archive) as? [String: [String]] ?? [:]
    #expect(!final.isEmpty && final.values.allSatisfy { $0[0] == "1001" })
    #expect(tweets.everything.range(of: VerifiedSandbox.bearerToken) == nil)
  }

  @Test("--ids prints X's results as JSON lines; URLs on the API host get the bearer token; jobs lists the job")
  func idsAndJobs() async throws {
    let server = try await VerifiedSandbox.start(tweetsPerUser: 20)
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()
    let timeline = try await tweets.run(["timeline", "swift_lang", "--limit", "3", "--format", "jsonl"])
    let ids = DehydrateTests.ids(timeline.stdout)
    #expect(ids.count == 3)
    try await server.compliance(["urls": "api", "posts": [ids[0]: "deleted", ids[1]: "scrub_geo"]])
    let run = try await tweets.run(["compliance", "--ids", "-", "--poll-interval", "0.1"], stdin: ids.joined(separator: "\n") + "\n")
    #expect(run.status == 0, "\(run.stderr)")
    let lines = run.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    #expect(lines.count == 2)
    #expect(lines.first { $0["id"] as? String == ids[0] }?["action"] as? String == "delete")
    #expect(lines.first { $0["id"] as? String == ids[1] }?["action"] as? String == "scrub_geo")
    let transfers = try await server.compliance()["transfers"] as? [[String: Any]] ?? []
    #expect(transfers.count == 2 && transfers.allSatisfy { $0["authorization"] as? Bool == true })
    let jobs = try await tweets.run(["compliance", "jobs"])
    #expect(jobs.status == 0 && jobs.stdout.contains("complete"), "\(jobs.stdout)\(jobs.stderr)")
    // A second active job of a type is X's 409; not an id is refused before anything is sent.
    #expect(try await tweets.run(["compliance", "--ids", "-"], stdin: "12x\n").status == 2)
  }

  @Test("a kill during the upload and during the polling resumes the same job, uploading once")
  func killResumes() async throws {
    let (server, tweets, archive) = try await Self.archiveOfOneTimeline(tweetsPerUser: 40)
    try await server.compliance(["urls": "api", "processing_polls": 100_000])
    // The upload is held 3 s by the sandbox: killed while it is in flight.
    try await server.script("/2/compliance/jobs/", [["delay": 3]])
    let first = try tweets.interactive(["compliance", "--db", archive, "--poll-interval", "0.2"])
    #expect(await first.waitForError(containing: "Uploading"))
    // Killed once the sandbox has the upload (it records a request as it arrives, then holds it).
    let arrived = try await TestTiming.until {
      try await server.stats().requests.contains { $0.method == "PUT" && $0.path.hasSuffix("/upload") }
    }
    #expect(arrived, "the upload did not reach the sandbox")
    kill(first.pid, SIGKILL)
    _ = await first.wait()
    // The sandbox takes the held upload 3 s later: X holds the ids (the job leaves `created`).
    let held = try await TestTiming.until {
      ((try await server.compliance()["jobs"] as? [[String: Any]])?.first?["status"] as? String).map { $0 != "created" } ?? false
    }
    #expect(held, "the held upload was not taken")
    // Killed while polling.
    let second = try tweets.interactive(["compliance", "--db", archive, "--poll-interval", "0.2"])
    #expect(await second.waitForError(containing: "X holds its ids"))
    try await Task.sleep(for: .milliseconds(600))
    kill(second.pid, SIGKILL)
    _ = await second.wait()
    try await server.compliance(["processing_polls": 0])
    let last = try await tweets.run(["compliance", "--db", archive, "--poll-interval", "0.2"])
    #expect(last.status == 0 && last.stderr.contains("Resuming compliance job"), "\(last.stderr)")
    let jobs = try await server.compliance()["jobs"] as? [[String: Any]] ?? []
    #expect(jobs.count == 1 && jobs.first?["uploads"] as? Int == 1 && jobs.first?["status"] as? String == "complete")
    #expect(last.stdout.contains("Compliance job \(jobs.first?["id"] as? String ?? "?")"))
  }

  @Test("a job whose upload never arrived expires at X, and the next run creates a new one")
  func expiredJobIsCreatedAnew() async throws {
    let (server, tweets, archive) = try await Self.archiveOfOneTimeline(tweetsPerUser: 10)
    try await server.script("/2/compliance/jobs/", [["status": 400, "body": "{}"]])
    let failed = try await tweets.run(["compliance", "--db", archive, "--poll-interval", "0.1"])
    #expect(failed.status != 0)
    try await server.skewClock(by: 16 * 60)  // past X's 15-minute upload window
    let again = try await tweets.run(["compliance", "--db", archive, "--poll-interval", "0.1"])
    #expect(again.status == 0 && again.stderr.contains("is expired: creating a new one"), "\(again.stderr)")
    let jobs = try await server.compliance()["jobs"] as? [[String: Any]] ?? []
    #expect(jobs.map { $0["status"] as? String } == ["expired", "complete"])
  }

  /// Issue #43 item 3: a relative `--dir` is recorded resolved, so compliance run from another
  /// folder deletes the file downloaded and not another project's file of that name; an archive
  /// whose records point elsewhere (a directory named like a media file, a path through `..`)
  /// has nothing but the downloaded files deleted, and says what it did not delete.
  @Test func complianceDeletesOnlyTheFilesDownloadedWhereTheyWereDownloaded() async throws {
    let server = try await VerifiedSandbox.start()
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()
    let archive = try await MediaDownloadTests.archive(tweets)
    let fileManager = FileManager.default
    let projectA = tweets.configDirectory.appendingPathComponent("projectA"), projectB = tweets.configDirectory.appendingPathComponent("projectB")
    for folder in [projectA, projectB] {
      try fileManager.createDirectory(at: folder.appendingPathComponent("media"), withIntermediateDirectories: true)
    }
    // `tweets ARGUMENTS` run in `folder`.
    func run(in folder: URL, _ arguments: [String]) async throws -> ProcessResult {
      let result = try await ProcessRunner.run(
        URL(fileURLWithPath: "/bin/sh"),
        ["-c", "cd \"$0\" && exec \"$@\"", folder.path, PackagePaths.executable("tweets").path] + arguments + tweets.common,
        environment: tweets.environment, timeout: 60)
      tweets.record(result)
      return result
    }
    let downloaded = try await run(in: projectA, ["media", "download", "--db", archive, "--dir", "media"])
    #expect(downloaded.status == 0, "\(downloaded.stderr)")

    // Each media item shown by one post: its file, as recorded, and that post.
    let script = """
      import json, sqlite3, sys
      c = sqlite3.connect(sys.argv[1])
      rows = c.execute('select f.media_key, f.path, min(m.tweet_id) from media_files f join tweet_media m using (media_key) group by f.media_key having count(*) = 1')
      print(json.dumps({k: [p, str(t)] for k, p, t in rows}))
      """
    let files = try await Self.python(script, archive) as? [String: [String]] ?? [:]
    let media = projectA.resolvingSymlinksInPath().appendingPathComponent("media").path
    #expect(files.count >= 3, "\(files)")
    for (key, file) in files { #expect(file[0].hasPrefix(media + "/" + key + "."), "recorded as \(file[0])") }
    let keys = files.keys.sorted()
    let (kept, crafted, dotted) = (keys[0], keys[1], keys[2])
    let keptName = URL(fileURLWithPath: files[kept]![0]).lastPathComponent

    // Another project has a file of the same name under its own media folder.
    let theirs = projectB.appendingPathComponent("media").appendingPathComponent(keptName)
    try Data("another project's file".utf8).write(to: theirs)
    // A crafted record: a directory named as the media's file, holding a file of its own.
    let directory = projectB.appendingPathComponent("work").appendingPathComponent(URL(fileURLWithPath: files[crafted]![0]).lastPathComponent)
    try fileManager.createDirectory(at: directory, withIntermediateDirectories: true)
    try Data("keep me".utf8).write(to: directory.appendingPathComponent("notes.txt"))
    // Another, through `..`: the file downloaded, by a path that is not the one recorded.
    let dottedFile = files[dotted]![0]
    let dottedPath = media + "/../media/" + URL(fileURLWithPath: dottedFile).lastPathComponent
    _ = try await Self.python(
      "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('update media_files set path = ? where media_key = ?', (sys.argv[2], sys.argv[3])); "
        + "c.execute('update media_files set path = ? where media_key = ?', (sys.argv[4], sys.argv[5])); c.commit(); print('{}')",
      archive, [directory.path, crafted, dottedPath, dotted])

    // Their posts deleted (a post may show more than one of them).
    let posts = Set([kept, crafted, dotted].map { files[$0]![1] })
    try await server.compliance(["urls": "storage", "posts": Dictionary(uniqueKeysWithValues: posts.map { ($0, "deleted") })])
    let applied = try await run(in: projectB, ["compliance", "--db", archive, "--poll-interval", "0.1"])
    #expect(applied.status == 1, "\(applied.stdout)\(applied.stderr)")
    #expect(applied.stdout.contains("removed \(posts.count) post") && applied.stdout.contains("deleted 1 downloaded media file"), "\(applied.stdout)")
    #expect(applied.stdout.contains("2 downloaded media files not deleted"), "\(applied.stdout)")
    #expect(!fileManager.fileExists(atPath: files[kept]![0]), "the file downloaded is still there")
    #expect(try String(contentsOf: theirs, encoding: .utf8) == "another project's file")
    #expect(try String(contentsOf: directory.appendingPathComponent("notes.txt"), encoding: .utf8) == "keep me")
    #expect(fileManager.fileExists(atPath: dottedFile))
    #expect(applied.stderr.contains("did not delete \(directory.path)") && applied.stderr.contains("it is a directory"), "\(applied.stderr)")
    #expect(applied.stderr.contains("did not delete \(dottedPath)") && applied.stderr.contains("\"..\""), "\(applied.stderr)")
  }
}
