import DateFormats
import Foundation
import NetworkClient

extension XClient {
  /// The API v2 endpoints that work with OAuth 1.0a user context (and, for public data, with
  /// a bearer token).
  public struct V2: Sendable {
    let client: XClient

    /// `GET /2/users/me`: the authenticated user.
    public func me() async throws(XError) -> XUser {
      try await user(at: XEndpoint.getUsersMe.filled(), query: [])
    }

    /// `GET /2/users/by/username/:username`.
    public func user(username: String) async throws(XError) -> XUser {
      try await user(at: XEndpoint.getUsersByUsername.filled(username), query: [])
    }

    /// `GET /2/users/:id/tweets`, newest first, paged with `pagination_token`.
    public func userTweets(userID: String, options: TimelineOptions = .init(), limit: Int? = nil) -> TweetPages {
      pages(.getUsersPosts, [userID], options: options, cursorName: "pagination_token", extra: [], limit: limit)
    }

    /// `GET /2/users/:id/timelines/reverse_chronological`: the home timeline of the
    /// authenticated user (`userID` must be theirs).
    public func homeTimeline(userID: String, options: TimelineOptions = .init(), limit: Int? = nil) -> TweetPages {
      pages(
        .getUsersTimeline, [userID], options: options, cursorName: "pagination_token", extra: [],
        limit: limit)
    }

    /// `GET /2/tweets/search/recent` (the last seven days), paged with `next_token`.
    public func searchRecent(query: String, options: TimelineOptions = .init(), limit: Int? = nil) -> TweetPages {
      var options = options
      options.exclude = []
      return pages(.searchPostsRecent, [], options: options, cursorName: "next_token", extra: [("query", query)], limit: limit)
    }

    /// The tweets that mention the user (`GET /2/users/:id/mentions`), newest first.
    public func mentions(userID: String, options: TimelineOptions = .init(), limit: Int? = nil) -> TweetPages {
      pages(.getUsersMentions, [userID], options: options, cursorName: "pagination_token", extra: [], limit: limit)
    }

    /// The tweets the user liked (`GET /2/users/:id/liked_tweets`), most recent like first.
    public func likedTweets(userID: String, options: TimelineOptions = .init(), limit: Int? = nil) -> TweetPages {
      return pages(
        .getUsersLikedPosts, [userID], options: options.withoutWindow, cursorName: "pagination_token", extra: [],
        limit: limit)
    }

    /// The tweets that quote a tweet (`GET /2/tweets/:id/quote_tweets`).
    public func quoteTweets(tweetID: String, options: TimelineOptions = .init(), limit: Int? = nil) -> TweetPages {
      return pages(
        .getPostsQuotedPosts, [tweetID], options: options.withoutWindow, cursorName: "pagination_token", extra: [],
        limit: limit)
    }

    /// A list's tweets (`GET /2/lists/:id/tweets`).
    public func listTweets(listID: String, options: TimelineOptions = .init(), limit: Int? = nil) -> TweetPages {
      return pages(
        .getListsPosts, [listID], options: options.withoutWindow, cursorName: "pagination_token", extra: [],
        limit: limit)
    }

    /// The tweets of a conversation: recent search for `conversation_id:ID` (the last 7 days;
    /// older ones need ``searchAll(query:options:limit:)`` with the same query).
    public func conversation(id: String, options: TimelineOptions = .init(), limit: Int? = nil) -> TweetPages {
      searchRecent(query: "conversation_id:\(id)", options: options, limit: limit)
    }

    /// Full-archive search (`GET /2/tweets/search/all`), back to 2006. X serves it app-only (a
    /// `.bearer` client), and only to apps with Pro or Enterprise access; others get
    /// ``XError/clientNotEnrolled(message:)`` or ``XError/accessLevel(message:)``.
    public func searchAll(query: String, options: TimelineOptions = .init(), limit: Int? = nil) -> TweetPages {
      var options = options
      options.exclude = []
      return pages(.searchPostsAll, [], options: options, cursorName: "next_token", extra: [("query", query)], limit: limit)
    }

    /// The accounts that follow the user (`GET /2/users/:id/followers`).
    public func followers(userID: String, userFields: [String] = XClient.V2.defaultUserFields, limit: Int? = nil) -> UserPages {
      userPages(.getUsersFollowers, [userID], userFields: userFields, limit: limit)
    }

    /// The accounts the user follows (`GET /2/users/:id/following`).
    public func following(userID: String, userFields: [String] = XClient.V2.defaultUserFields, limit: Int? = nil) -> UserPages {
      userPages(.getUsersFollowing, [userID], userFields: userFields, limit: limit)
    }

