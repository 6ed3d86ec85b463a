import XAPI

// How tweets and users become rows. Every insert is an upsert on X's id: a row seen again gets
// the newest counts and text, and keeps what the newer answer did not carry (a timeline's
// author has no follower count; a later lookup's does).
extension TweetArchive {
  func insert(tweets: [Tweet], raw: [String: String], fetch: Int64, now: String) throws(ArchiveError) {
    for tweet in tweets {
      try upsert(tweet, fetch: fetch, now: now)
      if let json = raw[tweet.id] {
        try database.run(
          "INSERT INTO raw_tweets (tweet_id, json) VALUES (?, ?) ON CONFLICT(tweet_id) DO UPDATE SET json = excluded.json",
          [.id(tweet.id), .text(json)])
      }
      try database.run("DELETE FROM missing_tweets WHERE id = ?", [.id(tweet.id)])
    }
  }

  func upsert(_ tweet: Tweet, fetch: Int64, now: String) throws(ArchiveError) {
    try database.run(
      """
      INSERT INTO tweets (id, author_id, created_at, text, lang, conversation_id, in_reply_to_user_id, retweet_count, reply_count,
        like_count, quote_count, possibly_sensitive, first_seen, last_seen, fetch_id, bookmark_count, impression_count, paid_partnership)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT(id) DO UPDATE SET
        author_id = coalesce(excluded.author_id, author_id), created_at = coalesce(excluded.created_at, created_at),
        text = excluded.text, lang = coalesce(excluded.lang, lang), conversation_id = coalesce(excluded.conversation_id, conversation_id),
        in_reply_to_user_id = coalesce(excluded.in_reply_to_user_id, in_reply_to_user_id),
        retweet_count = coalesce(excluded.retweet_count, retweet_count), reply_count = coalesce(excluded.reply_count, reply_count),
        like_count = coalesce(excluded.like_count, like_count), quote_count = coalesce(excluded.quote_count, quote_count),
        possibly_sensitive = coalesce(excluded.possibly_sensitive, possibly_sensitive), last_seen = excluded.last_seen,
        bookmark_count = coalesce(excluded.bookmark_count, bookmark_count),
        impression_count = coalesce(excluded.impression_count, impression_count),
        paid_partnership = coalesce(excluded.paid_partnership, paid_partnership)
      """,
      [
        .id(tweet.id), .id(tweet.author?.id), .optional(tweet.createdAt.map { Self.timestamp($0) }), .text(tweet.text), .optional(tweet.lang),
        .id(tweet.conversationID), .id(tweet.inReplyToUserID), .optional(tweet.metrics?.retweets), .optional(tweet.metrics?.replies),
        .optional(tweet.metrics?.likes), .optional(tweet.metrics?.quotes), .optional(tweet.possiblySensitive), .text(now), .text(now),
        .integer(fetch), .optional(tweet.metrics?.bookmarks), .optional(tweet.metrics?.impressions), .optional(tweet.paidPartnership),
      ])
    if let author = tweet.author {
      try database.run(
        """
        INSERT INTO users (id, username, name, first_seen, last_seen) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT(id) DO UPDATE SET username = coalesce(excluded.username, username), name = coalesce(excluded.name, name),
          last_seen = excluded.last_seen
        """, [.id(author.id), .optional(author.username), .optional(author.name), .text(now), .text(now)])
    }
    for reference in tweet.referencedTweets ?? [] {
      try database.run(
        "INSERT OR IGNORE INTO tweet_references (tweet_id, kind, referenced_id) VALUES (?, ?, ?)",
        [.id(tweet.id), .text(reference.kind.rawValue), .id(reference.id)])
    }
    for (position, media) in (tweet.media ?? []).enumerated() {
      try database.run(
        """
        INSERT INTO media (media_key, type, url, alt_text, variants) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT(media_key) DO UPDATE SET type = excluded.type, url = coalesce(excluded.url, url), alt_text = coalesce(excluded.alt_text, alt_text),
          variants = coalesce(excluded.variants, variants)
        """,
        [
          .text(media.key), .text(media.type), .optional(media.url), .optional(media.altText),
          .optional(media.variants.map(TweetArchive.variantsJSON)),
        ])
      try database.run(
        "INSERT OR REPLACE INTO tweet_media (tweet_id, media_key, position) VALUES (?, ?, ?)",
        [.id(tweet.id), .text(media.key), .integer(Int64(position))])
    }
    for hashtag in Set(tweet.entities?.hashtags ?? []) {
      try database.run("INSERT OR IGNORE INTO tweet_hashtags (tweet_id, hashtag) VALUES (?, ?)", [.id(tweet.id), .text(hashtag)])
    }
  }

  func upsert(_ user: XUser, now: String) throws(ArchiveError) {
    try database.run(
      """
      INSERT INTO users (id, username, name, created_at, description, location, protected, verified, followers_count, following_count,
        tweet_count, listed_count, first_seen, last_seen)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT(id) DO UPDATE SET
        username = excluded.username, name = excluded.name, created_at = coalesce(excluded.created_at, created_at),
        description = coalesce(excluded.description, description), location = coalesce(excluded.location, location),
        protected = coalesce(excluded.protected, protected), verified = coalesce(excluded.verified, verified),
        followers_count = coalesce(excluded.followers_count, followers_count),
        following_count = coalesce(excluded.following_count, following_count), tweet_count = coalesce(excluded.tweet_count, tweet_count),
        listed_count = coalesce(excluded.listed_count, listed_count), last_seen = excluded.last_seen
      """,
      [
        .id(user.id), .text(user.username), .text(user.name), .optional(user.createdAt.map { Self.timestamp($0) }), .optional(user.description),
        .optional(user.location), .optional(user.protected), .optional(user.verified), .optional(user.metrics?.followers),
        .optional(user.metrics?.following), .optional(user.metrics?.tweets), .optional(user.metrics?.listed), .text(now), .text(now),
      ])
  }
}
