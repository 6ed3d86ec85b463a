import DateFormats
import Foundation
import XAPI

/// The X Activity API's subscriptions (`x-api/activity/*`), with the authentications X's
/// specification lists (creating and listing: app-only or a user's; the rest app-only): created
/// with an event type X's specification names and a filter of a user id (a known account),
/// optional direction and keyword; listed; their tag or webhook changed; deleted. Each family's
/// state is its own (``SandboxActivityState``).
extension SandboxRoute {
  static let activity: [SandboxRoute] = [
    SandboxRoute(
      method: "POST", pattern: ["2", "activity", "subscriptions"], name: "v2_activity_subscriptions_create", limit: nil, appOnly: false,
      allowed: [], billing: .unpriced,
      handler: SandboxRoute.on(\.activity) { activity, _, ctx in activity.create(ctx) }),
    SandboxRoute(
      method: "GET", pattern: ["2", "activity", "subscriptions"], name: "v2_activity_subscriptions", limit: 300, appOnly: false,
      allowed: pageParameters, scopes: ["like.read", "tweet.read"], billing: .unpriced,
      handler: SandboxRoute.on(\.activity) { activity, _, ctx in activity.list(ctx) }),
    SandboxRoute(
      method: "PUT", pattern: ["2", "activity", "subscriptions", "*"], name: "v2_activity_subscription_update", limit: nil, appOnly: true,
      allowed: [], billing: .unpriced,
      handler: SandboxRoute.on(\.activity) { activity, _, ctx in activity.update(ctx) }),
    SandboxRoute(
      method: "DELETE", pattern: ["2", "activity", "subscriptions", "*"], name: "v2_activity_subscription_delete", limit: nil, appOnly: true,
      allowed: [], billing: .unpriced,
      handler: SandboxRoute.on(\.activity) { activity, _, ctx in activity.delete(ctx) }),
  ]
}

// MARK: - Handlers (lock held)

extension SandboxActivityState {
  /// `POST /2/activity/subscriptions` with `{"event_type", "filter": {"user_id", "direction"?,
  /// "keyword"?}, "tag"?, "webhook_id"?}` (`additionalProperties: false`, as X's schema).
  mutating func create(_ ctx: RouteContext) -> SandboxResponse {
    guard mediaType(ctx.contentType) == "application/json" else { return .v2(400, XBodies.jsonRequired) }
    guard let body = ctx.body, let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else {
      return .v2(400, XBodies.invalidBody("the body is not a JSON object"))
    }
    if let extra = object.keys.first(where: { !["event_type", "filter", "tag", "webhook_id"].contains($0) }) {
      return .v2(400, XBodies.invalidBody("$.\(extra): is not defined in the schema"))
    }
    guard let type = object["event_type"] as? String, XActivitySubscription.eventTypes.contains(type) else {
      return .v2(400, XBodies.invalidBody("$.event_type: must be one of the Activity API's event types"))
    }
    guard let filter = object["filter"] as? [String: Any], let userID = filter["user_id"] as? String else {
      return .v2(400, XBodies.invalidBody("$.filter.user_id: is missing"))
    }
    if let extra = filter.keys.first(where: { !["user_id", "direction", "keyword"].contains($0) }) {
      return .v2(400, XBodies.invalidBody("$.filter.\(extra): is not defined in the schema"))
    }
    let direction = filter["direction"] as? String
    if let direction, !["inbound", "outbound"].contains(direction) || type.hasPrefix("mute.") || type.hasPrefix("block.") {
      return .v2(400, XBodies.invalidBody("$.filter.direction: must be inbound or outbound, and is not taken by mute.* or block.*"))
    }
    guard SandboxData.usersByID[userID] != nil else {
      return .v2(400, XBodies.invalidBody("$.filter.user_id: \(userID) is not a user"))
    }
    let tag = object["tag"] as? String
    if let tag, !(1...200).contains(tag.count) { return .v2(400, XBodies.invalidBody("$.tag: must be 1 to 200 characters")) }
    let webhook = object["webhook_id"] as? String
    if let webhook, !(1...19).contains(webhook.count) || !webhook.allSatisfy(\.isNumber) {
      return .v2(400, XBodies.invalidBody("$.webhook_id: must match ^[0-9]{1,19}$"))
    }
    guard subscriptions.count < Self.maxSubscriptions else {
      return .v2(
        429, XBodies.problem(title: "Too Many Requests", detail: "At most \(Self.maxSubscriptions) subscriptions.", status: 429))
    }
    next += 1
    let made = Subscription(
      id: String(next), eventType: type == "chat.conversation_join" ? "chat.conversation.join" : type, userID: userID, direction: direction,
      keyword: filter["keyword"] as? String, tag: tag, webhookID: webhook, created: ctx.now, updated: ctx.now)
    subscriptions.append(made)
    return .v2(200, .object([("data", .object([("subscription", Self.json(made))]))]))
  }

