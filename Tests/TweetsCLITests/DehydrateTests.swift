import Foundation
import TestSupport
import Testing

/// `tweets dehydrate` (issue #31): the ids of an archive or of JSON lines, one per line; hydrate
/// is its inverse, in the same order.
@Suite("tweets dehydrate", .sandboxChecks, .tags(.processes), .tier(.processes))
struct DehydrateTests {
  static func ids(_ jsonl: String) -> [String] {
    jsonl.split(separator: "\n").compactMap { line in
      (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? String
    }
  }

  @Test func dehydrateThenHydrateGivesTheSameIdsInTheSameOrder() async throws {
    let server = try await VerifiedSandbox.start()
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()
    let archive = tweets.configDirectory.appendingPathComponent("a.sqlite").path
    #expect(try await tweets.run(["timeline", "sandbox_user", "--limit", "120", "--db", archive]).status == 0)
    let dehydrated = try await tweets.run(["dehydrate", "--db", archive])
    #expect(dehydrated.status == 0, "\(dehydrated.stderr)")
    let ids = dehydrated.stdout.split(separator: "\n").map(String.init)
    #expect(ids.count == 120 && Set(ids).count == 120)
    let file = tweets.configDirectory.appendingPathComponent("ids.txt")
    try Data(dehydrated.stdout.utf8).write(to: file)
    let hydrated = try await tweets.run(["hydrate", file.path, "--format", "jsonl"])
    #expect(hydrated.status == 0, "\(hydrated.stderr)")
    #expect(Self.ids(hydrated.stdout) == ids)

    // From JSON lines: the same ids, in the file's order; the users are the authors.
    let lines = tweets.configDirectory.appendingPathComponent("posts.jsonl")
    try Data(hydrated.stdout.utf8).write(to: lines)
    #expect(try await tweets.run(["dehydrate", lines.path]).stdout.split(separator: "\n").map(String.init) == ids)
    #expect(try await tweets.run(["dehydrate", lines.path, "--users"]).stdout.split(separator: "\n") == ["1001"])

    // A phrase selects the posts whose text holds it, as the archive's own rows say.
    let phrase = try await tweets.run(["dehydrate", "--db", archive, "--query", "coffee"]).stdout.split(separator: "\n").map(String.init)
    let texts = try await Self.texts(archive)
    #expect(!phrase.isEmpty && phrase.count < ids.count)
    #expect(Set(phrase) == Set(texts.filter { $0.value.lowercased().contains("coffee") }.keys))
    #expect(try await tweets.run(["dehydrate", lines.path, "--query", "x"]).status == 2)
  }

  /// Issue #43 item 11: an `id` that is not an id (a line break, a fraction, a path, an escape,
  /// a sign, past 64 bits) is not printed, and is counted on the standard error.
  @Test func onlyIdsArePrintedAndTheOthersCounted() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dehydrate-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("posts.jsonl")
    let hostile = [
      #"{"id":"1\n2"}"#, #"{"id":"7"}"#, #"{"id":1.5}"#, #"{"id":"../../etc"}"#, #"{"id":"\u001b]0;x\u00079"}"#,
      #"{"id":"18446744073709551616"}"#, #"{"id":"18446744073709551615"}"#, #"{"id":"+5"}"#, #"{"id":" 8"}"#, #"{"id":12}"#,
    ]
    try Data((#"{"data":["# + hostile.joined(separator: ",") + "]}\n").utf8).write(to: input)
    let result = try await ProcessRunner.run(
      PackagePaths.executable("tweets"), ["dehydrate", input.path, "--config-dir", folder.path], timeout: 60)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "7\n18446744073709551615\n12\n", "\(result.stdout.debugDescription)")
    #expect(result.stderr.contains("left out 7 ids that are not an id"), "\(result.stderr)")
  }

  /// The archive's texts by id, read with Python's sqlite3 (code this project did not write).
  static func texts(_ archive: String) async throws -> [String: String] {
    let script =
      "import json, sqlite3, sys; print(json.dumps({str(i): t for i, t in sqlite3.connect(sys.argv[1]).execute('select id, text from tweets')}))"
    let result = try await ProcessRunner.run(
      URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, archive], timeout: TweetsRunner.hangTimeout)
    return (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: String]) ?? [:]
  }
}
