import DateFormats
import Foundation
import NetworkClient
import XAPI

/// An SQLite archive of tweets and users, for researchers who keep what they fetch: one file,
/// deduplicated on X's ids, with the authors joined, X's raw JSON of each tweet, and a record of
/// every fetch that lets an interrupted one resume from the database alone.
///
/// Each page is stored in one transaction together with the fetch's progress, so a run killed
/// at any moment loses at most the page in flight and leaves a consistent database (WAL mode).
/// A re-run updates the rows it finds again (the newest counts win) and adds none.
///
/// ```swift
/// let archive = try TweetArchive(path: "jack.sqlite")
/// var fetch = try archive.beginFetch(command: ["timeline", "jack", "--all"], resume: true)
/// var pages = client.v2.userTweets(userID: "12").resuming(from: fetch.cursor, limit: nil).makeAsyncIterator()
/// while let page = try await pages.next() {
///   try archive.store(page, in: &fetch, complete: pages.isFinished)
/// }
/// archive.close()
/// ```
///
/// The schema is described in the XArchive documentation ("The archive's schema"). A connection
/// is used by one task at a time; other processes may read the file while it is written.
public final class TweetArchive {
  let database: SQLiteDatabase
  /// The database file.
  public var path: String { database.path }

  /// Opens the archive at `path`, creating it (and its tables) when the file is absent, and
  /// bringing an older archive's schema up to date.
  public init(path: String) throws(ArchiveError) {
    database = try SQLiteDatabase(path: path)
    do {
      try ArchiveSchema.prepare(database)
    } catch {
      database.close()
      throw error
    }
  }

  /// The schema version this archive has (`PRAGMA user_version`).
  public var schemaVersion: Int {
    get throws(ArchiveError) { Int(try database.rows("PRAGMA user_version").first?.first?.integer ?? 0) }
  }

  /// Closes the database cleanly: the write-ahead log is folded into the file and removed. The
  /// archive cannot be used afterwards; closing twice does nothing.
  public func close() { database.close() }

  // MARK: Fetches

  /// Starts recording a run of `command`. With `resume`, continues the latest fetch of the same
  /// command when there is one (``ArchiveFetch/resumed``; ``ArchiveFetch/Status/complete`` when
  /// it has nothing left to do); otherwise, or when there is none, begins a new one. Any URL in
  /// `command` is recorded without its user info (`http://user:password@host` as `http://host`).
  public func beginFetch(command: [String], resume: Bool) throws(ArchiveError) -> ArchiveFetch {
    // A URL's user info (a proxy's password, a token as user name) is no part of what the
    // fetch is: it is neither stored nor compared.
    let command = command.map(Redaction.removingUserInfo)
    let commandText = Self.json(command)
    let now = Self.timestamp()
    if resume,
      let row = try database.rows(
        "SELECT id, status, pages, records, cursor, cursor_kind, input_done FROM fetches WHERE command = ? ORDER BY id DESC LIMIT 1",
        [.text(commandText)]
      ).first, let id = row[0].integer
    {
      let status = ArchiveFetch.Status(rawValue: row[1].text ?? "") ?? .stopped
      if status != .complete {
        try database.run("UPDATE fetches SET status = 'running', updated_at = ? WHERE id = ?", [.text(now), .integer(id)])
      }
      return ArchiveFetch(
        id: id, command: command, resumed: true, pages: Int(row[2].integer ?? 0), records: Int(row[3].integer ?? 0),
        cursor: ArchiveFetch.cursor(row[4], kind: row[5]), inputDone: Int(row[6].integer ?? 0), status: status == .complete ? .complete : .running)
    }
    try database.run(
      "INSERT INTO fetches (command, started_at, updated_at, status) VALUES (?, ?, ?, 'running')", [.text(commandText), .text(now), .text(now)])
    return ArchiveFetch(
      id: database.lastInsertedRowID, command: command, resumed: false, pages: 0, records: 0, cursor: nil, inputDone: 0, status: .running)
  }

  /// Records that `fetch` ended early (a signal, an error): it stays resumable. A complete
  /// fetch is left complete.
  public func stop(_ fetch: inout ArchiveFetch) throws(ArchiveError) {
    guard fetch.status == .running else { return }
    fetch.status = .stopped
    try database.run("UPDATE fetches SET status = 'stopped', updated_at = ? WHERE id = ?", [.text(Self.timestamp()), .integer(fetch.id)])
  }

  /// Records that `fetch` reached its end without a page to store it with (a limit already
  /// reached, an empty first answer).
  public func complete(_ fetch: inout ArchiveFetch) throws(ArchiveError) {
    try commit(&fetch, pages: 0, records: 0, next: nil, inputDone: nil, complete: true) { _ throws(ArchiveError) in }
  }

  // MARK: Storing

  /// Stores one page of tweets, their authors, media, references, hashtags and raw JSON, and
  /// the fetch's progress (the page's next cursor; `complete` when it was the last), in one
  /// transaction.
  public func store(_ page: Page<Tweet>, in fetch: inout ArchiveFetch, complete: Bool) throws(ArchiveError) {
    let id = fetch.id
    try commit(&fetch, records: page.items.count, next: complete ? nil : page.next, inputDone: nil, complete: complete) { now throws(ArchiveError) in
      try insert(tweets: page.items, raw: RawObjects.tweets(in: page.body), fetch: id, now: now)
    }
  }

