import Foundation
import XAPI

/// Batch compliance over the archive (`tweets compliance`): the ids it uploads, the job it is
/// waiting for, and the results applied.
///
/// A post a result removes (deleted, protected, suspended, deactivated, bounced) loses its row,
/// its raw JSON, its media (and the record of their downloaded files, whose paths the summary
/// lists for the caller to delete), hashtags, references and stream matches; its id stays in
/// `compliance_events` with the event, the job and the dates. A `users` job removes the account
/// and every post of it. `scrub_geo` removes the post's `geo` from its raw JSON. `rehydrate` (an
/// edited post) is recorded, for `tweets hydrate` to fetch again. The whole job's results are
/// one transaction, written with SQLite's `secure_delete` (freed space overwritten with zeros),
/// then `VACUUM` (older copies of a row, left by updates, are rewritten away) and a checkpoint
/// that empties the write-ahead log: the removed text is left in no page of the files.
///
/// ```swift
/// let summary = try archive.applyCompliance(results, job: job.id, type: .tweets)
/// print("removed \(summary.removedPosts) posts")
/// ```
extension TweetArchive {
  /// Where the archive's job is: its ids sent or not, its results applied, or given up (X let
  /// it fail or expire).
  public enum ComplianceJobState: String, Sendable, Hashable {
    /// Created at X; the upload may not have finished.
    case created
    /// The ids were uploaded: X holds them.
    case uploaded
    /// Its results were applied.
    case applied
    /// X let it fail or expire before its results were applied.
    case abandoned
  }

  /// A job as the archive remembers it: no URL (they are secrets, and X gives fresh ones).
  public struct ComplianceJobRecord: Sendable, Hashable {
    /// X's id of the job.
    public let id: String
    /// Posts or users.
    public let type: ComplianceJob.Kind
    /// Where it is.
    public let state: ComplianceJobState
    /// How many ids it was given.
    public let ids: Int
    /// When the archive created it (ISO 8601).
    public let createdAt: String
  }

  /// What applying a job's results did.
  public struct ComplianceSummary: Sendable, Hashable {
    /// Posts removed (their own events and their authors').
    public var removedPosts = 0
    /// Accounts removed.
    public var removedUsers = 0
    /// Posts whose location data was removed.
    public var scrubbedGeo = 0
    /// Edited posts to fetch again (`tweets hydrate`).
    public var rehydrate: [String] = []
    /// Results for ids the archive no longer holds (removed by an earlier job, or never there).
    public var notInArchive = 0
    /// Ids X could not read.
    public var invalid = 0
    /// The files `tweets media download` saved of the removed media, as recorded (their
    /// `media_files` rows are gone): for the caller to delete, as they hold the removed
    /// content; each with its size and SHA-256, so that only the file downloaded is deleted.
    public var mediaFiles: [MediaFileRecord] = []
  }

  /// The job of `type` the archive is waiting for, if any: created or uploaded, not applied.
  public func pendingComplianceJob(type: ComplianceJob.Kind) throws(ArchiveError) -> ComplianceJobRecord? {
    try database.rows(
      "SELECT id, state, ids, created_at FROM compliance_jobs WHERE type = ? AND state IN ('created', 'uploaded') ORDER BY created_at DESC LIMIT 1",
      [.text(type.rawValue)]
    ).first.flatMap { row in
      guard case .text(let id) = row[0], case .text(let state) = row[1], let record = ComplianceJobState(rawValue: state) else { return nil }
      return ComplianceJobRecord(id: id, type: type, state: record, ids: Int(row[2].integer ?? 0), createdAt: row[3].text ?? "")
    }
  }

  /// Remembers a job X created for `ids` ids of the archive.
  public func recordComplianceJob(id: String, type: ComplianceJob.Kind, ids: Int) throws(ArchiveError) {
    try database.run(
      "INSERT INTO compliance_jobs (id, type, state, ids, created_at) VALUES (?, ?, 'created', ?, ?)",
      [.text(id), .text(type.rawValue), .integer(Int64(ids)), .text(Self.timestamp())])
  }

  /// Moves a job to `state` (`uploaded` once X has its ids, `abandoned` when X let it go).
  public func markComplianceJob(id: String, _ state: ComplianceJobState) throws(ArchiveError) {
    try database.run("UPDATE compliance_jobs SET state = ? WHERE id = ?", [.text(state.rawValue), .text(id)])
  }

  /// Marks a job uploaded: X holds its `ids` ids.
  public func markComplianceJobUploaded(id: String, ids: Int) throws(ArchiveError) {
    try database.run(
      "UPDATE compliance_jobs SET state = 'uploaded', uploaded_at = ?, ids = ? WHERE id = ?",
      [.text(Self.timestamp()), .integer(Int64(ids)), .text(id)])
  }

  /// Writes the ids a job of `type` checks (every post's, or every user's), one per line, to
  /// `handle`, read from the database a row at a time; returns how many.
  public func writeComplianceIDs(type: ComplianceJob.Kind, to handle: FileHandle) throws -> Int {
    let sql = type == .tweets ? "SELECT id FROM tweets ORDER BY id" : "SELECT id FROM users ORDER BY id"
    var buffer = Data()
    var count = 0
    var failure: (any Error)?
    try database.statement(sql).forEachRow([]) { row in
      guard failure == nil, let id = row.first?.integer else { return }
      buffer.append(contentsOf: String(id).utf8)
      buffer.append(UInt8(ascii: "\n"))
      count += 1
      if buffer.count >= 1 << 16 {
        do { try handle.write(contentsOf: buffer) } catch { failure = error }
        buffer.removeAll(keepingCapacity: true)
      }
    }
    if let failure { throw failure }
    try handle.write(contentsOf: buffer)
    return count
  }

