/// The archive's tables, one migration per schema version.
///
/// `PRAGMA user_version` holds the version a database is at; opening one runs the migrations
/// after it, each in one transaction, so that an archive made by an older version is brought
/// up to date and one made by a newer version is refused (``ArchiveError/newerSchema(path:found:supported:)``).
/// Ids are X's, stored as integers (so that they sort as numbers), and are the primary keys: a
/// re-run or a resume updates rows, never duplicates them. Times are ISO 8601 in UTC
/// (`2026-11-24T10:00:00Z`), which SQLite's date functions read.
enum ArchiveSchema {
  /// The newest version.
  static var version: Int { migrations.count }

  /// `migrations[n]` brings a database from version `n` to `n + 1`.
  static let migrations: [String] = [version1, version2, version3]

  static let version1 = """
    CREATE TABLE fetches (
      id INTEGER PRIMARY KEY,
      command TEXT NOT NULL,
      started_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('running', 'stopped', 'complete')),
      pages INTEGER NOT NULL DEFAULT 0,
      records INTEGER NOT NULL DEFAULT 0,
      cursor TEXT,
      cursor_kind TEXT,
      input_done INTEGER
    );
    CREATE INDEX fetches_by_command ON fetches(command, id);
    CREATE TABLE users (
      id INTEGER PRIMARY KEY,
      username TEXT,
      name TEXT,
      created_at TEXT,
      description TEXT,
      location TEXT,
      protected INTEGER,
      verified INTEGER,
      followers_count INTEGER,
      following_count INTEGER,
      tweet_count INTEGER,
      listed_count INTEGER,
      first_seen TEXT NOT NULL,
      last_seen TEXT NOT NULL
    );
    CREATE INDEX users_by_username ON users(username COLLATE NOCASE);
    CREATE TABLE tweets (
      id INTEGER PRIMARY KEY,
      author_id INTEGER,
      created_at TEXT,
      text TEXT NOT NULL,
      lang TEXT,
      conversation_id INTEGER,
      in_reply_to_user_id INTEGER,
      retweet_count INTEGER,
      reply_count INTEGER,
      like_count INTEGER,
      quote_count INTEGER,
      possibly_sensitive INTEGER,
      first_seen TEXT NOT NULL,
      last_seen TEXT NOT NULL,
      fetch_id INTEGER REFERENCES fetches(id)
    );
    CREATE INDEX tweets_by_author ON tweets(author_id, created_at);
    CREATE INDEX tweets_by_time ON tweets(created_at);
    CREATE INDEX tweets_by_conversation ON tweets(conversation_id);
    CREATE TABLE tweet_references (
      tweet_id INTEGER NOT NULL,
      kind TEXT NOT NULL,
      referenced_id INTEGER NOT NULL,
      PRIMARY KEY (tweet_id, kind, referenced_id)
    ) WITHOUT ROWID;
    CREATE INDEX references_by_target ON tweet_references(referenced_id);
    CREATE TABLE media (
      media_key TEXT PRIMARY KEY,
      type TEXT NOT NULL,
      url TEXT,
      alt_text TEXT
    );
    CREATE TABLE tweet_media (
      tweet_id INTEGER NOT NULL,
      media_key TEXT NOT NULL,
      position INTEGER NOT NULL,
      PRIMARY KEY (tweet_id, media_key)
    ) WITHOUT ROWID;
    CREATE TABLE tweet_hashtags (
      tweet_id INTEGER NOT NULL,
      hashtag TEXT NOT NULL,
      PRIMARY KEY (tweet_id, hashtag)
    ) WITHOUT ROWID;
    CREATE TABLE raw_tweets (
      tweet_id INTEGER PRIMARY KEY,
      json TEXT NOT NULL
    );
    CREATE TABLE missing_tweets (
      id INTEGER PRIMARY KEY,
      reason TEXT NOT NULL,
      detail TEXT,
      fetch_id INTEGER REFERENCES fetches(id),
      seen_at TEXT NOT NULL
    );
    CREATE TABLE stream_matches (
      tweet_id INTEGER NOT NULL,
      rule_id TEXT NOT NULL,
      tag TEXT,
      PRIMARY KEY (tweet_id, rule_id)
    ) WITHOUT ROWID;
    """

  /// X's newer post fields: the bookmark and impression counts of `public_metrics`, and
  /// `paid_partnership`. Rows stored before stay, with these columns NULL until fetched again.
  static let version2 = """
    ALTER TABLE tweets ADD COLUMN bookmark_count INTEGER;
    ALTER TABLE tweets ADD COLUMN impression_count INTEGER;
    ALTER TABLE tweets ADD COLUMN paid_partnership INTEGER;
    """

  /// Batch compliance (`tweets compliance`): the jobs this archive sent to X, so that a killed
  /// run resumes its job instead of uploading again, and what each job's results removed or
  /// changed, so that the archive shows what left it and why. An event's id outlives the post or
  /// account it names.
  static let version3 = """
    CREATE TABLE compliance_jobs (
      id TEXT PRIMARY KEY,
      type TEXT NOT NULL CHECK (type IN ('tweets', 'users')),
      state TEXT NOT NULL CHECK (state IN ('created', 'uploaded', 'applied', 'abandoned')),
      ids INTEGER NOT NULL,
      created_at TEXT NOT NULL,
      uploaded_at TEXT,
      applied_at TEXT,
      results INTEGER
    );
    CREATE TABLE compliance_events (
      kind TEXT NOT NULL CHECK (kind IN ('tweet', 'user')),
      id INTEGER NOT NULL,
      event TEXT NOT NULL,
      action TEXT NOT NULL CHECK (action IN ('delete', 'rehydrate', 'scrub_geo')),
      job_id TEXT NOT NULL REFERENCES compliance_jobs(id),
      event_at TEXT,
      applied_at TEXT NOT NULL,
      via_user INTEGER,
      PRIMARY KEY (kind, id, job_id)
    ) WITHOUT ROWID;
    """

  /// Opens the schema of `database`: sets WAL mode and brings its tables to ``version``.
  static func prepare(_ database: SQLiteDatabase) throws(ArchiveError) {
    // WAL: a reader never blocks the writer, and a transaction is committed by one append to the
    // log, so a `kill -9` loses at most the transaction in flight. NORMAL synchronisation is
    // safe against a crashed or killed process (the log is in the OS's cache); only a power
    // loss could lose the last commits, never consistency.
    _ = try database.rows("PRAGMA journal_mode = WAL")
    try database.execute("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON")
    let found = Int(try database.rows("PRAGMA user_version").first?.first?.integer ?? 0)
    guard found <= version else { throw .newerSchema(path: database.path, found: found, supported: version) }
    if found == 0 {
      let tables = try database.rows("SELECT count(*) FROM sqlite_master WHERE type = 'table'").first?.first?.integer ?? 0
      if tables > 0 { throw .notAnArchive(path: database.path) }
    }
    for next in found..<version {
      try database.transaction { () throws(ArchiveError) in
        try database.execute(migrations[next])
        try database.execute("PRAGMA user_version = \(next + 1)")
      }
    }
  }
}
