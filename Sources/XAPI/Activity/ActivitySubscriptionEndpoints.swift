import Foundation
import NetworkClient

/// The X Activity API's subscriptions (`/2/activity/subscriptions`, x-api/activity/*), app-only
/// as X serves them: one event type of one account each, delivered on the activity stream
/// (``XClient/V2/activityStream(policy:onEvent:)``) or to a webhook.
extension XClient.V2 {
  /// Subscribes to `eventType` (X's dotted name: `post.create`, `follow.follow`...) of the account
  /// `userID` (`POST /2/activity/subscriptions`); `direction` keeps one side of a directional
  /// event (X refuses it for `mute.*` and `block.*`); with `webhookID` the events go to that
  /// webhook instead of the stream.
  ///
  /// ```swift
  /// let subscription = try await app.v2.createActivitySubscription(eventType: "post.create", userID: "2244994945")
  /// ```
  public func createActivitySubscription(
    eventType: String, userID: String, direction: XActivityDirection? = nil, keyword: String? = nil, tag: String? = nil,
    webhookID: String? = nil
  ) async throws(XError) -> XActivitySubscription {
    struct Body: Encodable, Sendable {
      let eventType: String
      let filter: XActivitySubscription.Filter
      let tag: String?
      let webhookID: String?
      enum CodingKeys: String, CodingKey {
        case eventType = "event_type"
        case filter, tag
        case webhookID = "webhook_id"
      }
    }
    struct Created: Decodable, Sendable { let subscription: XActivitySubscription? }
    let body = Body(
      eventType: eventType, filter: .init(userID: userID, direction: direction?.rawValue, keyword: keyword), tag: tag, webhookID: webhookID)
    let endpoint = XEndpoint.createActivitySubscription
    let answer = try await client.send(Request<V2Envelope<Created>>(method: endpoint.method, path: endpoint.filled(), body: .json(body)))
    guard let subscription = answer.value.data?.subscription else {
      // X answers 200 with only `errors` when it creates none (a duplicate, a filter it refuses).
      let words = answer.value.errors?.map(\.description).joined(separator: "; ")
      throw XError.api(status: 200, code: nil, message: words ?? "X's answer holds no subscription, and no error")
    }
    return subscription
  }

  /// The app's subscriptions (`GET /2/activity/subscriptions`), every page; none is an empty list.
  ///
  /// ```swift
  /// let watched = Set(try await app.v2.activitySubscriptions().compactMap(\.userID))
  /// ```
  public func activitySubscriptions() async throws(XError) -> [XActivitySubscription] {
    var all: [XActivitySubscription] = []
    var token: String?
    repeat {
      var query: [QueryItem] = [("max_results", "1000")]
      if let token { query.append(("pagination_token", token)) }
      let answer = try await client.send(
        Request<V2Envelope<[XActivitySubscription]>>(path: XEndpoint.getActivitySubscriptions.filled(), query: query)
      ).value
      all += answer.data ?? []
      token = answer.meta?.nextToken
    } while token != nil && all.count < 100_000
    return all
  }

  /// Changes a subscription's tag or webhook (`PUT /2/activity/subscriptions/{id}`): X takes no
  /// other change; a new filter is a new subscription.
  ///
  /// ```swift
  /// try await app.v2.updateActivitySubscription(id: subscription.id, webhookID: webhook.id)
  /// ```
  @discardableResult
  public func updateActivitySubscription(id: String, tag: String? = nil, webhookID: String? = nil) async throws(XError) -> XActivitySubscription? {
    struct Body: Encodable, Sendable {
      let tag: String?
      let webhookID: String?
      enum CodingKeys: String, CodingKey {
        case tag
        case webhookID = "webhook_id"
      }
    }
    struct Updated: Decodable, Sendable { let subscription: XActivitySubscription? }
    let endpoint = XEndpoint.updateActivitySubscription
    let request = Request<V2Envelope<Updated>>(
      method: endpoint.method, path: endpoint.filled(id), body: .json(Body(tag: tag, webhookID: webhookID)), isIdempotent: true)
    return try await client.send(request).value.data?.subscription
  }

  /// Deletes a subscription (`DELETE /2/activity/subscriptions/{id}`): `true` when X says it is
  /// deleted.
  ///
  /// ```swift
  /// try await app.v2.deleteActivitySubscription(id: "1146654567674912769")
  /// ```
  @discardableResult
  public func deleteActivitySubscription(id: String) async throws(XError) -> Bool {
    struct Answer: Decodable, Sendable { let deleted: Bool? }
    let endpoint = XEndpoint.deleteActivitySubscription
    let request = Request<V2Envelope<Answer>>(method: endpoint.method, path: endpoint.filled(id), isIdempotent: true)
    return try await client.send(request).value.data?.deleted ?? false
  }
}
