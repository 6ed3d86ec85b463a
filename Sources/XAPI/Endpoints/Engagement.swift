import NetworkClient

/// Who engaged with a post: the accounts that liked it, that reposted it, its reposts, and
/// the reposts of the authenticated user's own posts. Each account returned is a user read
/// ($0.010), each post a post read ($0.005); liking users need the scope `like.read` under
/// OAuth 2.0, the reposts of your posts `timeline.read`.
///
/// ```swift
/// for try await page in client.v2.likingUsers(tweetID: "1460323737035677698", limit: 100) {
///   page.users.forEach { print($0.username) }
/// }
/// ```
extension XClient.V2 {
  /// `GET /2/tweets/:id/liking_users`: the accounts that liked a post, paged with
  /// `pagination_token` (1 to 100 a page).
  public func likingUsers(tweetID: String, userFields: [String] = XClient.V2.defaultUserFields, limit: Int? = nil) -> UserPages {
    userPages(.getPostsLikingUsers, [tweetID], userFields: userFields, limit: limit)
  }

  /// `GET /2/tweets/:id/retweeted_by`: the accounts that reposted a post, paged like
  /// ``likingUsers(tweetID:userFields:limit:)``.
  public func repostedBy(tweetID: String, userFields: [String] = XClient.V2.defaultUserFields, limit: Int? = nil) -> UserPages {
    userPages(.getPostsRepostedBy, [tweetID], userFields: userFields, limit: limit)
  }

  /// `GET /2/tweets/:id/retweets`: the reposts of a post, as posts (each `referenced_tweets`
  /// names the original), paged with `pagination_token` (1 to 100 a page).
  public func reposts(tweetID: String, options: TimelineOptions = .init(), limit: Int? = nil) -> TweetPages {
    pages(.getPostsReposts, [tweetID], options: options.withoutWindow, cursorName: "pagination_token", extra: [], limit: limit)
  }

  /// `GET /2/users/reposts_of_me`: the reposts of the authenticated user's posts, most recent
  /// first (OAuth 2.0 with `timeline.read`, or OAuth 1.0a), paged like
  /// ``reposts(tweetID:options:limit:)``.
  public func repostsOfMe(options: TimelineOptions = .init(), limit: Int? = nil) -> TweetPages {
    pages(.getUsersRepostsOfMe, [], options: options.withoutWindow, cursorName: "pagination_token", extra: [], limit: limit)
  }
}
