import Foundation

extension TweetArchive {
  /// What ``postIDs(_:)`` selects: posts created in a window, or whose text holds a phrase.
  public struct IDFilter: Sendable, Equatable {
    /// Only posts created at or after this instant.
    public var since: Date?
    /// Only posts created before this instant.
    public var until: Date?
    /// Only posts whose text holds this phrase (any case, as SQLite's `LIKE` compares ASCII).
    public var containing: String?

    /// A filter; every part is optional.
    public init(since: Date? = nil, until: Date? = nil, containing: String? = nil) {
      self.since = since
      self.until = until
      self.containing = containing
    }
  }

  /// The ids of the archive's posts that `filter` selects, newest id first: what `tweets
  /// dehydrate` shares (X's terms allow sharing ids, not content), and `tweets hydrate` reads
  /// back in the same order.
  ///
  /// ```swift
  /// let ids = try archive.postIDs(TweetArchive.IDFilter(containing: "climate"))
  /// ```
  public func postIDs(_ filter: IDFilter = IDFilter()) throws(ArchiveError) -> [String] {
    var conditions: [String] = []
    var values: [SQLiteValue] = []
    if let since = filter.since {
      conditions.append("created_at >= ?")
      values.append(.text(Self.timestamp(since)))
    }
    if let until = filter.until {
      conditions.append("created_at < ?")
      values.append(.text(Self.timestamp(until)))
    }
    if let phrase = filter.containing {
      // The phrase is matched literally: LIKE's wildcards in it are escaped.
      let escaped = phrase.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
        .replacingOccurrences(of: "_", with: "\\_")
      conditions.append("text LIKE ? ESCAPE '\\'")
      values.append(.text("%" + escaped + "%"))
    }
    let clause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
    return try database.rows("SELECT id FROM tweets\(clause) ORDER BY id DESC", values).compactMap(Self.idText)
  }

  /// The ids of the archive's users, lowest first.
  public func userIDs() throws(ArchiveError) -> [String] {
    try database.rows("SELECT id FROM users ORDER BY id").compactMap(Self.idText)
  }

  private static func idText(_ row: [SQLiteValue]) -> String? {
    row.first.flatMap(idText(of:))
  }

  /// An id column's value as X's decimal text (ids are stored as integers).
  static func idText(of value: SQLiteValue) -> String? {
    switch value {
    case .integer(let id): String(id)
    case .text(let id): id
    default: nil
    }
  }
}