  /// Applies a job's `results` in one transaction with `secure_delete`, then empties the
  /// write-ahead log into the database, and marks the job applied.
  public func applyCompliance(
    _ results: [ComplianceResult], job: String, type: ComplianceJob.Kind
  ) throws(ArchiveError) -> ComplianceSummary {
    try database.execute("PRAGMA secure_delete = ON")
    defer { try? database.execute("PRAGMA secure_delete = OFF") }
    let now = Self.timestamp()
    let summary = try database.transaction { () throws(ArchiveError) -> ComplianceSummary in
      var summary = ComplianceSummary()
      for result in results {
        guard result.error == nil, let action = result.action, let id = Int64(result.id) else {
          summary.invalid += 1
          continue
        }
        let event = Event(id: id, result: result, action: action, job: job, now: now)
        switch (type, action) {
        case (.tweets, .delete):
          if try removePost(id, files: &summary.mediaFiles) { summary.removedPosts += 1 } else { summary.notInArchive += 1 }
          try record(event, kind: "tweet")
        case (.tweets, .scrubGeo):
          try database.run("UPDATE raw_tweets SET json = json_remove(json, '$.geo') WHERE tweet_id = ?", [.integer(id)])
          if database.changes > 0 { summary.scrubbedGeo += 1 } else { summary.notInArchive += 1 }
          try record(event, kind: "tweet")
        case (.tweets, .rehydrate):
          summary.rehydrate.append(result.id)
          try record(event, kind: "tweet")
        case (.users, .delete):
          let posts = try database.rows("SELECT id FROM tweets WHERE author_id = ?", [.integer(id)]).compactMap { $0.first?.integer }
          for post in posts where try removePost(post, files: &summary.mediaFiles) {
            summary.removedPosts += 1
            try record(Event(id: post, result: result, action: .delete, job: job, now: now, viaUser: id), kind: "tweet")
          }
          try database.run("DELETE FROM users WHERE id = ?", [.integer(id)])
          if database.changes > 0 { summary.removedUsers += 1 } else if posts.isEmpty { summary.notInArchive += 1 }
          try record(event, kind: "user")
        case (.users, _):
          try record(event, kind: "user")
        }
      }
      try database.run(
        "UPDATE compliance_jobs SET state = 'applied', applied_at = ?, results = ? WHERE id = ?",
        [.text(now), .integer(Int64(results.count)), .text(job)])
      return summary
    }
    // The removed rows were zeroed where they stood, but an older copy of a row (left in a
    // page's free space when a later fetch updated it) is not: VACUUM writes every page anew.
    // The checkpoint then writes the pages over the database's and truncates the log, so no
    // copy of the removed text is left in either file.
    if summary.removedPosts + summary.removedUsers + summary.scrubbedGeo > 0 { try database.execute("VACUUM") }
    let checkpoint = try database.rows("PRAGMA wal_checkpoint(TRUNCATE)").first
    if checkpoint?.first?.integer == 1 { throw .busy(path: database.path, what: "the checkpoint after applying compliance results") }
    return summary
  }

  /// One row of `compliance_events`.
  private struct Event {
    let id: Int64
    let result: ComplianceResult
    let action: ComplianceResult.Action
    let job: String
    let now: String
    var viaUser: Int64? = nil
  }

  private func record(_ event: Event, kind: String) throws(ArchiveError) {
    try database.run(
      """
      INSERT INTO compliance_events (kind, id, event, action, job_id, event_at, applied_at, via_user) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (kind, id, job_id) DO NOTHING
      """,
      [
        .text(kind), .integer(event.id), .text(event.result.event), .text(event.action.rawValue), .text(event.job),
        .optional(event.result.redactedAt.map { Self.timestamp($0) }), .text(event.now), event.viaUser.map { .integer($0) } ?? .null,
      ])
  }

  /// Removes a post's content: its row, raw JSON, media links (and the media no other post
  /// shows, with their downloaded files' rows, whose paths are added to `files`), hashtags,
  /// references and stream matches. Whether the archive held it.
  private func removePost(_ id: Int64, files: inout [MediaFileRecord]) throws(ArchiveError) -> Bool {
    let key: [SQLiteValue] = [.integer(id)]
    let onlyHere = """
      SELECT media_key FROM tweet_media WHERE tweet_id = ?1
      AND media_key NOT IN (SELECT media_key FROM tweet_media WHERE tweet_id != ?1)
      """
    files += try database.rows("SELECT media_key, path, bytes, sha256, source_url FROM media_files WHERE media_key IN (\(onlyHere))", key)
      .compactMap { row in
        guard let mediaKey = row[0].text, let path = row[1].text, let bytes = row[2].integer, let sha = row[3].text else { return nil }
        return MediaFileRecord(mediaKey: mediaKey, path: path, bytes: bytes, sha256: sha, sourceURL: row[4].text ?? "")
      }
    try database.run("DELETE FROM media_files WHERE media_key IN (\(onlyHere))", key)
    try database.run("DELETE FROM media WHERE media_key IN (\(onlyHere))", key)
    for table in ["tweet_media", "tweet_hashtags", "tweet_references", "stream_matches", "raw_tweets"] {
      try database.run("DELETE FROM \(table) WHERE tweet_id = ?", key)
    }
    try database.run("DELETE FROM tweets WHERE id = ?", key)
    return database.changes > 0
  }
}
