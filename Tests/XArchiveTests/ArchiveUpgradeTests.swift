import Foundation
import TestSupport
import Testing

@testable import XAPI
@testable import XArchive

/// Archives made by earlier releases (`tweets --sandbox timeline --limit 5 --db`, committed as
/// `Fixtures/archive-schema-1.sqlite` and, by 70e89e4, `Fixtures/archive-schema-2.sqlite`) open,
/// upgrade, keep their rows, and take X's newer fields and compliance jobs.
@Suite("Archive upgrade from the previous release")
struct ArchiveUpgradeTests {
  @Test func aSchemaOneArchiveUpgradesAndKeepsItsRows() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("upgrade-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("old.sqlite").path
    try FileManager.default.copyItem(
      atPath: PackagePaths.root.appendingPathComponent("Tests/XArchiveTests/Fixtures/archive-schema-1.sqlite").path, toPath: path)

    let before = try SQLiteDatabase(path: path)
    #expect(try before.rows("PRAGMA user_version").first?.first?.integer == 1)
    let texts = try before.rows("SELECT id, text, like_count FROM tweets ORDER BY id")
    before.close()
    #expect(texts.count == 5)

    let archive = try TweetArchive(path: path)
    #expect(try archive.schemaVersion == ArchiveSchema.version && ArchiveSchema.version == 3)
    let database = try SQLiteDatabase(path: path)
    #expect(try database.rows("SELECT id, text, like_count FROM tweets ORDER BY id") == texts)
    #expect(try database.rows("SELECT count(*) FROM tweets WHERE bookmark_count IS NULL").first?.first?.integer == 5)

    // A real stream line with the two counts, stored into the upgraded archive.
    let line = try Data(
      contentsOf: PackagePaths.root.appendingPathComponent("Tests/XAPITests/Recordings/v2-stream-line-bookmark-and-impression-counts.jsonl"))
    guard case .tweet(let streamed) = StreamLine(line) else {
      Issue.record("the line is not a post")
      return
    }
    var fetch = try archive.beginFetch(command: ["stream"], resume: false)
    let original = try #require(streamed.tweet.referencedTweets?.first?.tweet)
    try archive.store(streamed: original, body: line, matching: [], in: &fetch)
    let row = try database.rows("SELECT bookmark_count, impression_count, paid_partnership FROM tweets WHERE id = ?", [.id(original.id)])
    #expect(row == [[.integer(67), .integer(23_725), .null]])
  }

  @Test func aSchemaTwoArchiveUpgradesAndTakesComplianceResults() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("upgrade-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("old.sqlite").path
    try FileManager.default.copyItem(
      atPath: PackagePaths.root.appendingPathComponent("Tests/XArchiveTests/Fixtures/archive-schema-2.sqlite").path, toPath: path)
    let before = try SQLiteDatabase(path: path)
    #expect(try before.rows("PRAGMA user_version").first?.first?.integer == 2)
    let rows = try before.rows("SELECT id, text, like_count, bookmark_count FROM tweets ORDER BY id")
    before.close()
    #expect(rows.count == 5)

    let archive = try TweetArchive(path: path)
    defer { archive.close() }
    #expect(try archive.schemaVersion == 3)
    #expect(try archive.database.rows("SELECT id, text, like_count, bookmark_count FROM tweets ORDER BY id") == rows)
    let first = try #require(rows.first?.first?.integer)
    try archive.recordComplianceJob(id: "7", type: .tweets, ids: 5)
    let summary = try archive.applyCompliance(
      [try ComplianceResult(line: #"{"id":"\#(first)","action":"delete","reason":"deleted"}"#)], job: "7", type: .tweets)
    #expect(summary.removedPosts == 1)
    #expect(try archive.database.rows("SELECT count(*) FROM tweets").first?.first?.integer == 4)
  }
}
