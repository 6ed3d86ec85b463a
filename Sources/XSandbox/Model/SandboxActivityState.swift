/// The X Activity API's subscriptions in the sandbox: the app's, in the order created. The
/// sandbox keeps them and answers for them; it delivers no event yet (no activity stream, no
/// webhook push: issue #47).
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
}
