import CSQLite
import Foundation

/// One connection to an SQLite database file: the only owner of its `sqlite3` handle.
///
/// Not `Sendable`: a connection is used by one task at a time (SQLite's default threading mode
/// allows that; two tasks on one connection would need its serialized mode). The prepared
/// statements are cached by their SQL and finalized before the connection closes.
final class SQLiteDatabase {
  /// The open handle; `nil` once closed.
  private var handle: OpaquePointer?
  private var statements: [String: SQLiteStatement] = [:]
  /// The file, for messages.
  let path: String

  /// Opens (creating it if absent) the database at `path`. Another process writing the same
  /// file is waited for up to `busyTimeout` seconds before a write fails.
  init(path: String, busyTimeout: Double = 10) throws(ArchiveError) {
    self.path = path
    var opened: OpaquePointer?
    let status = sqlite3_open_v2(path, &opened, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
    guard status == SQLITE_OK, let opened else {
      let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
      sqlite3_close_v2(opened)
      throw ArchiveError.cannotOpen(path: path, reason: message)
    }
    handle = opened
    sqlite3_extended_result_codes(opened, 1)
    sqlite3_busy_timeout(opened, Int32(busyTimeout * 1000))
  }

  deinit { close() }

  /// Finalizes the statements and closes the file. With WAL, the last connection's close
  /// checkpoints the log into the database and removes it. Safe to call twice.
  func close() {
    for statement in statements.values { statement.finalize() }
    statements = [:]
    if let handle { sqlite3_close_v2(handle) }
    handle = nil
  }

  /// Runs one or more statements that return no rows (schema changes, pragmas).
  func execute(_ sql: String) throws(ArchiveError) {
    let handle = try open()
    var message: UnsafeMutablePointer<CChar>?
    let status = sqlite3_exec(handle, sql, nil, nil, &message)
    let text = message.map { String(cString: $0) }
    sqlite3_free(message)
    guard status == SQLITE_OK else { throw ArchiveError.sqlite(path: path, code: status, message: text ?? "", sql: sql) }
  }

  /// The prepared statement for `sql`, prepared once per connection.
  func statement(_ sql: String) throws(ArchiveError) -> SQLiteStatement {
    if let cached = statements[sql] { return cached }
    let handle = try open()
    var prepared: OpaquePointer?
    let status = sqlite3_prepare_v2(handle, sql, -1, &prepared, nil)
    guard status == SQLITE_OK, let prepared else {
      throw ArchiveError.sqlite(path: path, code: status, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }
    let statement = SQLiteStatement(prepared, database: self, sql: sql)
    statements[sql] = statement
    return statement
  }

  /// Runs `sql` with `values` bound to its `?` parameters, for a statement without rows.
  func run(_ sql: String, _ values: [SQLiteValue] = []) throws(ArchiveError) {
    try statement(sql).run(values)
  }

  /// The rows `sql` returns with `values` bound.
  func rows(_ sql: String, _ values: [SQLiteValue] = []) throws(ArchiveError) -> [[SQLiteValue]] {
    try statement(sql).rows(values)
  }

  /// Runs `body` in one transaction: all of its writes are committed together, or none (a throw
  /// rolls back). `BEGIN IMMEDIATE` takes the write lock first, so that two writers wait for each
  /// other instead of failing half way.
  func transaction<Result>(_ body: () throws(ArchiveError) -> Result) throws(ArchiveError) -> Result {
    try execute("BEGIN IMMEDIATE")
    do {
      let result = try body()
      try execute("COMMIT")
      return result
    } catch {
      try? execute("ROLLBACK")
      throw error
    }
  }

  /// How many rows the last statement inserted, changed or deleted.
  var changes: Int { handle.map { Int(sqlite3_changes($0)) } ?? 0 }

  /// The rowid of the last row inserted on this connection.
  var lastInsertedRowID: Int64 { handle.map { sqlite3_last_insert_rowid($0) } ?? 0 }

  /// The last error's message, for a statement's failure.
  var errorMessage: String { handle.map { String(cString: sqlite3_errmsg($0)) } ?? "the database is closed" }

  private func open() throws(ArchiveError) -> OpaquePointer {
    guard let handle else { throw ArchiveError.closed(path: path) }
    return handle
  }
}