    /// Accounts by id (`GET /2/users?ids=`, at most 100), in X's order; the ids X does not
    /// return (suspended, deleted, unknown) are in ``UserLookup/errors``.
    public func users(ids: [String], userFields: [String] = XClient.V2.defaultUserFields) async throws(XError) -> UserLookup {
      try await userLookup(XEndpoint.getUsersByIds.filled(), [("ids", ids.joined(separator: ","))], userFields: userFields)
    }

    /// Accounts by username (`GET /2/users/by?usernames=`, at most 100).
    public func users(usernames: [String], userFields: [String] = XClient.V2.defaultUserFields) async throws(XError) -> UserLookup {
      try await userLookup(XEndpoint.getUsersByUsernames.filled(), [("usernames", usernames.joined(separator: ","))], userFields: userFields)
    }

    /// How many recent tweets (the last 7 days) match `query`, per `granularity` (`minute`,
    /// `hour`, `day`): `GET /2/tweets/counts/recent`, or with `archive` the full archive since
    /// 2006 (`GET /2/tweets/counts/all`). X serves it app-only: call it on a client
    /// authenticated with `.bearer`. X bills it per request ($0.005 recent, $0.01 all): the
    /// cheap way to learn what a search would cost before buying its posts.
    public func tweetCounts(
      query: String, granularity: String = "hour", sinceID: String? = nil, untilID: String? = nil, startTime: Date? = nil, endTime: Date? = nil,
      archive: Bool = false
    ) async throws(XError) -> TweetCounts {
      var items: [QueryItem] = [("query", query), ("granularity", granularity)]
      if let sinceID { items.append(("since_id", sinceID)) }
      if let untilID { items.append(("until_id", untilID)) }
      if let startTime { items.append(("start_time", RFC3339.string(from: startTime))) }
      if let endTime { items.append(("end_time", RFC3339.string(from: endTime))) }
      let response = try await client.send(
        Request<V2CountsResponse>(path: (archive ? XEndpoint.getPostsCountsAll : .getPostsCountsRecent).filled(), query: items))
      return TweetCounts(
        buckets: (response.value.data ?? []).map {
          TweetCounts.Bucket(start: RFC3339.date(from: $0.start), end: RFC3339.date(from: $0.end), count: $0.tweetCount)
        },
        // Saturating: a server's counts near Int.max must not trap the sum.
        total: response.value.meta?.totalTweetCount ?? response.value.data?.reduce(0) { $0.addingSaturating($1.tweetCount) } ?? 0,
        nextToken: response.value.meta?.nextToken, body: response.response.body)
    }

    /// The `user.fields` the user commands ask for: what ``XUser`` holds.
    public static let defaultUserFields = ["created_at", "description", "location", "protected", "verified", "public_metrics"]

    /// `GET /2/tweets/:id`.
    public func tweet(id: String, options: TimelineOptions = .init()) async throws(XError) -> Tweet {
      let response = try await client.send(Request<V2Envelope<V2Tweet>>(path: XEndpoint.getPostsById.filled(id), query: fields(options)))
      guard let tweet = response.value.tweet else {
        throw .notFound(message: response.value.errors?.first?.description ?? "no tweet with id \(id)")
      }
      return tweet
    }

    /// `GET /2/tweets?ids=`: up to 100 tweets; the ones that cannot be found are reported in
    /// ``TweetLookup/errors`` rather than failing the call.
    public func tweets(ids: [String], options: TimelineOptions = .init()) async throws(XError) -> TweetLookup {
      let query = [("ids", ids.joined(separator: ","))] + fields(options)
      let response = try await client.send(Request<V2Envelope<[V2Tweet]>>(path: XEndpoint.getPostsByIds.filled(), query: query))
      return TweetLookup(
        tweets: response.value.tweets, errors: response.value.errors ?? [], rateLimit: response.response.rateLimit, body: response.response.body)
    }

    /// `POST /2/tweets` with a JSON body (which the OAuth signature does not cover): a post,
    /// a reply (`inReplyTo`), a quote (`quoting`; X's `create-post.mdx` says quoting needs an
    /// Enterprise plan) and up to 4 images or one GIF or video (`mediaIDs`, from
    /// ``uploadMedia(_:altText:segmentSize:limits:sleeper:progress:)``).
    public func post(text: String, inReplyTo: String? = nil, quoting: String? = nil, mediaIDs: [String] = []) async throws(XError) -> Tweet {
      try await createPost(text: text, inReplyTo: inReplyTo, quoting: quoting, mediaIDs: mediaIDs).tweet
    }

