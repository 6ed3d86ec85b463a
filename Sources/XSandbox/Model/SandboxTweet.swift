/// A tweet of the sandbox.
struct SandboxTweet: Sendable {
  let id: UInt64
  var text: String
  let authorID: String
  let createdAt: Int64
  var retweets = 0
  var replies = 0
  var likes = 0
  var quotes = 0
  /// The author's n-th generated tweet, 1 the newest; 0 for one posted through the sandbox.
  var number = 0
  /// What it replies to, quotes or retweets.
  var references: [SandboxReference] = []
  /// The author of the tweet it replies to.
  var inReplyToUserID: String? = nil
  /// The tweet that started its conversation; `nil` when it did.
  var conversationRoot: UInt64? = nil
  /// How many code points at the start of `text` are the `@user ` names X puts in front of a reply.
  var replyPrefix = 0
  /// Its language when it is not the text's own (a retweet has the original's); see ``lang``.
  var language: String? = nil
  var media: [SandboxMedia] = []
  /// The t.co link to the media, at the end of the text.
  var mediaLink: String? = nil
  var possiblySensitive = false
  /// The ids of its versions, oldest first, when it was edited; empty otherwise.
  var editHistory: [UInt64] = []

  /// `public_metrics.bookmark_count`: a fifth of its likes (generated data, deterministic).
  var bookmarks: Int { likes / 5 }
  /// `public_metrics.impression_count`: a few dozen views per interaction (generated data,
  /// deterministic).
  var impressions: Int { 40 * (likes + retweets + replies + quotes) + 7 * number }

  /// `conversation_id`: the id of the tweet that started the conversation.
  var conversationID: UInt64 { conversationRoot ?? id }
  /// `edit_history_tweet_ids`: its versions, oldest first, itself only when never edited.
  var versions: [UInt64] { editHistory.isEmpty ? [id] : editHistory }
  /// `lang`: BCP 47, as X's language detection would say.
  var lang: String { language ?? SandboxText.language(of: text) }

  /// The id of the tweet it refers to as `kind`, if any.
  func reference(_ kind: SandboxReference.Kind) -> UInt64? {
    references.first { $0.kind == kind }?.id
  }
}

/// A tweet's reference to another (`referenced_tweets`).
struct SandboxReference: Sendable, Equatable {
  enum Kind: String, Sendable {
    case repliedTo = "replied_to"
    case quoted
    case retweeted
  }

  let kind: Kind
  let id: UInt64
}
