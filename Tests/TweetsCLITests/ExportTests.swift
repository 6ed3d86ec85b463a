import Foundation
import TestSupport
import Testing

/// `tweets export --format csv` (issue #31 item 3) against twarc-csv 0.7.2 itself (PyPI, pinned in
/// `PythonPeer.Requirements.twarcCSV`): the same input through both, the same header and the same
/// cells row by row, compared with Python's csv module (`Tests/Peers/twarc_csv_peer.py`).
@Suite("tweets export", .sandboxChecks, .tags(.processes), .tier(.processes))
struct ExportTests {
  /// twarc2's own `tweet.fields` and `expansions` (twarc 2.14 `expansions.py`): what a twarc2 user's
  /// pages hold, and fields twarc-csv's columns all know.
  static let twarcFields =
    "attachments,author_id,context_annotations,conversation_id,created_at,entities,geo,id,in_reply_to_user_id,lang,public_metrics,text,"
    + "possibly_sensitive,referenced_tweets,reply_settings,source,withheld,edit_controls,edit_history_tweet_ids"
  static let twarcExpansions =
    "author_id,in_reply_to_user_id,referenced_tweets.id,referenced_tweets.id.author_id,entities.mentions.username,attachments.poll_ids,"
    + "attachments.media_keys,geo.place_id,edit_history_tweet_ids"

  struct Comparison: Decodable {
    let rows: Int
    let columns: [String]
    let difference: String?
    /// Whether the files are the same bytes: quoting and line ends as twarc-csv writes them.
    let sameBytes: Bool

    enum CodingKeys: String, CodingKey {
      case rows, columns, difference
      case sameBytes = "same_bytes"
    }
  }

  static func peer(_ job: [String: Any]) async throws -> [String: Any] {
    let output = try await PythonPeer.run(
      script: "twarc_csv_peer.py", input: try JSONSerialization.data(withJSONObject: job), requirements: .twarcCSV)
    return try #require(try JSONSerialization.jsonObject(with: output) as? [String: Any])
  }

  /// twarc-csv run on `input` (with `options`), compared with our table at `ours`.
  static func compare(_ input: URL, _ ours: URL, options: [String] = []) async throws -> Comparison {
    let job: [String: Any] = ["action": "compare", "input": input.path, "ours": ours.path, "options": options]
    let output = try await PythonPeer.run(
      script: "twarc_csv_peer.py", input: try JSONSerialization.data(withJSONObject: job), requirements: .twarcCSV)
    return try JSONDecoder().decode(Comparison.self, from: output)
  }

  /// Runs `tweets export` with `arguments`, its table written to `table`.
  static func export(_ tweets: TweetsRunner, _ arguments: [String], to table: URL) async throws {
    let result = try await tweets.run(["export"] + arguments + ["--output", table.path])
    #expect(result.status == 0, "\(result.stderr)")
  }

  /// The fetch both tables are made from: @sandbox_user's timeline with twarc2's fields.
  static let fetch = ["timeline", "sandbox_user", "--limit", "150", "--fields", twarcFields, "--expansions", twarcExpansions]

  /// A sandbox, a signed-in `tweets`, and 150 posts of @sandbox_user's timeline fetched with
  /// twarc2's fields both as X's pages (`pages.jsonl`) and into an archive (`a.sqlite`), in the
  /// runner's folder (`file` names a file there).
  static func pagesAndArchive() async throws -> (server: VerifiedSandbox, tweets: TweetsRunner, file: (String) -> URL) {
    let server = try await VerifiedSandbox.start()
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()
    let folder = tweets.configDirectory
    let file = { (name: String) in folder.appendingPathComponent(name) }
    let raw = try await tweets.run(Self.fetch + ["--format", "raw"])
    #expect(raw.status == 0, "\(raw.stderr)")
    try Data(raw.stdout.utf8).write(to: file("pages.jsonl"))
    let stored = try await tweets.run(Self.fetch + ["--db", file("a.sqlite").path])
    #expect(stored.status == 0, "\(stored.stderr)")
    return (server, tweets, file)
  }

