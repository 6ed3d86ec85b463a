import DateFormats
import Foundation

/// What a v2 timeline or search returns, and from where.
///
/// ```swift
/// var options = TimelineOptions()
/// options.sinceID = "1800000000000000000"
/// options.exclude = ["retweets", "replies"]
/// ```
public struct TimelineOptions: Sendable {
  /// Tweets per page; the API's range applies (5–100 for a user's tweets, 1–100 for the home
  /// timeline, 10–100 for search). `nil`: as many as allowed, or the limit if smaller.
  public var maxResults: Int?
  /// Only tweets newer than this id.
  public var sinceID: String?
  /// Only tweets older than this id.
  public var untilID: String?
  /// `tweet.fields`; the default gives what ``Tweet`` holds.
  public var tweetFields: [String]
  /// `expansions`; `author_id` resolves authors.
  public var expansions: [String]
  /// `user.fields` for expanded users.
  public var userFields: [String]
  /// `media.fields` for expanded media (`attachments.media_keys`).
  public var mediaFields: [String]
  /// `exclude` (`retweets`, `replies`) for user timelines.
  public var exclude: [String]
  /// Only tweets created at or after this instant (`start_time`); search goes back 7 days at most.
  public var startTime: Date?
  /// Only tweets created before this instant (`end_time`).
  public var endTime: Date?

  /// The `tweet.fields` that fill every property of ``Tweet``: the date, counts and author, the
  /// whole text of a long post (`note_tweet`), language, conversation, replies, references,
  /// entities, media keys, sensitivity, edit history and paid partnership.
  public static let defaultTweetFields = [
    "created_at", "public_metrics", "author_id", "note_tweet", "lang", "conversation_id", "in_reply_to_user_id", "referenced_tweets",
    "entities", "attachments", "possibly_sensitive", "edit_history_tweet_ids", "paid_partnership",
  ]
  /// The `expansions` that fill ``Author``, ``ReferencedTweet/tweet`` (with its author) and ``Media``.
  public static let defaultExpansions = ["author_id", "referenced_tweets.id", "referenced_tweets.id.author_id", "attachments.media_keys"]
  /// The `media.fields` that fill ``Media`` (the type always comes), `variants` included: a
  /// video's or GIF's files, which `tweets media download` fetches.
  public static let defaultMediaFields = ["type", "url", "preview_image_url", "alt_text", "variants"]

  /// Options for a v2 timeline, search or tweet lookup (lookups use only the fields and expansions). The defaults fill
  /// every property of ``Tweet``.
  ///
  /// - Parameters:
  ///   - maxResults: tweets per page (`max_results`), kept within the endpoint's range; `nil` for the limit or the maximum.
  ///   - sinceID: only tweets newer than this id (`since_id`).
  ///   - untilID: only tweets older than this id (`until_id`).
  ///   - tweetFields: `tweet.fields`; `created_at`, `public_metrics` and `author_id` fill ``Tweet/createdAt``,
  ///     ``Tweet/metrics`` and ``Tweet/author``, and `note_tweet` the whole ``Tweet/text`` of a long post (without it,
  ///     X cuts a post longer than 280 characters short).
  ///   - expansions: `expansions`; `author_id` adds each author's ``Author/username`` and ``Author/name``.
  ///   - userFields: `user.fields` for expanded users; ``Author`` needs none.
  ///   - mediaFields: `media.fields` for expanded media, sent when `expansions` has `attachments.media_keys`.
  ///   - exclude: `exclude` (`retweets`, `replies`) for user timelines; ``XClient/V2/searchRecent(query:options:limit:)``
  ///     drops it.
  ///   - startTime: only tweets created at or after this instant (`start_time`, sent as RFC 3339 in UTC).
  ///   - endTime: only tweets created before this instant (`end_time`).
  public init(
    maxResults: Int? = nil, sinceID: String? = nil, untilID: String? = nil,
    tweetFields: [String] = TimelineOptions.defaultTweetFields, expansions: [String] = TimelineOptions.defaultExpansions,
    userFields: [String] = [], mediaFields: [String] = TimelineOptions.defaultMediaFields, exclude: [String] = [], startTime: Date? = nil,
    endTime: Date? = nil
  ) {
    self.maxResults = maxResults
    self.sinceID = sinceID
    self.untilID = untilID
    self.tweetFields = tweetFields
    self.expansions = expansions
    self.userFields = userFields
    self.mediaFields = mediaFields
    self.exclude = exclude
    self.startTime = startTime
    self.endTime = endTime
  }

