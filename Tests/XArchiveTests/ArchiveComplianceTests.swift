import Foundation
import Testing
import XAPI

@testable import XArchive

/// Compliance results applied to a real archive: what each action removes or changes, what
/// stays, the events kept, the ids streamed out, and the job's states.
@Suite("Tweet archive: compliance")
struct ArchiveComplianceTests {
  let folder: URL

  init() throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("compliance-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  var path: String { folder.appendingPathComponent("a.sqlite").path }

  /// Posts 1...6: 1-4 by author 7, 5-6 by author 8; post 2 carries a `geo` in its raw JSON.
  func archive() throws -> TweetArchive {
    let archive = try TweetArchive(path: path)
    let tweets = (1...6).map { TweetArchiveTests.tweet(String($0), likes: $0, author: $0 <= 4 ? "7" : "8", hashtags: ["h\($0)"]) }
    let data: [[String: Any]] = tweets.map { tweet in
      var object: [String: Any] = ["id": tweet.id, "text": tweet.text, "author_id": tweet.author?.id ?? ""]
      if tweet.id == "2" { object["geo"] = ["place_id": "01a9a39529b27f36", "coordinates": ["type": "Point", "coordinates": [-73.99, 40.73]]] }
      return object
    }
    let body = try JSONSerialization.data(withJSONObject: ["data": data, "meta": ["result_count": tweets.count]])
    var fetch = try archive.beginFetch(command: ["test"], resume: false)
    try archive.store(Page(items: tweets, next: nil, body: body), in: &fetch, complete: true)
    return archive
  }

  func count(_ archive: TweetArchive, _ sql: String) throws -> Int64 {
    try archive.database.rows(sql).first?.first?.integer ?? -1
  }

  @Test("delete removes a post's content everywhere, keeps its id in compliance_events; scrub_geo removes only geo")
  func tweetsJob() throws {
    let archive = try archive()
    defer { archive.close() }
    try archive.recordComplianceJob(id: "900", type: .tweets, ids: 6)
    #expect(try archive.pendingComplianceJob(type: .tweets)?.id == "900")
    // Post 1's photo was downloaded (tweets media download); post 2's too.
    for post in ["1", "2"] {
      try archive.record(MediaFileRecord(mediaKey: "3_\(post)", path: "/m/3_\(post).jpg", bytes: 3, sha256: "ab", sourceURL: "https://p/\(post).jpg"))
    }
    let results = [
      try ComplianceResult(line: #"{"id":"1","action":"delete","reason":"deleted","redacted_at":"2026-11-01T00:00:00.000Z"}"#),
      try ComplianceResult(line: #"{"id":"2","action":"scrub_geo"}"#),
      try ComplianceResult(line: #"{"id":"3","action":"rehydrate","reason":"edited"}"#),
      try ComplianceResult(line: #"{"id":"99","reason":"suspended"}"#),
      try ComplianceResult(line: #"{"id":"abc","error":"invalid_id"}"#),
    ]
    let summary = try archive.applyCompliance(results, job: "900", type: .tweets)
    #expect(summary.removedPosts == 1 && summary.scrubbedGeo == 1 && summary.rehydrate == ["3"] && summary.notInArchive == 1 && summary.invalid == 1)
    for table in ["tweet_media", "tweet_hashtags", "raw_tweets"] {
      #expect(try count(archive, "SELECT count(*) FROM \(table) WHERE tweet_id = 1") == 0, "\(table)")
    }
    #expect(try count(archive, "SELECT count(*) FROM tweets WHERE id = 1") == 0)
    #expect(try count(archive, "SELECT count(*) FROM media WHERE media_key = '3_1'") == 0)
    // Its downloaded file's record is gone and its path handed back for deletion; post 2's stays.
    #expect(summary.mediaFiles.map(\.path) == ["/m/3_1.jpg"])
    #expect(try count(archive, "SELECT count(*) FROM media_files") == 1)
    #expect(try count(archive, "SELECT count(*) FROM tweets") == 5)
    // Post 2 keeps its text and loses its location.
    let raw = try archive.database.rows("SELECT json FROM raw_tweets WHERE tweet_id = 2").first?.first?.text ?? ""
    #expect(!raw.contains("geo") && !raw.contains("01a9a39529b27f36") && raw.contains("\"text\""))
    let events = try archive.database.rows("SELECT kind, id, event, action, job_id, event_at FROM compliance_events ORDER BY id")
    #expect(events.map { $0[1].integer } == [1, 2, 3, 99])
    #expect(events.first?.map { $0.text ?? $0.integer.map(String.init) ?? "" } == ["tweet", "1", "deleted", "delete", "900", "2026-11-01T00:00:00Z"])
    // Applied: no longer pending; the state says so.
    #expect(try archive.pendingComplianceJob(type: .tweets) == nil)
    #expect(try archive.database.rows("SELECT state, results FROM compliance_jobs").first?.first?.text == "applied")
    // The log was checkpointed and emptied.
    let wal = FileManager.default.contents(atPath: path + "-wal") ?? Data()
    #expect(wal.isEmpty)
  }

  @Test("a users job removes the account and each of its posts, each post's event naming the account")
  func usersJob() throws {
    let archive = try archive()
    defer { archive.close() }
    try archive.recordComplianceJob(id: "901", type: .users, ids: 2)
    let summary = try archive.applyCompliance(
      [try ComplianceResult(line: #"{"id":"8","action":"delete","reason":"deactivated"}"#)], job: "901", type: .users)
    #expect(summary.removedPosts == 2 && summary.removedUsers == 1)
    #expect(try count(archive, "SELECT count(*) FROM tweets WHERE author_id = 8") == 0)
    #expect(try count(archive, "SELECT count(*) FROM users WHERE id = 8") == 0)
    #expect(try count(archive, "SELECT count(*) FROM tweets") == 4)
    let viaUser = try archive.database.rows(
      "SELECT id FROM compliance_events WHERE kind = 'tweet' AND via_user = 8 AND event = 'deactivated' ORDER BY id")
    #expect(viaUser.map { $0.first?.integer } == [5, 6])
  }

  @Test("the ids are streamed one per line, as the archive holds them; a job moves created → uploaded → abandoned")
  func idsAndStates() throws {
    let archive = try archive()
    defer { archive.close() }
    let file = folder.appendingPathComponent("ids.txt")
    #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
    let handle = try FileHandle(forWritingTo: file)
    #expect(try archive.writeComplianceIDs(type: .tweets, to: handle) == 6)
    try handle.close()
    #expect(try String(contentsOf: file, encoding: .utf8) == "1\n2\n3\n4\n5\n6\n")
    try archive.recordComplianceJob(id: "902", type: .tweets, ids: 0)
    try archive.markComplianceJobUploaded(id: "902", ids: 6)
    #expect(
      try archive.pendingComplianceJob(type: .tweets)
        == .init(id: "902", type: .tweets, state: .uploaded, ids: 6, createdAt: archive.pendingComplianceJob(type: .tweets)!.createdAt))
    #expect(try archive.pendingComplianceJob(type: .users) == nil)
    try archive.markComplianceJob(id: "902", .abandoned)
    #expect(try archive.pendingComplianceJob(type: .tweets) == nil)
  }
}
