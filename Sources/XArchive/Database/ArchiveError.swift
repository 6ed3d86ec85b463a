/// Why the archive could not open, read or write its database.
///
/// Every case names the database file and says what to do; none holds a secret (the archive
/// stores none).
public enum ArchiveError: Error, Sendable, Equatable, CustomStringConvertible {
  /// SQLite could not open or create the file (a missing folder, no permission, not a database).
  case cannotOpen(path: String, reason: String)
  /// A statement failed: SQLite's extended result code and message, and the statement's first words.
  case sqlite(path: String, code: Int32, message: String, sql: String)
  /// The file is an SQLite database, but not one this archive made (its tables differ).
  case notAnArchive(path: String)
  /// The archive was written by a newer version, whose schema this one does not know.
  case newerSchema(path: String, found: Int, supported: Int)
  /// The archive was used after ``TweetArchive/close()``.
  case closed(path: String)
  /// Another connection kept SQLite from finishing `what` (a reader holding an old snapshot).
  case busy(path: String, what: String)

  public var description: String {
    switch self {
    case .cannotOpen(let path, let reason):
      return "cannot open the database \(path): \(reason); check that its folder exists and is writable"
    case .sqlite(let path, let code, let message, let sql):
      let words = sql.split(whereSeparator: \.isWhitespace).prefix(4).joined(separator: " ")
      let hint = code & 0xFF == 5 || code & 0xFF == 6 ? " (another process holds the database: wait for it to end)" : ""
      return "the database \(path) refused \"\(words) …\": \(message) (SQLite code \(code))\(hint)"
    case .notAnArchive(let path):
      return "\(path) is an SQLite database of something else (it has tables but no tweets archive schema): give a new file"
    case .newerSchema(let path, let found, let supported):
      return "\(path) has schema version \(found), newer than this tweets knows (\(supported)): use a newer tweets"
    case .closed(let path):
      return "the database \(path) is already closed"
    case .busy(let path, let what):
      return "another process has \(path) open, which kept SQLite from \(what): close it (sqlite3, a notebook) and run again"
    }
  }
}