  @Test func theSandboxsPagesFlattenedPostsAndArchiveGiveTwarcCSVsTable() async throws {
    let (_, tweets, file) = try await Self.pagesAndArchive()

    // twarc's own flattening of the pages (`twarc2 flatten`), and the pages as the archive keeps
    // them: without the referenced posts, which it stores only as ids.
    let prepared = try await Self.peer([
      "action": "prepare", "pages": file("pages.jsonl").path, "flattened": file("flat.jsonl").path,
      "without_referenced": file("bare.jsonl").path,
    ])
    let posts = try #require(prepared["posts"] as? Int)
    #expect(posts == 150)

    try await Self.export(tweets, [file("pages.jsonl").path], to: file("pages.csv"))
    try await Self.export(tweets, [file("flat.jsonl").path], to: file("flat.csv"))
    try await Self.export(tweets, ["--db", file("a.sqlite").path], to: file("db.csv"))
    for (input, ours) in [("pages.jsonl", "pages.csv"), ("flat.jsonl", "flat.csv"), ("bare.jsonl", "db.csv")] {
      let comparison = try await Self.compare(file(input), file(ours))
      #expect(comparison.rows == posts, "\(input)")
      #expect(comparison.difference == nil, "\(input) → \(ours): \(comparison.difference ?? "")")
      #expect(comparison.sameBytes, "twarc-csv's bytes")
    }
    // The data has what the columns are for: replies, retweets, quotes and media, named.
    let table = try String(contentsOf: file("pages.csv"), encoding: .utf8)
    let header = try #require(table.split(separator: "\n").first).split(separator: ",").map(String.init)
    let rows = table.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
    for column in ["in_reply_to_username", "retweeted_username", "quoted_username", "attachments.media_keys"] {
      let index = try #require(header.firstIndex(of: column))
      #expect(rows.contains { $0.count > index && !$0[index].isEmpty }, "no \(column) in the sandbox's posts")
    }

    // tweets' own JSON lines keep less than X sent: refused with the way to X's own JSON, and no
    // half table left under the output's name or beside it.
    let model = try await tweets.run(Self.fetch + ["--format", "jsonl"])
    try Data(model.stdout.utf8).write(to: file("model.jsonl"))
    let refused = try await tweets.run(["export", file("model.jsonl").path, "-o", file("model.csv").path])
    #expect(refused.status == 2 && refused.stderr.contains("line 1 of") && refused.stderr.contains("fetch with --format raw (or --db)"))
    #expect(!FileManager.default.fileExists(atPath: file("model.csv").path))
    #expect(!FileManager.default.fileExists(atPath: file("model.csv").path + ".partial"))

    // --columns picks and orders, as twarc-csv's --output-columns does.
    try await Self.export(tweets, [file("pages.jsonl").path, "--columns", "text,id,public_metrics.like_count"], to: file("some.csv"))
    let some = try await Self.compare(file("pages.jsonl"), file("some.csv"), options: ["--output-columns", "text,id,public_metrics.like_count"])
    #expect(some.columns == ["text", "id", "public_metrics.like_count"] && some.difference == nil, "\(some.difference ?? "")")
    #expect(some.sameBytes, "twarc-csv's bytes")
  }

