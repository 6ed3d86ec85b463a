extension TweetArchive {
  /// A post as the archive keeps it: X's JSON of the post (`raw_tweets`) with its author's row
  /// (`users`), for `tweets export`, which writes tables from what X sent.
  package struct KeptPost: Sendable {
    /// The post's id.
    package var id: String
    /// X's JSON object of the post, as stored (compact, keys sorted).
    package var json: String
    /// Its author's row, when the archive has it.
    package var author: KeptUser?
  }

  /// A user's row: what the archive keeps of an account (`users`); `nil` where X did not send it.
  package struct KeptUser: Sendable {
    /// The account's id.
    package var id: String
    /// The handle, without `@`.
    package var username: String?
    /// The display name.
    package var name: String?
    /// When the account was made (ISO 8601, as stored).
    package var createdAt: String?
    /// The profile's description.
    package var description: String?
    /// The profile's location.
    package var location: String?
    /// Whether the account is protected.
    package var protected: Bool?
    /// Whether X marked the account verified.
    package var verified: Bool?
    /// `public_metrics`: followers, following, posts, lists (X's order in the archive's columns).
    package var followers: Int64?, following: Int64?, tweets: Int64?, listed: Int64?
  }

  /// A photo, video or GIF as the archive keeps it (`media`).
  package struct KeptMedia: Sendable {
    /// X's `media_key`.
    package var key: String
    /// `photo`, `video` or `animated_gif`.
    package var type: String
    /// The image's URL.
    package var url: String?
    /// The author's description of it.
    package var altText: String?
  }

  private static let postColumns = """
    SELECT t.id, r.json, u.id, u.username, u.name, u.created_at, u.description, u.location, u.protected, u.verified,
      u.followers_count, u.following_count, u.tweet_count, u.listed_count
    FROM tweets t JOIN raw_tweets r ON r.tweet_id = t.id LEFT JOIN users u ON u.id = t.author_id
    """

  /// Each post that has X's JSON, newest id first (the order of `dehydrate` and of a search's
  /// answers), one at a time: memory holds one post, whatever the archive's size.
  ///
  /// ```swift
  /// try archive.forEachPost { post in print(post.id, post.author?.username ?? "?") }
  /// ```
  package func forEachPost(_ body: (KeptPost) throws(ArchiveError) -> Void) throws(ArchiveError) {
    try database.statement(Self.postColumns + " ORDER BY t.id DESC").forEachRow([]) { row throws(ArchiveError) in
      if let post = Self.keptPost(row) { try body(post) }
    }
  }

  /// The post `id` as kept, `nil` when the archive has no JSON of it (a referenced post that
  /// was never fetched itself).
  package func post(id: String) throws(ArchiveError) -> KeptPost? {
    try database.rows(Self.postColumns + " WHERE t.id = ?", [.id(id)]).first.flatMap(Self.keptPost)
  }

  /// The media kept under `key`, `nil` when there is none.
  package func media(key: String) throws(ArchiveError) -> KeptMedia? {
    guard let row = try database.rows("SELECT media_key, type, url, alt_text FROM media WHERE media_key = ?", [.text(key)]).first,
      let key = row[0].text, let type = row[1].text
    else { return nil }
    return KeptMedia(key: key, type: type, url: row[2].text, altText: row[3].text)
  }

  private static func keptPost(_ row: [SQLiteValue]) -> KeptPost? {
    guard let id = idText(of: row[0]), let json = row[1].text else { return nil }
    var author: KeptUser?
    if let authorID = idText(of: row[2]) {
      author = KeptUser(
        id: authorID, username: row[3].text, name: row[4].text, createdAt: row[5].text, description: row[6].text, location: row[7].text,
        protected: row[8].integer.map { $0 != 0 }, verified: row[9].integer.map { $0 != 0 }, followers: row[10].integer,
        following: row[11].integer, tweets: row[12].integer, listed: row[13].integer)
    }
    return KeptPost(id: id, json: json, author: author)
  }
}
