import Foundation
import Testing
import XAPI

@testable import XArchive

/// The archive's storage rules, on a real SQLite file: ids as keys, the newest counts win, a
/// page whole or not at all, and resuming from the fetches table.
@Suite("Tweet archive")
struct TweetArchiveTests {
  let folder: URL

  init() throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("archive-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  var path: String { folder.appendingPathComponent("a.sqlite").path }

  static func tweet(_ id: String, likes: Int, author: String = "7", hashtags: [String] = [], replyTo: String? = nil) -> Tweet {
    Tweet(
      id: id, text: "tweet \(id) #x", createdAt: Date(timeIntervalSince1970: 1_790_000_000),
      author: Author(id: author, username: "u\(author)", name: "U"),
      metrics: Metrics(retweets: 1, replies: 2, likes: likes, quotes: 3), lang: "en", conversationID: replyTo ?? id,
      referencedTweets: replyTo.map { [ReferencedTweet(kind: .repliedTo, id: $0)] },
      entities: Entities(urls: [], mentions: [], hashtags: hashtags), media: [Media(key: "3_\(id)", type: "photo", url: "https://p/\(id).jpg")])
  }

  /// A v2 page body holding `tweets`, as X shapes it.
  static func body(_ tweets: [Tweet]) -> Data {
    let data = tweets.map { ["id": $0.id, "text": $0.text, "author_id": $0.author?.id ?? ""] }
    return try! JSONSerialization.data(withJSONObject: ["data": data, "meta": ["result_count": tweets.count]])
  }

  static func page(_ tweets: [Tweet], next: String?) -> Page<Tweet> {
    Page(items: tweets, next: next.map(PageCursor.token), body: body(tweets))
  }

  func count(_ archive: TweetArchive, _ table: String) throws -> Int64 {
    try archive.database.rows("SELECT count(*) FROM \(table)").first?.first?.integer ?? -1
  }

  @Test("A new file gets every table at the newest schema version, in WAL mode")
  func schema() throws {
    let archive = try TweetArchive(path: path)
    #expect(try archive.schemaVersion == ArchiveSchema.version)
    #expect(try archive.database.rows("PRAGMA journal_mode").first?.first?.text == "wal")
    let tables = try archive.database.rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").compactMap { $0.first?.text }
    #expect(
      tables == [
        "compliance_events", "compliance_jobs", "fetches", "media", "missing_tweets", "raw_tweets", "stream_matches", "tweet_hashtags", "tweet_media",
        "tweet_references", "tweets", "users",
      ])
    archive.close()
    // Reopened: nothing to migrate, nothing lost.
    #expect(try TweetArchive(path: path).schemaVersion == ArchiveSchema.version)
  }

  @Test("A re-run updates the counts and adds no tweet; the fetches table gets the new run")
  func rerunUpdates() throws {
    let archive = try TweetArchive(path: path)
    var first = try archive.beginFetch(command: ["timeline", "u7"], resume: false)
    try archive.store(Self.page([Self.tweet("10", likes: 1), Self.tweet("11", likes: 1)], next: nil), in: &first, complete: true)
    var second = try archive.beginFetch(command: ["timeline", "u7"], resume: false)
    try archive.store(Self.page([Self.tweet("11", likes: 99), Self.tweet("10", likes: 5)], next: nil), in: &second, complete: true)
    #expect(try count(archive, "tweets") == 2)
    #expect(try count(archive, "users") == 1)
    #expect(try count(archive, "raw_tweets") == 2)
    #expect(try count(archive, "fetches") == 2)
    let likes = try archive.database.rows("SELECT id, like_count, fetch_id FROM tweets ORDER BY id")
    #expect(likes == [[.integer(10), .integer(5), .integer(first.id)], [.integer(11), .integer(99), .integer(first.id)]])
  }

  @Test("A URL's user info is not stored with the command, and the same command with it resumes the same fetch")
  func userInfoIsNotStored() throws {
    let archive = try TweetArchive(path: path)
    let command = ["timeline", "u7", "--base-url", "http://proxy-user:pw-secret@127.0.0.1:8080", "--api=https://t0ken@api.example"]
    var fetch = try archive.beginFetch(command: command, resume: false)
    try archive.store(Self.page([Self.tweet("10", likes: 1)], next: "n1"), in: &fetch, complete: false)
    let stored = try archive.database.rows("SELECT command FROM fetches").first?.first?.text ?? ""
    #expect(!stored.contains("pw-secret") && !stored.contains("proxy-user") && !stored.contains("t0ken"), "\(stored)")
    #expect(fetch.command == ["timeline", "u7", "--base-url", "http://127.0.0.1:8080", "--api=https://api.example"])
    let resumed = try archive.beginFetch(command: command, resume: true)
    #expect(resumed.resumed && resumed.id == fetch.id)
  }

