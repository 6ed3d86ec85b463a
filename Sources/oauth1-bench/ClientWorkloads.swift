import Foundation
import NetworkClient
import OAuth1
import OAuthNetworking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

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
  static let names = [
    "client/baseline: transport.send alone", "client/stub: no behavior, raw Data", "client/stub: no behavior, JSON decode",
    "client/stub: retry+metrics+header, JSON", "client/stub: OAuthRequestBehavior, JSON", "loopback/bare URLSession",
    "loopback/NetworkClient + OAuthRequestBehavior",
  ]

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
      behavior: CombinedRequestBehavior([RetryBehavior(), MetricsBehavior(), HeadersBehavior(["User-Agent": "bench/1.0"])]),
      transport: transport)
    try await harness.measure("client/stub: retry+metrics+header, JSON", baseline: "client/baseline: transport.send alone") {
      _ = try await behaviors.send(Request<Item>(path: "items/1", query: [("fields", "id,text")]))
    }
    let signed = NetworkClient(
      baseURL: base, behavior: OAuthRequestBehavior(consumer: TwitterDocRequest.consumer, token: TwitterDocRequest.token), transport: transport)
    try await harness.measure("client/stub: OAuthRequestBehavior, JSON", baseline: "client/baseline: transport.send alone") {
      _ = try await signed.send(Request<Item>(path: "items/1", query: [("fields", "id,text")]))
    }
    try await loopback(&harness)
  }

  /// One GET to a real HTTP server on 127.0.0.1 (`Tests/Peers/loopback_server.py`), bare
  /// `URLSession` against the client with signing, alternating in the same run.
  static func loopback(_ harness: inout Harness) async throws {
    guard ["loopback/bare URLSession", "loopback/NetworkClient + OAuthRequestBehavior"].contains(where: harness.selected) else { return }
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Tests/Peers/loopback_server.py")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-s", script.path, "--lifetime", "600"]
    let output = Pipe(), input = Pipe()
    process.standardOutput = output
    process.standardInput = input
    guard (try? process.run()) != nil else {
      print("loopback: python3 is needed for the loopback server; skipped")
      return
    }
    defer { process.terminate() }
    var text = ""
    while !text.contains("\n") {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      text += String(decoding: chunk, as: UTF8.self)
    }
    guard let port = text.split(separator: " ").last.flatMap({ Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) else {
      print("loopback: the server did not start; skipped")
      return
    }
    let url = URL(string: "http://127.0.0.1:\(port)/status/200")!
    let session = URLSessionTransport.makeSession()
    try await harness.measure("loopback/bare URLSession") {
      _ = try await session.data(for: URLRequest(url: url))
    }
    let client = NetworkClient(
      baseURL: URL(string: "http://127.0.0.1:\(port)")!,
      behavior: OAuthRequestBehavior(consumer: TwitterDocRequest.consumer, token: TwitterDocRequest.token),
      transport: URLSessionTransport(session: session))
    try await harness.measure("loopback/NetworkClient + OAuthRequestBehavior", baseline: "loopback/bare URLSession") {
      _ = try await client.send(Request<Data>(path: "status/200"))
    }
  }
}