    /// ``post(text:inReplyTo:quoting:mediaIDs:)`` with X's whole answer, for a caller that keeps
    /// or prints it as sent.
    ///
    /// `options` adds a poll, reply settings, an edit of an earlier post, a community and X's
    /// labels (``PostOptions``; give them ``PostOptions/validated(hasMedia:quoting:)``).
    public func createPost(
      text: String, inReplyTo: String? = nil, quoting: String? = nil, mediaIDs: [String] = [], options: PostOptions = PostOptions()
    ) async throws(XError) -> (tweet: Tweet, response: HTTPResponse) {
      struct Reply: Encodable, Sendable { let in_reply_to_tweet_id: String }
      struct Media: Encodable, Sendable { let media_ids: [String] }
      struct Poll: Encodable, Sendable {
        let options: [String]
        let duration_minutes: Int
      }
      struct Edit: Encodable, Sendable { let previous_post_id: String }
      struct Body: Encodable, Sendable {
        let text: String
        let reply: Reply?
        let quote_tweet_id: String?
        let media: Media?
        let poll: Poll?
        let reply_settings: String?
        let edit_options: Edit?
        let community_id: String?
        let paid_partnership: Bool?
        let made_with_ai: Bool?
      }
      struct Created: Decodable, Sendable {
        let id: String
        let text: String
      }
      let body = Body(
        text: text, reply: inReplyTo.map(Reply.init), quote_tweet_id: quoting, media: mediaIDs.isEmpty ? nil : Media(media_ids: mediaIDs),
        poll: options.poll.map { Poll(options: $0.options, duration_minutes: $0.durationMinutes) }, reply_settings: options.replySettings?.rawValue,
        edit_options: options.editing.map(Edit.init), community_id: options.communityID, paid_partnership: options.paidPartnership ? true : nil,
        made_with_ai: options.madeWithAI ? true : nil)
      let response = try await client.send(
        Request<V2Envelope<Created>>(method: XEndpoint.createPosts.method, path: XEndpoint.createPosts.filled(), body: .json(body)))
      guard let created = response.value.data else {
        throw .unexpectedResponse(status: response.response.statusCode, excerpt: response.response.text)
      }
      return (Tweet(id: created.id, text: created.text), response.response)
    }

    /// `DELETE /2/tweets/:id`: deletes one of the user's posts; `true` when X says it is gone.
    public func deleteTweet(id: String) async throws(XError) -> Bool {
      struct Deleted: Decodable, Sendable { let deleted: Bool }
      let response = try await client.send(Request<V2Envelope<Deleted>>(method: XEndpoint.deletePosts.method, path: XEndpoint.deletePosts.filled(id)))
      return response.value.data?.deleted ?? false
    }

    // MARK: - Helpers

    private func user(at path: String, query: [QueryItem]) async throws(XError) -> XUser {
      let response = try await client.send(Request<V2Envelope<V2User>>(path: path, query: query))
      guard let user = response.value.data else {
        throw .notFound(message: response.value.errors?.first?.description ?? "no such user")
      }
      return user.user
    }

    private func fields(_ options: TimelineOptions) -> [QueryItem] {
      options.fieldItems.map { QueryItem($0.0, $0.1) }
    }

    /// The pages of users of `endpoint` (its `{…}` filled with `values`), each page's size
    /// within the row's ``XEndpoint/pageSizes``, the next page asked for with `cursorName`
    /// (`pagination_token`; user search: `next_token`), `extra` sent with every page.
    func userPages(
      _ endpoint: XEndpoint, _ values: [String], userFields: [String], cursorName: String = "pagination_token", extra: [QueryItem] = [],
      limit: Int?
    ) -> UserPages {
      let client = self.client
      let path = endpoint.filled(values)
      let largest = endpoint.pageSizes?.upperBound ?? 1000
      let fields: [QueryItem] = userFields.isEmpty ? [] : [("user.fields", userFields.joined(separator: ","))]
      // Each page asks for no more users than are still wanted: X bills every one it returns.
      return UserPages(
        limit: limit,
        sizedFetch: { cursor, wanted throws(XError) in
          var query = extra + [("max_results", String(min(max(wanted ?? largest, 1), largest)))] + fields
          if case .token(let token) = cursor { query.append((cursorName, token)) }
          let response = try await client.send(Request<V2Envelope<[V2User]>>(path: path, query: query))
          let envelope = response.value
          return Page(
            items: envelope.users, next: envelope.meta?.nextToken.map(PageCursor.token), partialErrors: envelope.errors ?? [],
            rateLimit: response.response.rateLimit, body: response.response.body)
        })
    }