  /// Stores one page of users (followers, following) and the fetch's progress, in one transaction.
  public func store(_ page: Page<XUser>, in fetch: inout ArchiveFetch, complete: Bool) throws(ArchiveError) {
    try commit(&fetch, records: page.items.count, next: complete ? nil : page.next, inputDone: nil, complete: complete) { now throws(ArchiveError) in
      for user in page.items { try upsert(user, now: now) }
    }
  }

  /// Stores the answer to one lookup of ids (`show`, `hydrate`): the tweets found, the ids X did
  /// not return with its reason, and how many input ids are now done, in one transaction.
  ///
  /// An id recorded missing and found later leaves the missing table.
  public func store(
    lookup tweets: [Tweet], body: Data, missing: [MissingTweet], inputDone: Int, in fetch: inout ArchiveFetch, complete: Bool
  ) throws(ArchiveError) {
    let id = fetch.id
    try commit(&fetch, records: tweets.count, next: nil, inputDone: inputDone, complete: complete) { now throws(ArchiveError) in
      try insert(tweets: tweets, raw: RawObjects.tweets(in: body), fetch: id, now: now)
      for absent in missing {
        try database.run(
          """
          INSERT INTO missing_tweets (id, reason, detail, fetch_id, seen_at) VALUES (?, ?, ?, ?, ?)
          ON CONFLICT(id) DO UPDATE SET reason = excluded.reason, detail = excluded.detail, seen_at = excluded.seen_at
          """, [.id(absent.id), .text(absent.reason), .optional(absent.detail), .integer(id), .text(now)])
      }
    }
  }

  /// Stores one tweet of the filtered stream with the rules it matched (`stream_matches`), the
  /// users its line included, and its raw line (`body`: X's object with `data`, `includes`,
  /// `matching_rules`), in one transaction with the fetch's count.
  public func store(
    streamed tweet: Tweet, body: Data, users: [XUser] = [], matching rules: [MatchingRule], in fetch: inout ArchiveFetch
  ) throws(ArchiveError) {
    let id = fetch.id
    try commit(&fetch, records: 1, next: nil, inputDone: nil, complete: false) { now throws(ArchiveError) in
      for user in users { try upsert(user, now: now) }
      try insert(tweets: [tweet], raw: RawObjects.tweets(in: body), fetch: id, now: now)
      for rule in rules {
        try database.run(
          "INSERT INTO stream_matches (tweet_id, rule_id, tag) VALUES (?, ?, ?) ON CONFLICT(tweet_id, rule_id) DO UPDATE SET tag = excluded.tag",
          [.id(tweet.id), .text(rule.id), .optional(rule.tag)])
      }
    }
  }

  /// Stores looked-up users (`users`), in one transaction with the fetch's progress.
  public func store(users: [XUser], in fetch: inout ArchiveFetch, complete: Bool) throws(ArchiveError) {
    try commit(&fetch, records: users.count, next: nil, inputDone: nil, complete: complete) { now throws(ArchiveError) in
      for user in users { try upsert(user, now: now) }
    }
  }

  /// Runs `rows` and the fetch's progress update in one transaction; `fetch` changes only when
  /// it commits.
  private func commit(
    _ fetch: inout ArchiveFetch, pages: Int = 1, records: Int, next: PageCursor?, inputDone: Int?, complete: Bool,
    _ rows: (String) throws(ArchiveError) -> Void
  ) throws(ArchiveError) {
    var updated = fetch
    updated.pages += pages
    updated.records += records
    updated.cursor = next
    if let inputDone { updated.inputDone = inputDone }
    updated.status = complete ? .complete : .running
    let now = Self.timestamp()
    let cursor = updated.cursorColumns
    try database.transaction { () throws(ArchiveError) in
      try rows(now)
      try database.run(
        "UPDATE fetches SET pages = ?, records = ?, cursor = ?, cursor_kind = ?, input_done = ?, status = ?, updated_at = ? WHERE id = ?",
        [
          .integer(Int64(updated.pages)), .integer(Int64(updated.records)), cursor.0, cursor.1, .integer(Int64(updated.inputDone)),
          .text(updated.status.rawValue), .text(now), .integer(updated.id),
        ])
    }
    fetch = updated
  }

  static func json(_ words: [String]) -> String {
    (try? JSONEncoder().encode(words)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
  }

  static func timestamp(_ date: Date = Date()) -> String {
    RFC3339.string(from: date)
  }
}

/// A tweet id a lookup asked for and X did not return, with X's reason.
public struct MissingTweet: Sendable, Hashable {
  /// The id asked for.
  public var id: String
  /// X's title for it (`Not Found Error`, `Authorization Error` for a protected or suspended
  /// author), `withheld` for a tweet withheld where it was asked from, or `not returned`.
  public var reason: String
  /// X's detail, when it gave one.
  public var detail: String?

  /// A missing id and why.
  public init(id: String, reason: String, detail: String? = nil) {
    self.id = id
    self.reason = reason
    self.detail = detail
  }
}
