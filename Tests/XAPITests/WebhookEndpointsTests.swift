import Foundation
import NetworkClient
import NetworkClientTesting
import Testing
import XAPI

/// X's webhook management against a stub transport: each request as X's specification
/// (`Tests/Specs/x-openapi-2.166.json`) describes it, and each answer in both the forms of the
/// specification and of X's pages (x-api/webhooks/quickstart.mdx).
@Suite("X: webhook management")
struct WebhookEndpointsTests {
  static func client(_ answers: [StubTransport.Reply]) -> (XClient, StubTransport) {
    let stub = StubTransport(answers)
    return (XClient(authentication: .bearer("app-token"), transport: stub, retry: nil), stub)
  }

  @Test("register: POST /2/webhooks with {url}; the webhook read under data (X's pages) or at the top (the specification)")
  func register() async throws {
    let (client, stub) = Self.client([
      .json(#"{"data":{"id":"1234567890","url":"https://example.com/webhook","valid":true,"created_at":"2025-01-15T12:00:00.000Z"}}"#),
      .json(#"{"id":"1146654567674912769","url":"https://example.com/w","valid":false,"created_at":"2025-01-15T12:00:00.000Z"}"#),
    ])
    let first = try await client.v2.registerWebhook(url: "https://example.com/webhook")
    #expect(first == XWebhookConfig(id: "1234567890", url: "https://example.com/webhook", valid: true, createdAt: first.createdAt))
    #expect(first.createdAt == ISO8601DateFormatter().date(from: "2025-01-15T12:00:00Z"))
    let second = try await client.v2.registerWebhook(url: "https://example.com/w")
    #expect(second.id == "1146654567674912769" && !second.valid)
    let request = try #require(stub.requests.first)
    #expect(request.method == .post && request.url.path == "/2/webhooks" && request.headers["Authorization"] == "Bearer app-token")
    #expect(try JSONSerialization.jsonObject(with: request.body ?? Data()) as? [String: String] == ["url": "https://example.com/webhook"])
  }

  @Test("list, re-check, delete: their paths and methods; an empty list is []")
  func listRecheckDelete() async throws {
    let (client, stub) = Self.client([
      .json(#"{"data":[{"created_at":"2025-01-15T12:00:00.000Z","id":"1","url":"https://a.example/w","valid":true}],"meta":{"result_count":1}}"#),
      .json(#"{"data":[],"meta":{"result_count":0}}"#), .json(#"{"meta":{"result_count":0}}"#),
      .json(#"{"data":{"attempted":true}}"#), .json(#"{"data":{"valid":true}}"#), .json(#"{"data":{"deleted":true}}"#),
    ])
    #expect(try await client.v2.webhooks().map(\.id) == ["1"])
    #expect(try await client.v2.webhooks().isEmpty)
    #expect(try await client.v2.webhooks().isEmpty)
    #expect(try await client.v2.recheckWebhook(id: "1"))
    #expect(try await client.v2.recheckWebhook(id: "1"))
    #expect(try await client.v2.deleteWebhook(id: "1"))
    let requests = stub.requests
    #expect(requests[0].method == .get && requests[0].url.path == "/2/webhooks")
    #expect(requests[0].url.query?.contains("webhook_config.fields=created_at") == true)
    #expect(requests[3].method == .put && requests[3].url.path == "/2/webhooks/1")
    #expect(requests[5].method == .delete && requests[5].url.path == "/2/webhooks/1")
  }

  @Test("an id is one path segment, whatever it holds")
  func idIsOneSegment() async throws {
    let (client, stub) = Self.client([.json(#"{"data":{"deleted":false}}"#)])
    #expect(try await client.v2.deleteWebhook(id: "../2/tweets/1") == false)
    let path = try #require(stub.requests.first?.url.absoluteString)
    #expect(path.hasSuffix("/2/webhooks/..%2F2%2Ftweets%2F1"), "\(path)")
  }

  @Test("replay: POST /2/webhooks/replay with the window to the minute in UTC")
  func replay() async throws {
    let (client, stub) = Self.client([.json(#"{"job_id":"1915510368169844736","created_at":"2025-04-24T20:57:15.242Z"}"#)])
    let start = try #require(ISO8601DateFormatter().date(from: "2025-04-24T20:00:59Z"))
    let job = try await client.v2.replayWebhookEvents(webhookID: "1146654567674912769", from: start, to: start.addingTimeInterval(3600))
    #expect(job.id == "1915510368169844736" && job.createdAt != nil)
    let request = try #require(stub.requests.first)
    #expect(request.method == .post && request.url.path == "/2/webhooks/replay")
    let body = try JSONSerialization.jsonObject(with: request.body ?? Data()) as? [String: String]
    #expect(body == ["webhook_id": "1146654567674912769", "from_date": "202504242000", "to_date": "202504242100"])
  }
}
