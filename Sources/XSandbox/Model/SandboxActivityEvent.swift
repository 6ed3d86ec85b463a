import Foundation

/// One event the X Activity API delivers in the sandbox: built when the sandbox's data changes
/// (a post created or deleted; a follow or a profile change the control API makes) for each
/// subscription that matches it, as X's
/// `ActivityStreamResponse` line (`{"data": {"event_type", "event_uuid", "filter", "tag"?,
/// "payload"}}`), and delivered either to the subscription's webhook (signed, POSTed) or on
/// `GET /2/activity/stream`. Billed on delivery at X's price (``XActivityEventPrice``: a post
/// event as a post read, once per post and UTC day; a follow as a follow; the others free).
///
/// ```swift
/// let event = SandboxActivityEvent(serial: 1, uuid: "1", type: "post.create", userID: "1001",
///                                  webhookID: nil, body: line, billedID: "1900000000000000001", created: now)
/// ```
struct SandboxActivityEvent: Sendable {
  /// Its place in the sandbox's order of events: a stream connection delivers those after its cursor.
  let serial: Int
  /// X's `event_uuid` (digits).
  let uuid: String
  /// X's dotted type: `post.create`, `post.delete`, `follow.follow`, `profile.update.bio`...
  let type: String
  /// The subscription's `filter.user_id`.
  let userID: String
  /// The webhook it goes to; `nil`: the activity stream.
  let webhookID: String?
  /// The line's bytes (no line end): the webhook POST's body and the stream's line.
  let body: Data
  /// What X bills it under: the post's id for a post event, else its `event_uuid`.
  let billedID: String
  /// When it happened, on the sandbox's clock (Unix seconds): a replay picks events by it.
  let created: Int64
}
