import Foundation
import NetworkClient

extension XClient {
  /// The API v2 endpoints that work with OAuth 1.0a user context (and, for public data, with
  /// a bearer token).
  public struct V2: Sendable {
    let client: XClient

    /// `GET /2/users/me`: the authenticated user.
    public func me() async throws(XError) -> XUser {
      try await user(at: "2/users/me", query: [])
    }

    /// `GET /2/users/by/username/:username`.
    public func user(username: String) async throws(XError) -> XUser {
      try await user(at: "2/users/by/username/\(PathSegment(username))", query: [])
    }

    /// `GET /2/users/:id/tweets`, newest first, paged with `pagination_token`.
    public func userTweets(userID: String, options: TimelineOptions = .init(), limit: Int? = nil) -> TweetPages {
      pages("2/users/\(PathSegment(userID))/tweets", options: options, range: 5...100, cursorName: "pagination_token", extra: [], limit: limit)
    }

    /// `GET /2/users/:id/timelines/reverse_chronological`: the home timeline of the
    /// authenticated user (`userID` must be theirs).
    public func homeTimeline(userID: String, options: TimelineOptions = .init(), limit: Int? = nil) -> TweetPages {
      pages(
        "2/users/\(PathSegment(userID))/timelines/reverse_chronological", options: options, range: 1...100, cursorName: "pagination_token", extra: [],
        limit: limit)
    }

    /// `GET /2/tweets/search/recent` (the last seven days), paged with `next_token`.
    public func searchRecent(query: String, options: TimelineOptions = .init(), limit: Int? = nil) -> TweetPages {
      var options = options
      options.exclude = []
      return pages("2/tweets/search/recent", options: options, range: 10...100, cursorName: "next_token", extra: [("query", query)], limit: limit)
    }

    /// `GET /2/tweets/:id`.
    public func tweet(id: String, options: TimelineOptions = .init()) async throws(XError) -> Tweet {
      let response = try await client.send(Request<V2Envelope<V2Tweet>>(path: "2/tweets/\(PathSegment(id))", query: fields(options)))
      guard let tweet = response.value.tweet else {
        throw .notFound(message: response.value.errors?.first?.description ?? "no tweet with id \(id)")
      }
      return tweet
    }

    /// `GET /2/tweets?ids=`: up to 100 tweets; the ones that cannot be found are reported in
    /// ``TweetLookup/errors`` rather than failing the call.
    public func tweets(ids: [String], options: TimelineOptions = .init()) async throws(XError) -> TweetLookup {
      let query = [("ids", ids.joined(separator: ","))] + fields(options)
      let response = try await client.send(Request<V2Envelope<[V2Tweet]>>(path: "2/tweets", query: query))
      return TweetLookup(
        tweets: response.value.tweets, errors: response.value.errors ?? [], rateLimit: response.response.rateLimit, body: response.response.body)
    }

    /// `POST /2/tweets` with a JSON body (which the OAuth signature does not cover).
    public func post(text: String, inReplyTo: String? = nil) async throws(XError) -> Tweet {
      struct Reply: Encodable, Sendable { let in_reply_to_tweet_id: String }
      struct Body: Encodable, Sendable {
        let text: String
        let reply: Reply?
      }
      struct Created: Decodable, Sendable {
        let id: String
        let text: String
      }
      let body = Body(text: text, reply: inReplyTo.map(Reply.init))
      let response = try await client.send(Request<V2Envelope<Created>>(method: .post, path: "2/tweets", body: .json(body)))
      guard let created = response.value.data else {
        throw .unexpectedResponse(status: response.response.statusCode, excerpt: response.response.text)
      }
      return Tweet(id: created.id, text: created.text)
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
      var query: [QueryItem] = []
      if !options.tweetFields.isEmpty { query.append(("tweet.fields", options.tweetFields.joined(separator: ","))) }
      if !options.expansions.isEmpty { query.append(("expansions", options.expansions.joined(separator: ","))) }
      if !options.userFields.isEmpty { query.append(("user.fields", options.userFields.joined(separator: ","))) }
      return query
    }

    private func pages(_ path: String, options: TimelineOptions, range: ClosedRange<Int>, cursorName: String, extra: [QueryItem], limit: Int?)
      -> TweetPages
    {
      let client = self.client
      let base = extra + options.query(pageSize: options.pageSize(limit: limit, range: range)).map { QueryItem($0.0, $0.1) }
      return TweetPages(limit: limit) { cursor throws(XError) in
        var query = base
        if case .token(let token) = cursor { query.append((cursorName, token)) }
        let response = try await client.send(Request<V2Envelope<[V2Tweet]>>(path: path, query: query))
        let envelope = response.value
        return TweetPage(
          tweets: envelope.tweets, next: envelope.meta?.nextToken.map(PageCursor.token),
          partialErrors: envelope.errors ?? [], rateLimit: response.response.rateLimit, body: response.response.body)
      }
    }
  }
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