  /// After `tweets compliance` removed posts, `export --db` writes none of them: twarc-csv's
  /// table of the same pages without those posts.
  @Test func postsComplianceRemovedAreNotExported() async throws {
    let (server, tweets, file) = try await Self.pagesAndArchive()
    let ids = try await tweets.run(["dehydrate", "--db", file("a.sqlite").path]).stdout.split(separator: "\n").map(String.init)
    try #require(ids.count == 150)
    let removed = [ids[3], ids[10], ids[42]]
    try await server.compliance(["urls": "storage", "posts": Dictionary(uniqueKeysWithValues: removed.map { ($0, "deleted") })])
    let run = try await tweets.run(["compliance", "--db", file("a.sqlite").path, "--poll-interval", "0.1"])
    #expect(run.status == 0, "\(run.stderr)")

    _ = try await Self.peer([
      "action": "prepare", "pages": file("pages.jsonl").path, "flattened": file("flat.jsonl").path,
      "without_referenced": file("bare.jsonl").path, "drop_ids": removed,
    ])
    try await Self.export(tweets, ["--db", file("a.sqlite").path], to: file("db.csv"))
    let comparison = try await Self.compare(file("bare.jsonl"), file("db.csv"))
    #expect(comparison.rows == ids.count - removed.count)
    #expect(comparison.difference == nil, "\(comparison.difference ?? "")")
    #expect(comparison.sameBytes, "twarc-csv's bytes")
    let table = try String(contentsOf: file("db.csv"), encoding: .utf8)
    for id in removed { #expect(!table.contains(id), "\(id) is still in the table") }
  }

  @Test func realXAnswersRecordedByOtherProjectsGiveTwarcCSVsTable() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let recordings = PackagePaths.root.appendingPathComponent("Tests/XAPITests/Recordings")
    // Pages of posts and of users, as twarc2 writes them; lists and direct messages are neither
    // (twarc-csv wrote no row at all once their recordings were among the inputs).
    let cassettes = try FileManager.default.contentsOfDirectory(atPath: recordings.path)
      .filter { $0.hasPrefix("v2-") && $0.hasSuffix(".json") && !$0.contains("list") && !$0.hasPrefix("v2-dm-") }
      .sorted().map { recordings.appendingPathComponent($0).path }
    let pages = folder.appendingPathComponent("pages.jsonl"), flat = folder.appendingPathComponent("flat.jsonl")
    let extracted = try await Self.peer(["action": "pages", "cassettes": cassettes, "output": pages.path])
    #expect((extracted["pages"] as? Int ?? 0) >= 8)
    // twarc2's files carry its `__twarc` object on each page: both tools copy it into the `__twarc.*` columns.
    #expect(try String(contentsOf: pages, encoding: .utf8).contains("\"__twarc\": {\"url\": \"https://api.twitter.com/2/"))
    // Flattened, one post per line: more than one batch of 100 lines, so pandas' per-batch
    // number columns (counts printed `12.0` where a row of the batch lacks them) are compared too.
    _ = try await Self.peer([
      "action": "prepare", "pages": pages.path, "flattened": flat.path, "without_referenced": folder.appendingPathComponent("bare.jsonl").path,
    ])
    for input in [pages, flat] {
      let comparison = try await Self.exportAndCompare(input, in: folder)
      #expect(comparison.rows > 100)
      #expect(comparison.difference == nil, "\(input.lastPathComponent): \(comparison.difference ?? "")")
      #expect(comparison.sameBytes, "twarc-csv's bytes")
    }
  }

