import Foundation

/// X's two spellings of a post's fields, read as one.
///
/// X's OpenAPI specification 2.167 (2026-08) renamed "tweet" to "post" in its field names
/// (`referenced_posts`, `edit_history_post_ids`, `note_post`, `includes.posts`, `repost_count`,
/// `total_post_count` ...), while every earlier version, X's pages and recorded real answers use
/// the tweet names. The decoders read both: ``decoder()`` maps each post name to its tweet name
/// before the models see it, so one set of `CodingKeys` serves either answer. Requests keep
/// sending the tweet names X's pages document.
///
/// The table holds the pairs the specification renamed; `tweet_count` and `tweet_id` are not
/// among them, since the specification still declares them beside their post names.
///
/// ```swift
/// let data = Data(#"{"id":"1","text":"a","edit_history_post_ids":["1"]}"#.utf8)
/// try PostSpelling.decoder().decode(V2Tweet.self, from: data).editHistoryTweetIDs  // ["1"]
/// ```
package enum PostSpelling {
  /// Each post name and the tweet name the models read.
  package static let tweetNames: [String: String] = [
    "edit_history_post_ids": "edit_history_tweet_ids",
    "note_post": "note_tweet",
    "referenced_posts": "referenced_tweets",
    "repost_count": "retweet_count",
    "total_post_count": "total_tweet_count",
    "pinned_post_id": "pinned_tweet_id",
    "most_recent_post_id": "most_recent_tweet_id",
    "previous_post_id": "previous_tweet_id",
    "cluster_posts_results": "cluster_tweets_results",
  ]

  /// Each tweet name and the post name X's specification 2.167 gives it: ``tweetNames`` turned
  /// round, for a writer of the new spelling (the sandbox's `--spelling post`).
  package static let postNames = Dictionary(uniqueKeysWithValues: tweetNames.map { ($0.value, $0.key) })

  /// The key of `includes` that holds the referenced posts: `posts` in the new spelling,
  /// `tweets` in the old.
  package static let includedPostsKey = (post: "posts", tweet: "tweets")

  /// A JSON decoder that reads either spelling: the post names above anywhere, and `posts`
  /// within `includes`.
  package static func decoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .custom { path in
      let key = path[path.count - 1]
      if let name = tweetNames[key.stringValue] { return Name(name) }
      if key.stringValue == includedPostsKey.post, path.count >= 2, path[path.count - 2].stringValue == "includes" {
        return Name(includedPostsKey.tweet)
      }
      return key
    }
    return decoder
  }

  private struct Name: CodingKey {
    let stringValue: String
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
  }
}