  @Test("What a newer answer lacks is kept: a timeline's author does not erase a lookup's counts")
  func partialAnswersKeepWhatTheyLack() throws {
    let archive = try TweetArchive(path: path)
    var fetch = try archive.beginFetch(command: ["users", "u7"], resume: false)
    let user = XUser(id: "7", username: "u7", name: "Seven", metrics: UserMetrics(followers: 40, following: 2, tweets: 9))
    try archive.store(users: [user], in: &fetch, complete: true)
    var timeline = try archive.beginFetch(command: ["timeline", "u7"], resume: false)
    try archive.store(Self.page([Self.tweet("10", likes: 1)], next: nil), in: &timeline, complete: true)
    let row = try archive.database.rows("SELECT username, followers_count FROM users WHERE id = 7")
    #expect(row == [[.text("u7"), .integer(40)]])
  }

  @Test("References, media and hashtags join on the tweet's id")
  func related() throws {
    let archive = try TweetArchive(path: path)
    var fetch = try archive.beginFetch(command: ["conversation", "10"], resume: false)
    let tweets = [
      Self.tweet("10", likes: 1, hashtags: ["swift"]), Self.tweet("12", likes: 0, author: "8", hashtags: ["swift", "sqlite"], replyTo: "10"),
    ]
    try archive.store(Self.page(tweets, next: nil), in: &fetch, complete: true)
    #expect(
      try archive.database.rows("SELECT tweet_id, kind, referenced_id FROM tweet_references") == [[.integer(12), .text("replied_to"), .integer(10)]])
    #expect(try count(archive, "tweet_hashtags") == 3)
    #expect(try count(archive, "tweet_media") == 2)
    let thread = try archive.database.rows(
      "SELECT t.id, u.username FROM tweets t JOIN users u ON u.id = t.author_id WHERE conversation_id = 10 ORDER BY t.id")
    #expect(thread == [[.integer(10), .text("u7")], [.integer(12), .text("u8")]])
  }

  @Test("The raw JSON of each tweet is its own object from the page, values unchanged")
  func rawJSON() throws {
    let archive = try TweetArchive(path: path)
    var fetch = try archive.beginFetch(command: ["show", "10"], resume: false)
    let body = Data(#"{"data":[{"text":"a/b \u00e9","id":"10","public_metrics":{"like_count":3}}],"includes":{"users":[]}}"#.utf8)
    try archive.store(lookup: [Self.tweet("10", likes: 3)], body: body, missing: [], inputDone: 1, in: &fetch, complete: true)
    let json = try #require(try archive.database.rows("SELECT json FROM raw_tweets WHERE tweet_id = 10").first?.first?.text)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    #expect(object["text"] as? String == "a/b é")
    #expect((object["public_metrics"] as? [String: Any])?["like_count"] as? Int == 3)
    #expect(object["includes"] == nil)
  }

  @Test("--resume continues the latest fetch of the same command from its cursor; a complete one has nothing left")
  func resume() throws {
    do {
      let archive = try TweetArchive(path: path)
      var fetch = try archive.beginFetch(command: ["timeline", "u7", "--all"], resume: true)
      #expect(!fetch.resumed)
      try archive.store(Self.page([Self.tweet("10", likes: 1)], next: "page2"), in: &fetch, complete: false)
      // Killed here: no stop recorded.
    }
    let archive = try TweetArchive(path: path)
    var other = try archive.beginFetch(command: ["timeline", "u8", "--all"], resume: true)
    #expect(!other.resumed)
    try archive.stop(&other)
    var fetch = try archive.beginFetch(command: ["timeline", "u7", "--all"], resume: true)
    #expect(fetch.resumed)
    #expect(fetch.cursor == .token("page2"))
    #expect(fetch.records == 1 && fetch.pages == 1)
    try archive.store(Self.page([Self.tweet("9", likes: 1)], next: nil), in: &fetch, complete: true)
    let again = try archive.beginFetch(command: ["timeline", "u7", "--all"], resume: true)
    #expect(again.status == .complete && again.records == 2 && again.cursor == nil)
    #expect(try archive.database.rows("SELECT status FROM fetches WHERE id = ?", [.integer(other.id)]) == [[.text("stopped")]])
  }

  @Test("Missing ids are recorded once, with X's reason, and leave the table when found")
  func missing() throws {
    let archive = try TweetArchive(path: path)
    var fetch = try archive.beginFetch(command: ["hydrate", "ids.txt"], resume: false)
    let gone = [
      MissingTweet(id: "404", reason: "Not Found Error", detail: "Could not find tweet with ids: [404]."),
      MissingTweet(id: "10", reason: "not returned"),
    ]
    try archive.store(lookup: [], body: Data(), missing: gone, inputDone: 2, in: &fetch, complete: false)
    try archive.store(lookup: [], body: Data(), missing: gone, inputDone: 4, in: &fetch, complete: false)
    #expect(try count(archive, "missing_tweets") == 2)
    try archive.store(
      lookup: [Self.tweet("10", likes: 1)], body: Self.body([Self.tweet("10", likes: 1)]), missing: [], inputDone: 5, in: &fetch, complete: true)
    #expect(try archive.database.rows("SELECT id, reason FROM missing_tweets") == [[.integer(404), .text("Not Found Error")]])
    #expect(fetch.inputDone == 5 && fetch.status == .complete)
  }

  @Test("A streamed tweet is stored with the rules it matched, once however often it comes")
  func streamed() throws {
    let archive = try TweetArchive(path: path)
    var fetch = try archive.beginFetch(command: ["stream"], resume: false)
    let line = Data(#"{"data":{"id":"10","text":"tweet 10 #x"},"matching_rules":[{"id":"r1","tag":"swift"}]}"#.utf8)
    try archive.store(streamed: Self.tweet("10", likes: 0), body: line, matching: [MatchingRule(id: "r1", tag: "swift")], in: &fetch)
    try archive.store(
      streamed: Self.tweet("10", likes: 0), body: line, matching: [MatchingRule(id: "r1", tag: "swift"), MatchingRule(id: "r2")],
      in: &fetch)
    #expect(try count(archive, "tweets") == 1)
    #expect(
      try archive.database.rows("SELECT rule_id, tag FROM stream_matches ORDER BY rule_id") == [
        [.text("r1"), .text("swift")], [.text("r2"), .null],
      ])
    #expect(try archive.database.rows("SELECT json FROM raw_tweets").first?.first?.text?.contains("matching_rules") == false)
    #expect(fetch.records == 2 && fetch.status == .running)
  }

  @Test("A page is stored whole or not at all: a failing row rolls the page and its progress back")
  func pageIsAtomic() throws {
    let archive = try TweetArchive(path: path)
    var fetch = try archive.beginFetch(command: ["timeline"], resume: false)
    // A trigger refuses the second tweet of the page, after the first is written.
    try archive.database.execute("CREATE TRIGGER refuse BEFORE INSERT ON tweets WHEN NEW.id = 11 BEGIN SELECT RAISE(ABORT, 'refused'); END")
    #expect(throws: ArchiveError.self) {
      try archive.store(Self.page([Self.tweet("10", likes: 1), Self.tweet("11", likes: 1)], next: "p2"), in: &fetch, complete: false)
    }
    #expect(try count(archive, "tweets") == 0)
    #expect(fetch.pages == 0 && fetch.cursor == nil)
    #expect(try archive.database.rows("SELECT pages, cursor FROM fetches") == [[.integer(0), .null]])
  }

  @Test("A database of something else, or of a newer schema, is refused with what to do")
  func refusals() throws {
    let other = try SQLiteDatabase(path: path)
    try other.execute("CREATE TABLE notes (id INTEGER)")
    other.close()
    #expect(throws: ArchiveError.notAnArchive(path: path)) { try TweetArchive(path: path) }
    let newer = folder.appendingPathComponent("newer.sqlite").path
    let database = try SQLiteDatabase(path: newer)
    try database.execute("PRAGMA user_version = 99")
    database.close()
    #expect(throws: ArchiveError.newerSchema(path: newer, found: 99, supported: ArchiveSchema.version)) { try TweetArchive(path: newer) }
    let error = ArchiveError.cannotOpen(path: "/nonexistent/a.sqlite", reason: "unable to open database file")
    #expect(error.description.contains("/nonexistent/a.sqlite") && error.description.contains("writable"))
    #expect(throws: ArchiveError.self) { try TweetArchive(path: "/nonexistent/folder/a.sqlite") }
  }

  @Test("A closed archive says so instead of crashing")
  func closed() throws {
    let archive = try TweetArchive(path: path)
    archive.close()
    archive.close()
    #expect(throws: ArchiveError.closed(path: path)) { try archive.beginFetch(command: ["x"], resume: false) }
  }
}
