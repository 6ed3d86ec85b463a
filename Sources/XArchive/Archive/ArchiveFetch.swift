import XAPI

/// One run of a command recorded in the archive's `fetches` table: what it is, how far it got,
/// and where it goes on, so that `--resume` continues from the database alone.
///
/// ```swift
/// var fetch = try archive.beginFetch(command: ["timeline", "jack", "--all"], resume: true)
/// let pages = client.v2.userTweets(userID: "12").resuming(from: fetch.cursor, limit: nil)
/// ```
public struct ArchiveFetch: Sendable, Equatable {
  /// Where a fetch stands.
  public enum Status: String, Sendable {
    /// Under way, or killed while it was (a `kill -9` leaves it so).
    case running
    /// Ended early: a signal, an error, a rate limit with `--no-wait`.
    case stopped
    /// Reached its end or its limit: there is nothing to resume.
    case complete
  }

  /// The row's id in `fetches`; the `fetch_id` of the tweets it stored first.
  public let id: Int64
  /// The command and its options as given, URLs without their user info (no credential: the
  /// caller leaves the others out). A resume continues the latest fetch with the same command.
  public let command: [String]
  /// Whether this continues a fetch an earlier run began.
  public let resumed: Bool
  /// Pages (or lookups) stored.
  public internal(set) var pages: Int
  /// Records (tweets or users) stored by this fetch, all runs together.
  public internal(set) var records: Int
  /// Where the next page starts; `nil` before the first page and after the last.
  public internal(set) var cursor: PageCursor?
  /// For a fetch over a list of input ids (hydrate): how many of them are done, in input order.
  public internal(set) var inputDone: Int
  /// Where the fetch stands.
  public internal(set) var status: Status
}

extension ArchiveFetch {
  /// `cursor` as its two columns.
  var cursorColumns: (SQLiteValue, SQLiteValue) {
    switch cursor {
    case .token(let token): return (.text(token), .text("token"))
    case .maxID(let id): return (.text(id), .text("max_id"))
    case nil: return (.null, .null)
    }
  }

  /// The cursor of its two columns.
  static func cursor(_ value: SQLiteValue, kind: SQLiteValue) -> PageCursor? {
    guard let text = value.text else { return nil }
    return kind.text == "max_id" ? .maxID(text) : .token(text)
  }
}
