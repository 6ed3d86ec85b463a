/// The X Activity API's subscriptions in the sandbox: the app's, in the order created, and the
/// events the sandbox built for them (``SandboxActivityEvent``: a post created or deleted by a
/// subscribed account, and the follows and profile changes its control API makes). An event of a subscription with a webhook waits in ``outbox`` until the
/// sandbox POSTs it there, signed (``XSandbox/deliverActivity()``); the others are served on
/// `GET /2/activity/stream`, each connection from its cursor on.
///
/// ```swift
/// var state = SandboxState(tweets: [], demoToken: XSandbox.demoAccessToken)
/// state.activityHappened("post.create", userID: "1001", payload: .object([]), billedID: "1", text: "hi", now: 0)
/// state.activity.events.count  // one per matching subscription without a webhook
/// ```
struct SandboxActivityState: Sendable {
  /// One subscription, as X's `CreateActivitySubscriptionResponseDataSubscription` describes it.
  struct Subscription: Sendable {
    let id: String
    let eventType: String
    let userID: String
    let direction: String?
    let keyword: String?
    var tag: String?
    var webhookID: String?
    let created: Int64
    var updated: Int64
  }

  var subscriptions: [Subscription] = []
  /// The last id given; ids are numbers of 19 digits, as X's.
  var next: Int64 = 1_900_000_000_000_000_000
  /// The most subscriptions an app holds here (X's own limit depends on the plan).
  static let maxSubscriptions = 1000

  /// The events built, oldest first, the newest ``maxEvents`` kept (what a stream's backfill
  /// and a webhook's replay draw on).
  var events: [SandboxActivityEvent] = []
  /// The serial the next event takes.
  var nextEvent = 0
  /// The last `event_uuid` given.
  var nextUUID: Int64 = 1_940_000_000_000_000_000
  /// Events for webhooks, not yet POSTed; at most ``maxEvents`` wait (older ones are dropped).
  var outbox: [SandboxActivityEvent] = []
  /// Whether a task is POSTing the outbox: one at a time, so a burst of posts makes one
  /// worker, not a task (and a connection) each (``XSandbox/deliverActivity()``).
  var delivering = false
  /// Where an activity stream connection is: the serial of the next event it may deliver, and
  /// the window of `start_time` (inclusive) and `end_time` (exclusive, as X's other `end_time`s)
  /// outside which it delivers none (Unix seconds; `nil`: open).
  struct Cursor: Sendable {
    var next: Int
    var start: Int64? = nil
    var end: Int64? = nil
  }

  /// Each activity stream connection's cursor.
  var cursors: [Int: Cursor] = [:]

  /// The first event from `cursor.next` on that goes to no webhook and happened within the
  /// cursor's window. It is looked for from its place (``events`` holds consecutive serials,
  /// the oldest dropped), not from the oldest event: a step of a connection costs the events it
  /// passes, not all the events kept.
  func streamEvent(from cursor: Cursor) -> SandboxActivityEvent? {
    guard let oldest = events.first?.serial else { return nil }
    let start = min(max(0, cursor.next - oldest), events.count)
    return events[start...].first { event in
      event.webhookID == nil && (cursor.start.map { event.created >= $0 } ?? true) && (cursor.end.map { event.created < $0 } ?? true)
    }
  }
  /// The most events kept (and waiting for a webhook): 10,000.
  static let maxEvents = 10_000

  /// One POST of an event to a webhook, or why none was made, for the control API.
  struct Delivery: Sendable {
    let uuid: String
    let eventType: String
    let webhookID: String
    /// The webhook's answer; `nil` when none came (or no POST was made).
    let status: Int?
    /// `delivered` (a 2xx), `failed` (another status, or no answer in time), or why it was not
    /// sent: `no such webhook`, `webhook invalid`, `billing refused`.
    let outcome: String
  }

  /// Queues `events` for their webhooks, after those waiting, keeping the newest
  /// ``maxEvents``: a burst of posts or a replay of a long window drops the oldest, never grows
  /// the outbox past that bound.
  ///
  /// ```swift
  /// activity.queue([event])  // POSTed by the next delivery worker
  /// ```
  mutating func queue(_ queued: some Collection<SandboxActivityEvent>) {
    outbox += queued
    if outbox.count > Self.maxEvents { outbox.removeFirst(outbox.count - Self.maxEvents) }
  }

  /// The webhook deliveries, oldest first, the newest ``maxDeliveries`` kept.
  var deliveries: [Delivery] = []
  /// The most deliveries logged: 1000.
  static let maxDeliveries = 1000
}