  /// `GET /2/activity/subscriptions`: every subscription, oldest first, `max_results` at most.
  func list(_ ctx: RouteContext) -> SandboxResponse {
    let most: Int
    do throws(SandboxRefusal) { most = try pageSize(ctx.query, range: 1...1000, defaultCount: 1000) } catch { return error.response }
    return .v2(200, .object([("data", .array(subscriptions.prefix(most).map(Self.json)))]))
  }

  /// `PUT /2/activity/subscriptions/:id` with `{"tag"?, "webhook_id"?}`.
  mutating func update(_ ctx: RouteContext) -> SandboxResponse {
    guard mediaType(ctx.contentType) == "application/json" else { return .v2(400, XBodies.jsonRequired) }
    guard let body = ctx.body, let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any],
      object.keys.allSatisfy({ ["tag", "webhook_id"].contains($0) })
    else { return .v2(400, XBodies.invalidBody("the body takes tag and webhook_id only")) }
    guard let index = subscriptions.firstIndex(where: { $0.id == ctx.captures.first }) else { return Self.notFound(ctx.captures.first ?? "") }
    if let tag = object["tag"] as? String { subscriptions[index].tag = tag }
    if let webhook = object["webhook_id"] as? String { subscriptions[index].webhookID = webhook }
    subscriptions[index].updated = ctx.now
    return .v2(
      200,
      .object([
        ("data", .object([("subscription", Self.json(subscriptions[index])), ("total_subscriptions", .number(String(subscriptions.count)))]))
      ]))
  }

  /// `DELETE /2/activity/subscriptions/:id`.
  mutating func delete(_ ctx: RouteContext) -> SandboxResponse {
    guard let index = subscriptions.firstIndex(where: { $0.id == ctx.captures.first }) else { return Self.notFound(ctx.captures.first ?? "") }
    subscriptions.remove(at: index)
    return .v2(200, .object([("data", .object([("deleted", .bool(true))]))]))
  }

  static func notFound(_ id: String) -> SandboxResponse {
    .v2(
      404,
      XBodies.problem(
        title: "Not Found Error", detail: "Could not find subscription with id: [\(id)].",
        type: "https://api.twitter.com/2/problems/resource-not-found", status: 404))
  }

  /// X's subscription object.
  static func json(_ subscription: Subscription) -> JSON {
    func time(_ seconds: Int64) -> JSON { .string(RFC3339.millisecondString(from: Date(timeIntervalSince1970: TimeInterval(seconds)))) }
    var filter: [(String, JSON)] = [("user_id", .string(subscription.userID))]
    if let direction = subscription.direction { filter.append(("direction", .string(direction))) }
    if let keyword = subscription.keyword { filter.append(("keyword", .string(keyword))) }
    var fields: [(String, JSON)] = [
      ("subscription_id", .string(subscription.id)), ("event_type", .string(subscription.eventType)), ("filter", .object(filter)),
      ("created_at", time(subscription.created)), ("updated_at", time(subscription.updated)),
    ]
    if let tag = subscription.tag { fields.append(("tag", .string(tag))) }
    if let webhook = subscription.webhookID { fields.append(("webhook_id", .string(webhook))) }
    return .object(fields)
  }
}