  /// The fields, expansions and bounds as query items.
  func query(pageSize: Int) -> [(String, String?)] {
    var items: [(String, String?)] = [("max_results", String(pageSize))]
    if let sinceID { items.append(("since_id", sinceID)) }
    if let untilID { items.append(("until_id", untilID)) }
    if let startTime { items.append(("start_time", RFC3339.string(from: startTime))) }
    if let endTime { items.append(("end_time", RFC3339.string(from: endTime))) }
    items += fieldItems
    if !exclude.isEmpty { items.append(("exclude", exclude.joined(separator: ","))) }
    return items
  }

  /// The fields and expansions as query items (what a lookup sends too); `media.fields` only
  /// with the media expansion.
  var fieldItems: [(String, String?)] {
    var items: [(String, String?)] = []
    if !tweetFields.isEmpty { items.append(("tweet.fields", tweetFields.joined(separator: ","))) }
    if !expansions.isEmpty { items.append(("expansions", expansions.joined(separator: ","))) }
    if !userFields.isEmpty { items.append(("user.fields", userFields.joined(separator: ","))) }
    if !mediaFields.isEmpty && expansions.contains("attachments.media_keys") {
      items.append(("media.fields", mediaFields.joined(separator: ",")))
    }
    return items
  }

  /// The same fields and expansions without the id and time window, for the endpoints that
  /// take none (liked tweets, quote tweets, a list's tweets): X refuses the parameters there.
  var withoutWindow: TimelineOptions {
    var options = self
    (options.sinceID, options.untilID, options.startTime, options.endTime) = (nil, nil, nil, nil)
    return options
  }

  /// The page size to ask for: the caller's, else the limit, else the maximum; always within
  /// the endpoint's range (a smaller limit is applied by trimming).
  func pageSize(limit: Int?, range: ClosedRange<Int>) -> Int {
    let wanted = maxResults ?? limit ?? range.upperBound
    return min(max(wanted, range.lowerBound), range.upperBound)
  }
}

/// What a v1.1 timeline or search returns.
public struct V1TimelineOptions: Sendable {
  /// Tweets per page (`count`; at most 200, or 100 for search). `nil`: the limit or the maximum.
  public var count: Int?
  /// Only tweets newer than this id (`since_id`, exclusive).
  public var sinceID: String?
  /// Only tweets up to this id, inclusive.
  public var maxID: String?
  /// `tweet_mode=extended`, for the full text of long tweets.
  public var extended: Bool
  /// Sends `exclude_replies=true` to a timeline. X drops the replies after taking `count` tweets, so pages can come back
  /// short, and a page that held only replies comes back empty, which ends the iteration.
  public var excludeReplies: Bool
  /// `false` sends `include_rts=false`, leaving retweets out of a timeline; like ``V1TimelineOptions/excludeReplies``, X
  /// filters after taking `count` tweets, so pages can come back short.
  public var includeRetweets: Bool

  /// Options for a v1.1 timeline or search.
  ///
  /// - Parameters:
  ///   - count: tweets per page (`count`), kept within 1...200 (1...100 for search); `nil` for the limit or the maximum.
  ///   - sinceID: only tweets newer than this id (`since_id`).
  ///   - maxID: only tweets up to this id, inclusive (`max_id`): where the first page starts.
  ///   - extended: `tweet_mode=extended`, so that ``Tweet/text`` is the full text of long tweets.
  ///   - excludeReplies: leaves replies out of a timeline (`exclude_replies=true`).
  ///   - includeRetweets: `false` leaves retweets out of a timeline (`include_rts=false`).
  public init(
    count: Int? = nil, sinceID: String? = nil, maxID: String? = nil, extended: Bool = true, excludeReplies: Bool = false, includeRetweets: Bool = true
  ) {
    self.count = count
    self.sinceID = sinceID
    self.maxID = maxID
    self.extended = extended
    self.excludeReplies = excludeReplies
    self.includeRetweets = includeRetweets
  }
}
