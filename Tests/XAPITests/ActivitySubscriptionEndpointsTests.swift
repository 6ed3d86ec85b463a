import Foundation
import NetworkClient
import NetworkClientTesting
import Testing
import XAPI

/// The X Activity API's subscriptions against a stub transport: each request's method, path and
/// body as X's specification 2.167 describes them (`CreateActivitySubscriptionRequest`,
/// `UpdateActivitySubscriptionRequest`), each answer read in the specification's shape.
@Suite("X: activity subscriptions")
struct ActivitySubscriptionEndpointsTests {
  static let subscription =
    #"{"subscription_id":"1146654567674912769","event_type":"follow.follow","filter":{"user_id":"2244994945","direction":"inbound"},"#
    + #""tag":"fans","created_at":"2026-11-29T03:00:00.000Z","updated_at":"2026-11-29T03:00:00.000Z"}"#

  @Test("create: POST with event_type, filter {user_id, direction} and tag; the subscription read from data.subscription")
  func create() async throws {
    let stub = StubTransport([
      .json(#"{"data":{"subscription":\#(Self.subscription)}}"#),
      .json(#"{"errors":[{"title":"Duplicate","detail":"exists","type":"about:blank"}]}"#),
    ])
    let client = XClient(authentication: .bearer("app-token"), transport: stub, retry: nil)
    let made = try await client.v2.createActivitySubscription(eventType: "follow.follow", userID: "2244994945", direction: .inbound, tag: "fans")
    #expect(made.id == "1146654567674912769" && made.eventType == "follow.follow" && made.userID == "2244994945")
    #expect(made.direction == .inbound && made.tag == "fans" && made.webhookID == nil)
    let request = try #require(stub.requests.first)
    #expect(request.method == .post && request.url.path == "/2/activity/subscriptions" && request.headers["Authorization"] == "Bearer app-token")
    let body = try #require(try JSONSerialization.jsonObject(with: request.body ?? Data()) as? [String: Any])
    #expect(body["event_type"] as? String == "follow.follow" && body["tag"] as? String == "fans" && body["webhook_id"] == nil)
    #expect(body["filter"] as? [String: String] == ["user_id": "2244994945", "direction": "inbound"])
    await #expect(throws: XError.self) { try await client.v2.createActivitySubscription(eventType: "post.create", userID: "1") }
  }

  @Test("list follows next_token; update sends only tag and webhook_id; delete reads deleted")
  func listUpdateDelete() async throws {
    let stub = StubTransport([
      .json(#"{"data":[\#(Self.subscription)],"meta":{"next_token":"7140dibdnow9c7btw4"}}"#), .json(#"{"data":[]}"#),
      .json(#"{"data":{"subscription":\#(Self.subscription),"total_subscriptions":1}}"#), .json(#"{"data":{"deleted":true}}"#),
    ])
    let client = XClient(authentication: .bearer("app-token"), transport: stub, retry: nil)
    #expect(try await client.v2.activitySubscriptions().map(\.id) == ["1146654567674912769"])
    let updated = try await client.v2.updateActivitySubscription(id: "1146654567674912769", webhookID: "42")
    #expect(updated?.id == "1146654567674912769")
    #expect(try await client.v2.deleteActivitySubscription(id: "1146654567674912769"))
    let requests = stub.requests
    #expect(
      requests.map { "\($0.method) \($0.url.path)" } == [
        "GET /2/activity/subscriptions", "GET /2/activity/subscriptions", "PUT /2/activity/subscriptions/1146654567674912769",
        "DELETE /2/activity/subscriptions/1146654567674912769",
      ])
    #expect(requests[1].url.query?.contains("pagination_token=7140dibdnow9c7btw4") == true)
    #expect(try JSONSerialization.jsonObject(with: requests[2].body ?? Data()) as? [String: String] == ["webhook_id": "42"])
  }
}