    private func userLookup(_ path: String, _ query: [QueryItem], userFields: [String]) async throws(XError) -> UserLookup {
      var query = query
      if !userFields.isEmpty { query.append(("user.fields", userFields.joined(separator: ","))) }
      let response = try await client.send(Request<V2Envelope<[V2User]>>(path: path, query: query))
      return UserLookup(users: response.value.users, errors: response.value.errors ?? [], body: response.response.body)
    }

    /// The pages of `endpoint` (its `{…}` filled with `values`), each page's size within the
    /// row's ``XEndpoint/pageSizes``.
    func pages(_ endpoint: XEndpoint, _ values: [String], options: TimelineOptions, cursorName: String, extra: [QueryItem], limit: Int?)
      -> TweetPages
    {
      let client = self.client
      let path = endpoint.filled(values)
      let range = endpoint.pageSizes ?? 1...100
      // Each page asks for no more posts than are still wanted (within the endpoint's range): X
      // bills every post it returns, kept or not.
      return TweetPages(
        limit: limit,
        sizedFetch: { cursor, wanted throws(XError) in
          var query = extra + options.query(pageSize: options.pageSize(limit: wanted, range: range)).map { QueryItem($0.0, $0.1) }
          if case .token(let token) = cursor { query.append((cursorName, token)) }
          let response = try await client.send(Request<V2Envelope<[V2Tweet]>>(path: path, query: query))
          let envelope = response.value
          return TweetPage(
            items: envelope.tweets, next: envelope.meta?.nextToken.map(PageCursor.token),
            partialErrors: envelope.errors ?? [], rateLimit: response.response.rateLimit, body: response.response.body)
        })
    }
  }
}

/// Accounts looked up by id or username: those X returned, and a problem for each it did not.
public struct UserLookup: Sendable {
  /// The accounts found, in X's order.
  public let users: [XUser]
  /// One problem per id or username not returned (`resource_not_found`, suspended...).
  public let errors: [XProblem]
  /// The response body as X sent it.
  public let body: Data
}

/// Tweet counts over time.
public struct TweetCounts: Sendable {
  /// One time bucket.
  public struct Bucket: Sendable, Hashable {
    /// When the bucket starts (X's `start`).
    public let start: Date?
    /// When the bucket ends (X's `end`).
    public let end: Date?
    /// How many tweets matched in it.
    public let count: Int
  }

  /// The buckets, oldest first.
  public let buckets: [Bucket]
  /// All buckets together (`meta.total_tweet_count`).
  public let total: Int
  /// X's `meta.next_token`: set when the counts go on past these buckets (a full-archive count
  /// over more than one page), so that ``total`` is a lower bound.
  public var nextToken: String? = nil
  /// The response body as X sent it.
  public let body: Data
}

struct V2CountsResponse: Decodable, Sendable {
  struct Bucket: Decodable, Sendable {
    let start: String
    let end: String
    let tweetCount: Int
    enum CodingKeys: String, CodingKey {
      case start, end
      case tweetCount = "tweet_count"
    }
  }
  struct Meta: Decodable, Sendable {
    let totalTweetCount: Int?
    let nextToken: String?
    enum CodingKeys: String, CodingKey {
      case totalTweetCount = "total_tweet_count"
      case nextToken = "next_token"
    }
  }
  let data: [Bucket]?
  let meta: Meta?
}

/// The result of looking tweets up by id.
public struct TweetLookup: Sendable {
  /// The tweets found, filled as the lookup's ``TimelineOptions`` asked; ids that could not be returned are missing here
  /// and reported in ``TweetLookup/errors``.
  public let tweets: [Tweet]
  /// One problem per id that could not be returned (deleted, protected, never existed).
  public let errors: [XProblem]
  /// The rate-limit state of the response (its `x-rate-limit-*` headers); `nil` when X sent none.
  public let rateLimit: RateLimit?
  /// The response body exactly as X sent it (`data`, `includes`, `errors`), for archiving X's own JSON.
  public let body: Data
}

/// A value placed in a URL path, encoded so that it stays one segment.
struct PathSegment: CustomStringConvertible {
  let value: String
  init(_ value: String) { self.value = value }
  var description: String {
    value.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? value
  }
}
