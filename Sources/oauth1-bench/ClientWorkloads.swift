import Foundation
import NetworkClient

/// A transport that answers at once with a fixed response and records nothing, so that the
/// figures are the client's own cost.
struct ConstantTransport: HTTPTransport {
  let body = Data(#"{"id":"1","text":"hello"}"#.utf8)
  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    HTTPResponse(statusCode: 200, headers: ["Content-Type": "application/json"], body: body, request: request)
  }
}

struct Item: Decodable, Sendable {
  let id: String
  let text: String
}

/// The per-request overhead of `NetworkClient` on a transport that costs nothing.
enum ClientWorkloads {
  static let names = ["client/baseline: transport.send alone", "client/stub: no behavior, raw Data", "client/stub: no behavior, JSON decode", "client/stub: retry+metrics+header, JSON"]

  static func run(_ harness: inout Harness) async throws {
    let base = URL(string: "https://api.example.com/2")!
    let transport = ConstantTransport()
    let raw = HTTPRequest(method: .get, url: base.appendingPathComponent("items/1"))
    try await harness.measure("client/baseline: transport.send alone") {
      _ = try await transport.send(raw)
    }
    let bare = NetworkClient(baseURL: base, transport: transport)
    try await harness.measure("client/stub: no behavior, raw Data", baseline: "client/baseline: transport.send alone") {
      _ = try await bare.send(Request<Data>(path: "items/1", query: [("fields", "id,text")]))
    }
    try await harness.measure("client/stub: no behavior, JSON decode", baseline: "client/baseline: transport.send alone") {
      _ = try await bare.send(Request<Item>(path: "items/1", query: [("fields", "id,text")]))
    }
    let behaviors = NetworkClient(
      baseURL: base,
      behavior: CombinedRequestBehavior([RetryBehavior(), MetricsBehavior(), HeaderBehavior()]),
      transport: transport)
    try await harness.measure("client/stub: retry+metrics+header, JSON", baseline: "client/baseline: transport.send alone") {
      _ = try await behaviors.send(Request<Item>(path: "items/1", query: [("fields", "id,text")]))
    }
  }

  struct HeaderBehavior: RequestBehavior {
    var additionalHeaders: HTTPHeaders { ["User-Agent": "bench/1.0"] }
  }
}
