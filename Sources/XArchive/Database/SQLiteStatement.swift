import CSQLite

/// A value SQLite stores: its four types and NULL.
enum SQLiteValue: Equatable, Sendable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)

  /// The text, or `nil` for NULL and other types.
  var text: String? {
    if case .text(let text) = self { return text }
    return nil
  }

  /// The integer, or `nil` for NULL and other types.
  var integer: Int64? {
    if case .integer(let number) = self { return number }
    return nil
  }

  /// `text` or NULL.
  static func optional(_ text: String?) -> SQLiteValue { text.map(SQLiteValue.text) ?? .null }
  /// `number` or NULL.
  static func optional(_ number: Int?) -> SQLiteValue { number.map { .integer(Int64($0)) } ?? .null }
  /// 1, 0 or NULL.
  static func optional(_ flag: Bool?) -> SQLiteValue { flag.map { .integer($0 ? 1 : 0) } ?? .null }
  /// An X id (decimal digits, up to 19) as an integer, so that ids sort as numbers; NULL for
  /// none, and the text itself for an id that is not a 64-bit number (never seen from X).
  static func id(_ id: String?) -> SQLiteValue {
    guard let id else { return .null }
    return Int64(id).map(SQLiteValue.integer) ?? .text(id)
  }
}

/// A prepared statement of one ``SQLiteDatabase``, which owns and finalizes it.
///
/// The pointer work of the archive is here: values are bound with SQLite copying the bytes
/// (`SQLITE_TRANSIENT`) before the call returns, and column text is copied into a `String`
/// before the next step, which is when SQLite may reuse its buffer.
final class SQLiteStatement {
  private var handle: OpaquePointer?
  private unowned let database: SQLiteDatabase
  let sql: String

  init(_ handle: OpaquePointer, database: SQLiteDatabase, sql: String) {
    self.handle = handle
    self.database = database
    self.sql = sql
  }

  func finalize() {
    sqlite3_finalize(handle)
    handle = nil
  }

  /// Binds `values`, steps until done and resets.
  func run(_ values: [SQLiteValue]) throws(ArchiveError) {
    try step(values, columns: false) { _ throws(ArchiveError) in }
  }

  /// Binds `values` and returns every row.
  func rows(_ values: [SQLiteValue]) throws(ArchiveError) -> [[SQLiteValue]] {
    var result: [[SQLiteValue]] = []
    try step(values, columns: true) { row throws(ArchiveError) in result.append(row) }
    return result
  }

  /// Binds `values` and hands each row to `body` as it is stepped, keeping none: for results
  /// too large to collect (every id of an archive).
  func forEachRow(_ values: [SQLiteValue], _ body: ([SQLiteValue]) throws(ArchiveError) -> Void) throws(ArchiveError) {
    try step(values, columns: true, body)
  }

  private func step(
    _ values: [SQLiteValue], columns: Bool, _ each: ([SQLiteValue]) throws(ArchiveError) -> Void
  ) throws(ArchiveError) {
    guard let handle else { throw ArchiveError.closed(path: database.path) }
    defer {
      sqlite3_reset(handle)
      sqlite3_clear_bindings(handle)
    }
    for (offset, value) in values.enumerated() {
      let index = Int32(offset + 1)
      let status: Int32
      switch value {
      case .null: status = sqlite3_bind_null(handle, index)
      case .integer(let number): status = sqlite3_bind_int64(handle, index, number)
      case .real(let number): status = sqlite3_bind_double(handle, index, number)
      case .text(let text):
        // The length is given, so that a NUL inside the text does not end it.
        var text = text
        status = text.withUTF8 { bytes in
          bytes.withMemoryRebound(to: CChar.self) { characters in
            // An empty buffer may have no address, which SQLite would take for NULL.
            guard let start = characters.baseAddress else { return xarchive_bind_text(handle, index, "", 0) }
            return xarchive_bind_text(handle, index, start, Int32(characters.count))
          }
        }
      }
      guard status == SQLITE_OK else { throw failure(status) }
    }
    while true {
      let status = sqlite3_step(handle)
      if status == SQLITE_DONE { return }
      guard status == SQLITE_ROW else { throw failure(status) }
      if columns { try each((0..<sqlite3_column_count(handle)).map { column(handle, $0) }) }
    }
  }

  private func column(_ handle: OpaquePointer, _ index: Int32) -> SQLiteValue {
    switch sqlite3_column_type(handle, index) {
    case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, index))
    case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, index))
    case SQLITE_NULL: return .null
    default:
      // Text (and a blob, read as UTF-8): the bytes are valid until the next step or reset.
      guard let bytes = sqlite3_column_text(handle, index) else { return .text("") }
      let count = Int(sqlite3_column_bytes(handle, index))
      return .text(String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self))
    }
  }

  private func failure(_ status: Int32) -> ArchiveError {
    .sqlite(path: database.path, code: status, message: database.errorMessage, sql: sql)
  }
}