  /// Hand-made pages in X's documented shapes for what the other inputs lack: a poll, a place
  /// with coordinates, cashtags, annotations, context annotations, withheld content, an author's
  /// entities and pinned post, a retweet of a post X did not include, a stream line with its
  /// matching rules, a flattened line with twarc2's `__twarc`, an answer of errors only, a
  /// duplicate, non-ASCII and `\r\n` in texts, counts missing from some rows of the batch.
  @Test func everyKindOfColumnGivesTwarcCSVsCells() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let comparison = try await Self.exportAndCompare(PackagePaths.peers.appendingPathComponent("twarc_edge_cases.jsonl"), in: folder)
    #expect(comparison.rows == 8)
    #expect(comparison.difference == nil, "\(comparison.difference ?? "")")
    #expect(comparison.sameBytes, "twarc-csv's bytes")
  }

  /// `tweets export` of `input` into `folder`, compared with twarc-csv's table of it.
  static func exportAndCompare(_ input: URL, in folder: URL) async throws -> Comparison {
    let table = folder.appendingPathComponent(input.lastPathComponent + ".csv")
    let result = try await ProcessRunner.run(
      PackagePaths.executable("tweets"), ["export", input.path, "-o", table.path], timeout: TweetsRunner.hangTimeout)
    #expect(result.status == 0, "\(result.stderr)")
    return try await compare(input, table)
  }

  @Test func hostileLinesAreSkippedByNameAndTheRestIsWritten() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let huge = String(repeating: "x", count: 8 << 20)
    let lines = [
      #"{"data":[{"id":"1","text":"first"}]}"#,
      "not json",
      String(repeating: "[", count: 100_000),
      #"{"data":[{"id":"2","text":"\#(huge)"}]}"#,
      #"{"data":null}"#, "[1,2]", "5", #"{"id":3}"#, #"{"data":[{"id":"1","text":"again"}],"includes":{"users":"no"}}"#,
      #"{"data":[{"text":"no id"}]}"#, #"{"data":[{"id":"4","text":"cut"#,
    ]
    let input = folder.appendingPathComponent("hostile.jsonl"), table = folder.appendingPathComponent("t.csv")
    try Data(lines.joined(separator: "\n").utf8).write(to: input)
    let result = try await ProcessRunner.run(
      PackagePaths.executable("tweets"), ["export", input.path, "-o", table.path, "--columns", "id,text"], timeout: TweetsRunner.hangTimeout)
    #expect(result.status == 0, "\(result.stderr)")
    for number in [2, 3, 11] { #expect(result.stderr.contains("line \(number) is not JSON"), "\(result.stderr)") }
    let rows = try String(contentsOf: table, encoding: .utf8).split(separator: "\n")
    // Post 1 once (the first seen), post 2 whole, the numeric id 3 as written; nothing else.
    #expect(rows.map { $0.prefix(20) } == ["id,text", "1,first", "2," + huge.prefix(18), "3,"])
    #expect(rows[2].count == huge.count + 2)

    let unknown = try await ProcessRunner.run(
      PackagePaths.executable("tweets"), ["export", input.path, "--columns", "id,txet"], timeout: TweetsRunner.hangTimeout)
    #expect(unknown.status == 2)
    let header = try #require(rows.first)
    let all = try await ProcessRunner.run(PackagePaths.executable("tweets"), ["export", input.path], timeout: TweetsRunner.hangTimeout)
    let columns = try #require(all.stdout.split(separator: "\n").first)
    #expect(header == "id,text" && unknown.stderr.contains("no column \"txet\"; the columns are: \(columns)"), "\(unknown.stderr)")
  }

  /// `--output` to a named pipe (as to `/dev/null` or `/dev/stdout`) writes into it: the table is
  /// renamed into place only over a regular file, never over a device or a pipe.
  @Test func anOutputThatIsNoRegularFileIsWrittenInPlace() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("posts.jsonl"), pipe = folder.appendingPathComponent("table.pipe")
    try Data(#"{"data":[{"id":"1","text":"a"},{"id":"2","text":"b"}]}"#.utf8).write(to: input)
    #expect(mkfifo(pipe.path, 0o600) == 0)
    let reader = Process()
    reader.executableURL = URL(fileURLWithPath: "/bin/cat")
    reader.arguments = [pipe.path]
    let output = Pipe()
    reader.standardOutput = output
    try reader.runOneAtATime()
    let result = try await ProcessRunner.run(
      PackagePaths.executable("tweets"), ["export", input.path, "-o", pipe.path, "--columns", "id,text"], timeout: TweetsRunner.hangTimeout)
    try await reader.exited()
    #expect(result.status == 0, "\(result.stderr)")
    #expect(String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == "id,text\n1,a\n2,b\n")
    var status = stat()
    #expect(stat(pipe.path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFIFO, "the pipe was replaced")
    #expect(!FileManager.default.fileExists(atPath: pipe.path + ".partial"))
  }

  /// Issue #43 item 7: cells that begin like a spreadsheet formula (`=`, `+`, `-`, `@`, a tab,
  /// and a leading `\r` that twarc-csv strips, uncovering `=`) are twarc-csv's bytes by default,
  /// counted on standard error; `--escape-formulas` writes them with a leading `'`.
  @Test func cellsThatBeginLikeAFormulaAreTwarcCSVsByDefaultAndEscapedOnRequest() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let texts = ["=HYPERLINK(\"https://evil.example\",\"click\")", "\r=1+1", "+1", "-2", "@SUM(A1)", "\tx", "plain"]
    let page: [String: Any] = ["data": texts.enumerated().map { ["id": String($0.offset + 1), "text": $0.element] }]
    let input = folder.appendingPathComponent("formulas.jsonl"), table = folder.appendingPathComponent("t.csv")
    try JSONSerialization.data(withJSONObject: page).write(to: input)

    let plain = try await ProcessRunner.run(PackagePaths.executable("tweets"), ["export", input.path, "-o", table.path], timeout: 60)
    #expect(plain.status == 0, "\(plain.stderr)")
    #expect(plain.stderr.contains("warning: 6 text cells begin with =, +, -, @, a tab or a carriage return"), "\(plain.stderr)")
    let comparison = try await Self.compare(input, table)
    #expect(comparison.difference == nil && comparison.sameBytes, "\(comparison.difference ?? "")")

    let escaped = try await ProcessRunner.run(
      PackagePaths.executable("tweets"), ["export", input.path, "--escape-formulas", "--columns", "id,text"], timeout: 60)
    #expect(escaped.status == 0 && escaped.stderr.contains("6 text cells began with"), "\(escaped.stderr)")
    #expect(
      escaped.stdout.split(separator: "\n").map(String.init) == [
        "id,text", #"1,"'=HYPERLINK(""https://evil.example"",""click"")""#, "2,'=1+1", "3,'+1", "4,'-2", "5,'@SUM(A1)", "6,'\tx", "7,plain",
      ], "\(escaped.stdout.debugDescription)")
  }
}
