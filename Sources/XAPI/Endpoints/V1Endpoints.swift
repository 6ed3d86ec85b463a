import Foundation
import NetworkClient

extension XClient {
  /// The classic API v1.1 endpoints for tweets. Many apps' access tiers no longer include them
  /// (X answers code 453, ``XError/accessLevel(message:)``).
  public struct V1: Sendable {
    let client: XClient

    /// `GET 1.1/account/verify_credentials.json`.
    public func verifyCredentials() async throws(XError) -> XUser {
      try await client.send(Request<V1User>(path: XEndpoint.v1VerifyCredentials.filled(), query: [("skip_status", "true")])).value.user
    }

    /// `GET 1.1/statuses/user_timeline.json` for a screen name or user id (the authenticated
    /// user when both are `nil`), paged with `max_id`.
    public func userTimeline(screenName: String? = nil, userID: String? = nil, options: V1TimelineOptions = .init(), limit: Int? = nil) -> TweetPages
    {
      var query: [QueryItem] = []
      if let screenName { query.append(("screen_name", screenName)) }
      if let userID { query.append(("user_id", userID)) }
      return pages(.v1UserTimeline, query: query, options: options, limit: limit) { data throws in
        try JSONDecoder().decode([V1Tweet].self, from: data)
      }
    }

    /// `GET 1.1/statuses/home_timeline.json`.
    public func homeTimeline(options: V1TimelineOptions = .init(), limit: Int? = nil) -> TweetPages {
      pages(.v1HomeTimeline, query: [], options: options, limit: limit) { data throws in
        try JSONDecoder().decode([V1Tweet].self, from: data)
      }
    }

    /// `GET 1.1/search/tweets.json`.
    public func search(query: String, options: V1TimelineOptions = .init(), limit: Int? = nil) -> TweetPages {
      pages(.v1SearchTweets, query: [("q", query), ("result_type", "recent")], options: options, limit: limit) {
        data throws in
        try JSONDecoder().decode(V1SearchResponse.self, from: data).statuses
      }
    }

    /// `GET 1.1/statuses/show.json?id=`.
    public func show(id: String, extended: Bool = true) async throws(XError) -> Tweet {
      var query: [QueryItem] = [("id", id)]
      if extended { query.append(("tweet_mode", "extended")) }
      return try await client.send(Request<V1Tweet>(path: XEndpoint.v1StatusesShow.filled(), query: query)).value.tweet
    }

    /// `POST 1.1/statuses/update.json` with a form body, which the signature covers.
    public func updateStatus(_ text: String) async throws(XError) -> Tweet {
      try await client.send(
        Request<V1Tweet>(method: XEndpoint.v1StatusesUpdate.method, path: XEndpoint.v1StatusesUpdate.filled(), body: .form([("status", text)]))
      ).value.tweet
    }

    private func pages(
      _ endpoint: XEndpoint, query: [QueryItem], options: V1TimelineOptions, limit: Int?,
      decode: @escaping @Sendable (Data) throws -> [V1Tweet]
    ) -> TweetPages {
      let client = self.client
      let path = endpoint.filled()
      let maxCount = endpoint.pageSizes?.upperBound ?? 200
      var base = query
      base.append(("count", String(min(max(options.count ?? limit ?? maxCount, 1), maxCount))))
      if let sinceID = options.sinceID { base.append(("since_id", sinceID)) }
      if options.extended { base.append(("tweet_mode", "extended")) }
      if options.excludeReplies { base.append(("exclude_replies", "true")) }
      if !options.includeRetweets { base.append(("include_rts", "false")) }
      let firstMaxID = options.maxID
      return TweetPages(limit: limit) { [base] cursor throws(XError) in
        var query = base
        if case .maxID(let maxID) = cursor { query.append(("max_id", maxID)) } else if let firstMaxID { query.append(("max_id", firstMaxID)) }
        let response = try await client.send(Request<Data>(path: path, query: query))
        let tweets: [Tweet]
        do {
          tweets = try decode(response.value).map(\.tweet)
        } catch {
          throw XError.network(.decoding(DecodingFailure(type: [V1Tweet].self, error: error, response: response.response)))
        }
        return TweetPage(
          items: tweets, next: Self.nextMaxID(after: tweets).map(PageCursor.maxID), partialErrors: [], rateLimit: response.response.rateLimit,
          body: response.value)
      }
    }

    /// The lowest id of the page minus one: where the next (older) page starts.
    static func nextMaxID(after tweets: [Tweet]) -> String? {
      guard let lowest = tweets.compactMap({ UInt64($0.id) }).min(), lowest > 0 else { return nil }
      return String(lowest - 1)
    }
  }
}
