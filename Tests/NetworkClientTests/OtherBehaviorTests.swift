import Foundation
import NetworkClient
import NetworkClientTesting
import Testing

@Suite("Conditional requests, API verification, logging, metrics")
struct OtherBehaviorTests {
  @Test func conditionalRequestsTurnA304IntoTheCachedResponse() async throws {
    let conditional = ConditionalRequestBehavior()
    let stub = StubTransport([
      .status(200, headers: ["ETag": "\"v1\"", "Last-Modified": "Tue, 14 Nov 2023 22:13:20 GMT"], body: Data("full".utf8)),
      .status(304, headers: ["ETag": "\"v1\"", "x-rate-limit-remaining": "5"]),
    ])
    let client = client(stub, behavior: conditional)
    let first = try await client.response(for: Request<Data>(path: "items"))
    let second = try await client.response(for: Request<Data>(path: "items"))
    #expect(first.value == Data("full".utf8))
    #expect(second.value == Data("full".utf8))
    #expect(second.response.statusCode == 200)
    #expect(second.response.headers["x-rate-limit-remaining"] == "5", "headers of the 304 update the stored ones")
    #expect(stub.requests[0].headers["If-None-Match"] == nil)
    #expect(stub.requests[1].headers["If-None-Match"] == "\"v1\"")
    #expect(stub.requests[1].headers["If-Modified-Since"] == "Tue, 14 Nov 2023 22:13:20 GMT")
  }

  @Test func conditionalRequestsLeaveOtherMethodsAloneAndForgetOldEntries() async throws {
    let conditional = ConditionalRequestBehavior(capacity: 2)
    let stub = StubTransport([], fallback: .status(200, headers: ["ETag": "\"e\""]))
    let client = client(stub, behavior: conditional)
    for path in ["a", "b", "c"] { _ = try await client.send(Request<Data>(path: path)) }
    #expect(conditional.count == 2)
    _ = try await client.send(Request<Data>(method: .post, path: "c"))
    #expect(stub.requests.last?.headers["If-None-Match"] == nil)
    _ = try await client.send(Request<Data>(path: "a"))
    #expect(stub.requests.last?.headers["If-None-Match"] == nil, "a was evicted")
  }

  @Test func apiVerificationNeedsTheNonceEchoed() async throws {
    let echo = StubTransport(
      [],
      fallback: .handler { request in
        HTTPResponse(statusCode: 200, headers: ["X-Request-Nonce": request.headers["X-Request-Nonce"] ?? ""], request: request)
      })
    _ = try await client(echo, behavior: APIVerificationBehavior()).send(Request<Data>(path: "x"))
    _ = try await client(echo, behavior: APIVerificationBehavior()).send(Request<Data>(path: "x"))
    let nonces = echo.requests.compactMap { $0.headers["X-Request-Nonce"] }
    #expect(nonces.count == 2 && nonces[0] != nonces[1])

    let portal = StubTransport([.status(200, headers: ["Content-Type": "text/html"], body: Data("<html>Log in to the Wi-Fi</html>".utf8))])
    await #expect {
      try await client(portal, behavior: APIVerificationBehavior()).send(Request<Data>(path: "x"))
    } throws: { error in
      guard case .rejected(let behavior, let underlying) = error as? NetworkError else { return false }
      return behavior == "APIVerificationBehavior" && "\(underlying)".contains("captive portal")
    }
  }

  @Test func loggingRedactsCredentials() async throws {
    let lines = EventLog()
    let logging = LoggingBehavior(includeHeaders: true) { lines.add($0) }
    let stub = StubTransport([
      .status(200, headers: ["Set-Cookie": "session=SECRET-COOKIE"]),
      .status(401, body: Data("oauth_problem=token_rejected&oauth_token=SECRET-TOKEN".utf8)),
    ])
    let client = client(stub, behavior: logging)
    _ = try await client.send(
      Request<Data>(
        path: "cb", query: [("oauth_token", "SECRET-TOKEN"), ("oauth_verifier", "SECRET-VERIFIER"), ("page", "2")],
        headers: ["Authorization": "OAuth oauth_signature=\"SECRET-SIG\"", "Cookie": "a=SECRET-COOKIE"]))
    _ = try? await client.send(Request<Data>(path: "fail"))
    let text = lines.events.joined(separator: "\n")
    for secret in ["SECRET-TOKEN", "SECRET-VERIFIER", "SECRET-SIG", "SECRET-COOKIE"] {
      #expect(!text.contains(secret), "\(secret) leaked into the log:\n\(text)")
    }
    #expect(text.contains("→ GET https://api.example.com/2/cb?oauth_token=<redacted>&oauth_verifier=<redacted>&page=2"))
    #expect(text.contains("Authorization: <redacted>"))
    #expect(text.contains("← 200 GET https://api.example.com/2/cb"))
    #expect(text.contains("✗ GET https://api.example.com/2/fail"))
    #expect(text.contains("HTTP 401"))
  }

  @Test func metricsCountInFlightAndOutcomes() async throws {
    let metrics = MetricsBehavior()
    let stub = StubTransport([.delayed(2, .status(200)), .status(500)])
    let client = client(stub, behavior: metrics)
    let slow = Task { try await client.send(Request<Data>(path: "slow")) }
    // Look while the first request is in the transport.
    let deadline = Date().addingTimeInterval(10)
    while stub.requests.isEmpty && Date() < deadline { try await Task.sleep(nanoseconds: 5_000_000) }
    #expect(metrics.snapshot.inFlight == 1)
    _ = try await slow.value
    _ = try? await client.send(Request<Data>(path: "fails"))
    #expect(metrics.snapshot == MetricsBehavior.Snapshot(inFlight: 0, started: 2, succeeded: 1, failed: 1, attempts: 2))
  }
}
