import Foundation
import NetworkClient
import NetworkClientTesting
import TestSupport
import Testing

@Suite("Request behaviors: hooks and their order")
struct BehaviorHookTests {
  @Test func everyHookRunsInTheDocumentedOrder() async throws {
    let log = EventLog()
    let stub = StubTransport([.status(200)])
    let client = client(
      stub,
      behavior: CombinedRequestBehavior([
        RecordingBehavior(name: "default1", log: log), RecordingBehavior(name: "default2", log: log),
      ]))
    _ = try await client.send(Request<Data>(path: "x", behavior: RecordingBehavior(name: "own", log: log)))
    #expect(
      log.events == [
        "default1.around.in", "default2.around.in", "own.around.in",
        "default1.modify", "default2.modify", "own.modify",
        "default1.beforeSend", "default2.beforeSend", "own.beforeSend",
        "default1.afterSuccess", "default2.afterSuccess", "own.afterSuccess",
        "own.around.out", "default2.around.out", "default1.around.out",
      ])
    #expect(stub.requests.first?.headers.values(for: "X-Modified-By") == ["default1", "default2", "own"])
  }

  @Test func signersModifyLastWhereverTheyAreListed() async throws {
    let log = EventLog()
    let stub = StubTransport([.status(200)])
    let signer = CountingSigner()
    let client = client(stub, behavior: CombinedRequestBehavior([signer, RecordingBehavior(name: "default", log: log)]))
    _ = try await client.send(Request<Data>(path: "x", behavior: RecordingBehavior(name: "own", log: log)))
    let authorization = try #require(stub.requests.first?.headers["Authorization"])
    // The signer saw the headers every other behavior added.
    #expect(authorization.hasSuffix("headers=X-Modified-By,X-Modified-By"))
  }

  @Test func additionalHeadersMergeAndTheRequestsOwnWin() async throws {
    let log = EventLog()
    let stub = StubTransport([.status(200)])
    let client = client(
      stub,
      behavior: CombinedRequestBehavior([
        RecordingBehavior(name: "a", log: log, headers: ["User-Agent": "a", "Accept": "a"]),
        RecordingBehavior(name: "b", log: log, headers: ["User-Agent": "b"]),
      ]))
    _ = try await client.send(Request<Data>(path: "x", headers: ["Accept": "mine"]))
    let sent = try #require(stub.requests.first)
    #expect(sent.headers["User-Agent"] == "b")
    #expect(sent.headers["Accept"] == "mine")
  }

  @Test func afterSuccessCanFailTheRequest() async throws {
    let log = EventLog()
    let stub = StubTransport([.status(200)])
    let client = client(
      stub,
      behavior: CombinedRequestBehavior([
        RecordingBehavior(name: "first", log: log, failAfterSuccess: true), RecordingBehavior(name: "second", log: log),
      ]))
    await #expect {
      try await client.send(Request<Data>(path: "x"))
    } throws: { error in
      guard case .rejected(let behavior, let underlying) = error as? NetworkError else { return false }
      return behavior == "RecordingBehavior" && underlying is RecordingBehavior.Refusal
    }
    // The first refusal stops the after-success chain; every behavior hears of the failure.
    #expect(!log.events.contains("second.afterSuccess"))
    #expect(log.events.filter { $0.hasSuffix(".afterFailure") } == ["first.afterFailure", "second.afterFailure"])
  }

  @Test func statusFailuresReachAfterFailureWithTheResponse() async throws {
    let log = EventLog()
    let stub = StubTransport([.status(404, headers: ["Content-Type": "text/html"], body: Data("<html>nope</html>".utf8))])
    let client = client(stub, behavior: RecordingBehavior(name: "b", log: log))
    do {
      _ = try await client.send(Request<Data>(path: "missing"))
      Issue.record("a 404 must throw")
    } catch {
      guard case .httpStatus(let failure) = error else {
        Issue.record("expected httpStatus, got \(error)")
        return
      }
      #expect(failure.statusCode == 404)
      #expect(failure.body == Data("<html>nope</html>".utf8))
      #expect(failure.description == "GET https://api.example.com/2/missing failed with HTTP 404: <html>nope</html>")
    }
    #expect(log.events.contains("b.afterFailure"))
    #expect(!log.events.contains("b.afterSuccess"))
  }

  @Test func aroundCanAnswerWithoutSendingAndReplaceResponses() async throws {
    struct Canned: RequestBehavior {
      func around(_ request: HTTPRequest, send: @Sendable (HTTPRequest) async throws -> HTTPResponse) async throws -> HTTPResponse {
        HTTPResponse(statusCode: 200, body: Data("cached".utf8), request: request)
      }
    }
    let stub = StubTransport()
    let body = try await client(stub, behavior: Canned()).send(Request<Data>(path: "x"))
    #expect(body == Data("cached".utf8))
    #expect(stub.requests.isEmpty)
  }

  @Test func transportFailuresAreTyped() async throws {
    let stub = StubTransport([.failure(URLError(.cannotConnectToHost))])
    await #expect {
      try await client(stub).send(Request<Data>(path: "x"))
    } throws: { error in
      guard case .transport(let failure) = error as? NetworkError else { return false }
      return failure.requestLine == "GET https://api.example.com/2/x" && (failure.underlying as? URLError)?.code == .cannotConnectToHost
        && failure.kind == .refused && failure.attempts == 1
    }
  }

  @Test func decodingFailuresNameThePathAndShowTheBody() async throws {
    struct Tweet: Decodable, Sendable {
      let id: String
      let text: String
    }
    struct Page: Decodable, Sendable { let data: [Tweet] }
    let stub = StubTransport([.json(#"{"data":[{"id":"1","text":"a"},{"id":2,"text":"b"}]}"#)])
    do {
      _ = try await client(stub).send(Request<Page>(path: "tweets"))
      Issue.record("must not decode")
    } catch {
      guard case .decoding(let failure) = error else {
        Issue.record("expected decoding, got \(error)")
        return
      }
      #expect(failure.codingPath == "data[1].id")
      #expect(failure.type == "Page")
      #expect(failure.excerpt?.hasPrefix(#"{"data":[{"id":"1""#) == true)
      #expect(failure.description.contains("is not a valid Page at data[1].id"))
    }
  }

  @Test func anHTMLPageWhereJSONWasExpectedIsADecodingFailureNotACrash() async throws {
    struct User: Decodable, Sendable { let id: String }
    let stub = StubTransport([.status(200, headers: ["Content-Type": "text/html"], body: Data("<html><body>Sign in to the Wi-Fi</body></html>".utf8))]
    )
    await #expect(throws: NetworkError.self) { try await client(stub).send(Request<User>(path: "users/me")) }
  }

  @Test func theFullResponseIsAvailable() async throws {
    let stub = StubTransport([
      .status(
        200, headers: ["x-rate-limit-limit": "900", "x-rate-limit-remaining": "899", "x-rate-limit-reset": "1700000000"], body: Data("{}".utf8))
    ])
    let response = try await client(stub).response(for: Request<Data>(path: "x"))
    #expect(response.response.rateLimit == RateLimit(limit: 900, remaining: 899, reset: Date(timeIntervalSince1970: 1_700_000_000)))
  }

  @Test func combinationsFlattenAndDropEmptyBehaviors() {
    let log = EventLog()
    let inner = CombinedRequestBehavior([RecordingBehavior(name: "a", log: log), EmptyRequestBehavior()])
    let outer = CombinedRequestBehavior([inner, RecordingBehavior(name: "b", log: log), EmptyRequestBehavior()])
    #expect(outer.behaviors.count == 2)
  }

  @Test func cancellingTheTaskCancelsTheExchange() async throws {
    // The answer would come after an hour: the cancellation must end the exchange long before.
    let stub = StubTransport([.delayed(TestTiming.seconds(3600), .status(200))])
    let task = Task { try await client(stub).send(Request<Data>(path: "slow")) }
    // Cancel once the exchange is in flight (the transport has the request). The bounds here
    // are hang bounds: a loaded run kept this test's tasks off the 2-core machine's cooperative
    // threads for over 200 s while other tests held them.
    let deadline = Date().addingTimeInterval(TestTiming.seconds(600))
    while stub.requests.isEmpty && Date() < deadline { try await Task.sleep(nanoseconds: 5_000_000) }
    #expect(stub.requests.count == 1)
    task.cancel()
    let started = Date()
    let result = await task.result
    // Far below the hour the transport would take.
    #expect(Date().timeIntervalSince(started) < TestTiming.seconds(600), "cancellation took \(Date().timeIntervalSince(started)) s")
    guard case .failure(let error) = result, case .cancelled = error as? NetworkError else {
      Issue.record("expected .cancelled, got \(result)")
      return
    }
  }
}
