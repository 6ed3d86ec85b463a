import Foundation
import XAPI

/// Posts: lookup by id and ids, create (text, a reply, a quote, media) and delete
/// (`x-api/posts/*.mdx`), and v1.1's `statuses/show` and `statuses/update`.
extension SandboxRoute {
  static let posts: [SandboxRoute] = [
    SandboxRoute(
      method: "GET", pattern: ["2", "tweets"], name: "v2_tweets", limit: 300, allowed: ["ids"] + tweetExtra, scopes: ["tweet.read", "users.read"],
      billing: .resources(.post)
    ) {
      $0.v2Tweets($1)
    },
    SandboxRoute(
      method: "GET", pattern: ["2", "tweets", "*"], name: "v2_tweet", limit: 300, allowed: tweetExtra, scopes: ["tweet.read", "users.read"],
      billing: .resources(.post)
    ) {
      $0.v2Tweet($1)
    },
    SandboxRoute(
      method: "POST", pattern: ["2", "tweets"], name: "v2_create", limit: nil, bearerOK: false, allowed: [],
      scopes: ["tweet.read", "tweet.write", "users.read"], billing: .postCreate
    ) {
      $0.v2Create($1)
    },
    SandboxRoute(
      method: "DELETE", pattern: ["2", "tweets", "*"], name: "v2_delete", limit: nil, bearerOK: false, allowed: [],
      scopes: ["tweet.read", "tweet.write", "users.read"], billing: .request(.interactionDelete)
    ) { $0.v2Delete($1) },
    SandboxRoute(method: "GET", pattern: ["1.1", "statuses", "show.json"], name: "v1_show", limit: 900, billing: .resources(.post)) { $0.v1Show($1) },
    SandboxRoute(method: "GET", pattern: ["1.1", "statuses", "show", "*.json"], name: "v1_show", limit: 900, billing: .resources(.post)) {
      $0.v1Show($1)
    },
    SandboxRoute(method: "POST", pattern: ["1.1", "statuses", "update.json"], name: "v1_update", limit: nil, bearerOK: false, billing: .postCreate) {
      $0.v1Update($1)
    },
  ]
}

// MARK: - Handlers (lock held)

extension SandboxState {
  func v2Tweet(_ ctx: RouteContext) -> SandboxResponse {
    let id = ctx.captures.first ?? ""
    if let bad = badID(id) { return bad }
    guard let tweet = tweet(id: id) else {
      return .v2(
        200,
        .object([("errors", .array([XBodies.notFound(id, resourceType: "tweet", parameter: "id", detail: "Could not find tweet with id: [\(id)].")]))]
        ))
    }
    return .v2(200, envelope([tweet], fields: Fields(ctx.query), single: true))
  }

  func v2Tweets(_ ctx: RouteContext) -> SandboxResponse {
    do throws(SandboxRefusal) {
      let ids = try lookupValues(ctx.query, parameter: "ids", pattern: "^[0-9]{1,19}$", isValid: isID)
      let (found, errors) = lookup(ids, resourceType: "tweet", parameter: "ids") { tweet(id: $0) }
      return .v2(200, envelope(found, fields: Fields(ctx.query), errors: errors))
    } catch {
      return error.response
    }
  }

