import Foundation

extension SandboxState {
  // MARK: - Lock held

  /// Builds the X Activity API's events for something that happened to `userID` (`type`:
  /// `post.create`, `post.delete`, `follow.follow`, `follow.unfollow`, `profile.update.*`), one
  /// for each of the app's subscriptions to that type and account whose filter takes it. A
  /// directional event (a follow) is `direction` for that account (`outbound`: it follows;
  /// `inbound`: it is followed), and a subscription with the other direction does not take it;
  /// X's filter is "for directional events", so a post or a profile change (`direction` `nil`)
  /// goes to a subscription whatever its direction. One with a `keyword` takes a post whose text
  /// holds it (case-insensitive). Each event is kept
  /// (``SandboxActivityState/events``) and, for a subscription with a webhook, queued for it
  /// (``SandboxActivityState/outbox``). X bills a post event under the post's id
  /// (`billedID`), any other under its `event_uuid` (`billedID` `nil`).
  ///
  /// ```swift
  /// state.activityHappened("post.create", userID: "1001", payload: state.v2Tweet(tweet, fields: fields),
  ///                        billedID: String(tweet.id), text: tweet.text, now: ctx.now)
  /// ```
  mutating func activityHappened(
    _ type: String, userID: String, direction: String? = nil, payload: JSON, billedID: String?, text: String?, now: Int64
  ) {
    let matching = activity.subscriptions.filter { subscription in
      guard subscription.eventType == type, subscription.userID == userID else { return false }
      if let direction, let wanted = subscription.direction, wanted != direction { return false }
      guard let keyword = subscription.keyword else { return true }
      return text?.range(of: keyword, options: .caseInsensitive) != nil
    }
    for subscription in matching {
      activity.nextUUID += 1
      var filter: [(String, JSON)] = [("user_id", .string(subscription.userID))]
      if let direction = subscription.direction { filter.append(("direction", .string(direction))) }
      if let keyword = subscription.keyword { filter.append(("keyword", .string(keyword))) }
      var data: [(String, JSON)] = [
        ("event_type", .string(type)), ("event_uuid", .string(String(activity.nextUUID))), ("filter", .object(filter)),
      ]
      if let tag = subscription.tag { data.append(("tag", .string(tag))) }
      data.append(("payload", payload))
      if type.hasPrefix("post."), type != "post.delete", let author = SandboxData.usersByID[userID] {
        data.append(("includes", .object([("users", .array([v2User(author, fields: [])]))])))
      }
      let event = SandboxActivityEvent(
        serial: activity.nextEvent, uuid: String(activity.nextUUID), type: type, userID: userID, webhookID: subscription.webhookID,
        body: JSON.object([("data", .object(data))]).encoded(), billedID: billedID ?? String(activity.nextUUID), created: now)
      activity.nextEvent += 1
      activity.events.append(event)
      if activity.events.count > SandboxActivityState.maxEvents {
        activity.events.removeFirst(activity.events.count - SandboxActivityState.maxEvents)
      }
      if event.webhookID != nil { activity.queue(CollectionOfOne(event)) }
    }
  }

  /// The events of a post just created: `post.create` for its author's subscriptions, the
  /// payload the post as X's `Post` (`id`, `text`, `author_id`, `created_at`,
  /// `edit_history_tweet_ids`), billed as the post.
  mutating func postCreated(_ tweet: SandboxTweet, now: Int64) {
    let payload = v2Tweet(tweet, fields: Fields(["tweet.fields": "author_id,created_at"]))
    activityHappened("post.create", userID: tweet.authorID, payload: payload, billedID: String(tweet.id), text: tweet.text, now: now)
  }

  /// The events of a post just deleted: `post.delete`, the payload its `id` and `author_id`
  /// (X's `PostDeleteActivityResponsePayload`).
  mutating func postDeleted(_ tweet: SandboxTweet, now: Int64) {
    let payload = JSON.object([("id", .string(String(tweet.id))), ("author_id", .string(tweet.authorID))])
    activityHappened("post.delete", userID: tweet.authorID, payload: payload, billedID: String(tweet.id), text: nil, now: now)
  }

  /// The events of a follow (or, `unfollow`, its end) of `target` by `source`: `follow.follow`
  /// (`follow.unfollow`), outbound for the follower's subscriptions and inbound for the
  /// followed account's, the payload both accounts (X's `FollowActivityResponsePayload`),
  /// billed as a follow. The sandbox keeps no follow graph: the control API makes these
  /// (`POST /_control/activity`), as X's self-serve tiers no longer write follows.
  mutating func followHappened(source: SandboxUser, target: SandboxUser, unfollow: Bool, now: Int64) {
    let type = unfollow ? "follow.unfollow" : "follow.follow"
    let payload = JSON.object([("source", v2User(source, fields: [])), ("target", v2User(target, fields: []))])
    activityHappened(type, userID: source.id, direction: "outbound", payload: payload, billedID: nil, text: nil, now: now)
    activityHappened(type, userID: target.id, direction: "inbound", payload: payload, billedID: nil, text: nil, now: now)
  }

  /// The event of a change to `user`'s profile: `profile.update.<field>` (`bio`, `handle`,
  /// `geo`...), the payload the value `before` and `after` (X's
  /// `ProfileUpdateActivityResponsePayload`), free. Made by the control API, as the sandbox has
  /// no profile to change.
  mutating func profileUpdated(_ user: SandboxUser, field: String, before: String, after: String, now: Int64) {
    let payload = JSON.object([("before", .string(before)), ("after", .string(after))])
    activityHappened("profile.update." + field, userID: user.id, payload: payload, billedID: nil, text: nil, now: now)
  }
}
