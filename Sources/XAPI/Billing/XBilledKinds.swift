/// A kind of resource X charges for each time it returns one (a read), once per UTC day.
///
/// The names are those of X's price list (`x-api/getting-started/pricing.mdx`); a price file
/// uses them as keys.
///
/// ```swift
/// XPricing.published.reads[.post]  // $0.005
/// ```
public enum XResourceKind: String, Sendable, Hashable, Codable, CaseIterable, CodingKeyRepresentable {
  /// A post (`data` of a lookup, a timeline, a search, a list's posts, the stream).
  case post
  /// A user (a lookup by id or username, `users/me`).
  case user
  /// A user returned as a follower or as followed.
  case follow
  /// A direct-message event.
  case dmEvent = "dm_event"
  /// A list.
  case list
  /// A Space.
  case space
  /// A community.
  case community
  /// A community note.
  case note
  /// A like.
  case like
  /// A mute.
  case mute
  /// A block.
  case block
}

/// A kind of request X charges once per request, whatever it returns: writes, and the counts.
///
/// ```swift
/// XPricing.published.requests[.postCreateWithURL]  // $0.20
/// ```
public enum XRequestKind: String, Sendable, Hashable, Codable, CaseIterable, CodingKeyRepresentable {
  /// Creating a post.
  case postCreate = "post_create"
  /// Creating a post whose text holds a URL.
  case postCreateWithURL = "post_create_with_url"
  /// A reply that summons an account that has not interacted with the author.
  case summonedReply = "summoned_reply"
  /// A direct message or an interaction with a user (like, repost, follow, mute, block).
  case interaction
  /// Undoing an interaction (unlike, unfollow ...), and deleting a post.
  case interactionDelete = "interaction_delete"
  /// Adding or removing a bookmark.
  case bookmark
  /// Setting media metadata (alt text).
  case mediaMetadata = "media_metadata"
  /// Counting recent posts (`GET /2/tweets/counts/recent`).
  case countsRecent = "counts_recent"
  /// Counting posts in the full archive (`GET /2/tweets/counts/all`).
  case countsAll = "counts_all"
  /// Trends.
  case trends
}
