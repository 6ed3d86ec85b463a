import DateFormats
import Foundation
import Locking
import XAPI

/// The ledger of X's charges on disk, in SQLite: one file per profile (X bills per app),
/// shared by every process that uses the profile.
///
/// One row per charge, its key (UTC day, kind, id) as X deduplicates: a second sighting the
/// same day is ignored, so the first price stands. Each answer's charges are written in one
/// transaction (`BEGIN IMMEDIATE`: two processes wait for each other rather than fail), so a
/// killed process loses at most the answer it was writing, and WAL lets readers go on while
/// one writes.
///
/// Schema (version 1, in `PRAGMA user_version`):
/// ```sql
/// CREATE TABLE charges(
///   day TEXT NOT NULL,          -- X's UTC day, YYYY-MM-DD
///   kind TEXT NOT NULL,         -- post, user ... or request:post_create ...
///   id TEXT NOT NULL,           -- the resource's id, or the request's own
///   price_micros INTEGER NOT NULL,  -- millionths of a dollar
///   command TEXT NOT NULL,      -- search, hydrate ...
///   recorded_at TEXT NOT NULL,  -- RFC 3339, the local clock
///   PRIMARY KEY (day, kind, id)) WITHOUT ROWID;
/// ```
///
/// ```swift
/// let ledger = try SQLiteLedger(path: configDirectory + "/profiles/default.ledger.sqlite")
/// let budget = XBudgetBehavior(limit: USD("5")!, ledger: ledger, command: "search")
/// ```
public final class SQLiteLedger: XLedger {
  private let database: Locked<SQLiteDatabase>
  /// The file.
  public let path: String

  /// Opens the ledger at `path`, creating the file and its table when absent.
  ///
  /// - Throws: ``ArchiveError`` when the file cannot be opened or is not a ledger.
  public init(path: String) throws(ArchiveError) {
    self.path = path
    let database = try SQLiteDatabase(path: path)
    try database.execute("PRAGMA journal_mode=WAL")
    let version = try database.rows("PRAGMA user_version").first?.first?.integer ?? 0
    if version == 0 {
      try database.transaction { () throws(ArchiveError) in
        try database.execute(
          """
          CREATE TABLE IF NOT EXISTS charges(
            day TEXT NOT NULL, kind TEXT NOT NULL, id TEXT NOT NULL, price_micros INTEGER NOT NULL,
            command TEXT NOT NULL, recorded_at TEXT NOT NULL, PRIMARY KEY (day, kind, id)) WITHOUT ROWID;
          PRAGMA user_version = 1;
          """)
      }
    } else if version != 1 {
      throw ArchiveError.cannotOpen(path: path, reason: "its ledger schema is version \(version), newer than this release's 1: update tweets")
    }
    self.database = Locked(database)
  }

  public func record(_ charges: [XCharge]) async throws -> [XCharge] {
    let now = RFC3339.string(from: Date())
    return try database.withLock { database in
      try database.transaction { () throws(ArchiveError) in
        var new: [XCharge] = []
        for charge in charges {
          try database.run(
            "INSERT OR IGNORE INTO charges(day, kind, id, price_micros, command, recorded_at) VALUES (?, ?, ?, ?, ?, ?)",
            [
              .text(charge.day), .text(charge.kind.description), .text(charge.id), .integer(charge.price.micros), .text(charge.command),
              .text(now),
            ])
          if database.changes > 0 { new.append(charge) }
        }
        return new
      }
    }
  }

  public func charged(day: String, kind: XChargeKind, ids: [String]) async throws -> Set<String> {
    try database.withLock { database in
      var found: Set<String> = []
      for id in ids
      where try !database.rows("SELECT 1 FROM charges WHERE day = ? AND kind = ? AND id = ?", [.text(day), .text(kind.description), .text(id)])
        .isEmpty
      {
        found.insert(id)
      }
      return found
    }
  }

  public func totals(from firstDay: String, through lastDay: String) async throws -> [XLedgerTotal] {
    let rows = try database.withLock { database in
      try database.rows(
        "SELECT day, command, count(*), sum(price_micros) FROM charges WHERE day BETWEEN ? AND ? GROUP BY day, command ORDER BY day, command",
        [.text(firstDay), .text(lastDay)])
    }
    return Self.totals(rows)
  }

  /// `recorded_at` is RFC 3339 in UTC, so its first ten characters are the UTC day it was recorded.
  public func totals(recordedFrom firstDay: String, through lastDay: String) async throws -> [XLedgerTotal] {
    let rows = try database.withLock { database in
      try database.rows(
        """
        SELECT day, command, count(*), sum(price_micros) FROM charges WHERE substr(recorded_at, 1, 10) BETWEEN ? AND ?
        GROUP BY day, command ORDER BY day, command
        """,
        [.text(firstDay), .text(lastDay)])
    }
    return Self.totals(rows)
  }

  private static func totals(_ rows: [[SQLiteValue]]) -> [XLedgerTotal] {
    rows.map { row in
      XLedgerTotal(
        day: row[0].text ?? "", command: row[1].text ?? "", items: Int(row[2].integer ?? 0), amount: USD(micros: row[3].integer ?? 0))
    }
  }
}