  /// `POST /2/tweets`: `text`, and `reply.in_reply_to_tweet_id` or `quote_tweet_id` (which must
  /// exist); a poll, `reply_settings`, `community_id` and the labels, checked as X's
  /// specification has them (``PostCreateOptions``); `edit_options.previous_post_id`, a new
  /// version of one of the caller's posts, within an hour of the first and five times at most.
  mutating func v2Create(_ ctx: RouteContext) -> SandboxResponse {
    guard mediaType(ctx.contentType) == "application/json" else { return .v2(400, XBodies.jsonRequired) }
    guard let body = ctx.body, let object = try? JSONSerialization.jsonObject(with: body) else {
      return .v2(400, XBodies.invalidBody("Request body is not valid JSON."))
    }
    let fields = object as? [String: Any]
    guard let text = fields?["text"] as? String, !text.isEmpty else {
      return .v2(400, XBodies.invalidBody("$.text: is missing but it is required"))
    }
    // X counts as twitter-text does (URLs as 23, CJK and emoji as 2).
    if PostLength.weighted(text) > PostLength.limit { return .v2(403, XBodies.tooLong) }
    var parentID: UInt64?
    if let parent = (fields?["reply"] as? [String: Any])?["in_reply_to_tweet_id"] as? String {
      guard let found = tweet(id: parent), tweets.contains(where: { $0.id == found.id }) else { return .v2(403, XBodies.replyGone) }
      parentID = found.id
    }
    var quotedID: UInt64?
    if let quoted = fields?["quote_tweet_id"] as? String {
      guard let found = tweet(id: quoted), tweets.contains(where: { $0.id == found.id }) else { return .v2(403, XBodies.forbidden) }
      quotedID = found.id
    }
    let author = ctx.caller.userID ?? SandboxData.mainUserID
    let options: PostCreateOptions
    do throws(SandboxRefusal) { options = try PostCreateOptions(fields ?? [:]) } catch { return error.response }
    if options.poll, fields?["media"] != nil || quotedID != nil {
      return .v2(400, XBodies.invalidBody("$.poll: a poll is mutually exclusive from media and quote_tweet_id"))
    }
    var edited: SandboxTweet?
    if let previous = options.previousPostID {
      guard let found = tweets.first(where: { String($0.id) == previous }), found.authorID == author else { return .v2(403, XBodies.forbidden) }
      // X: a post may be edited within an hour of its first version, five times.
      let first = tweet(withID: found.versions[0])?.createdAt ?? found.createdAt
      guard ctx.now - first <= 3600, found.versions.count < 6 else {
        return .v2(403, XBodies.problem(title: "Forbidden", detail: "Post \(previous) can no longer be edited.", status: 403))
      }
      edited = found
    }
    var attached: [SandboxMedia] = []
    if let ids = (fields?["media"] as? [String: Any])?["media_ids"] as? [String] {
      let (media, refusal) = attachments(ids, tweetID: (tweets.map(\.id).max() ?? SandboxData.firstID) + 1000)
      if let refusal { return refusal }
      attached = media ?? []
    }
    guard var created = post(text, by: author, now: ctx.now, replyingTo: parentID, quoting: quotedID) else {
      return .v2(403, XBodies.duplicate)
    }
    if !attached.isEmpty, let index = tweets.firstIndex(where: { $0.id == created.id }) {
      tweets[index].media = attached
      created = tweets[index]
    }
    if let edited, let index = tweets.firstIndex(where: { $0.id == created.id }) {
      // The new version takes the earlier ones' history; the earlier one leaves the timelines.
      tweets[index].editHistory = edited.versions + [created.id]
      created = tweets[index]
      tweets.removeAll { $0.id == edited.id }
      var earlier = edited
      earlier.editHistory = created.editHistory
      earlierVersions.insert(earlier, at: earlierVersions.firstIndex { $0.id < earlier.id } ?? earlierVersions.endIndex)
    }
    postCreated(created, now: ctx.now)
    return .v2(
      201,
      .object([
        (
          "data",
          .object([
            ("id", .string(String(created.id))), ("text", .string(created.text)),
            ("edit_history_tweet_ids", .array(created.versions.map { .string(String($0)) })),
          ])
        )
      ]))
  }

  /// `DELETE /2/tweets/:id`: one of the caller's own (the latest version of an edited one).
  mutating func v2Delete(_ ctx: RouteContext) -> SandboxResponse {
    guard let tweet = tweet(id: ctx.captures.first ?? ""), tweets.contains(where: { $0.id == tweet.id }), tweet.authorID == ctx.caller.userID
    else { return .v2(403, XBodies.forbidden) }
    tweets.removeAll { $0.id == tweet.id }
    earlierVersions.removeAll { tweet.versions.contains($0.id) }
    compliance.postEvents[String(tweet.id)] = ("deleted", ctx.now)
    postDeleted(tweet, now: ctx.now)
    return .v2(200, .object([("data", .object([("deleted", .bool(true))]))]))
  }

  func v1Show(_ ctx: RouteContext) -> SandboxResponse {
    let id = ctx.captures.first ?? ctx.query["id"] ?? ""
    guard let tweet = tweet(id: id) else { return .v1(404, XBodies.v1Errors(144, "No status found with that ID.")) }
    return .v1(200, v1Tweet(tweet, params: ctx.query))
  }

  mutating func v1Update(_ ctx: RouteContext) -> SandboxResponse {
    var params = ctx.query
    if mediaType(ctx.contentType) == "application/x-www-form-urlencoded", let body = ctx.body {
      params.merge(SandboxURL.pairs(String(decoding: body, as: UTF8.self)).firstValues) { _, form in form }
    }
    guard let status = params["status"], !status.isEmpty else {
      return .v1(400, XBodies.v1Errors(170, "Missing required parameter: status."))
    }
    if status.unicodeScalars.count > 280 { return .v1(403, XBodies.v1Errors(186, "Tweet needs to be a bit shorter.")) }
    guard let tweet = post(status, by: ctx.caller.userID ?? SandboxData.mainUserID, now: ctx.now) else {
      return .v1(403, XBodies.v1Errors(187, "Status is a duplicate."))
    }
    postCreated(tweet, now: ctx.now)
    return .v1(200, v1Tweet(tweet, params: params))
  }
}
