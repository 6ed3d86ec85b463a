import Foundation
import NetworkClient
import NetworkClientTesting
import Testing

@Suite("RetryBehavior")
struct RetryBehaviorTests {
  let sleeper = RecordingSleeper()
  let now = Date(timeIntervalSince1970: 1_700_000_000)

  func retry(_ configure: (inout RetryBehavior) -> Void = { _ in }) -> RetryBehavior {
    let now = self.now
    var behavior = RetryBehavior(maxAttempts: 4, maxTotalWait: 100, baseDelay: 1, sleeper: sleeper, now: { now }, jitter: { 0 })
    configure(&behavior)
    return behavior
  }

  @Test(arguments: [429, 500, 502, 503, 504])
  func retriesPassingFailuresThenSucceeds(status: Int) async throws {
    let stub = StubTransport([.status(status), .status(status), .status(200, body: Data("ok".utf8))])
    let body = try await client(stub, behavior: retry()).send(Request<Data>(path: "x"))
    #expect(body == Data("ok".utf8))
    #expect(stub.requests.count == 3)
    #expect(sleeper.waits == [1, 2], "exponential backoff without jitter")
  }

  @Test func transportFailuresAreRetried() async throws {
    let stub = StubTransport([.failure(URLError(.networkConnectionLost)), .status(200)])
    _ = try await client(stub, behavior: retry()).send(Request<Data>(path: "x"))
    #expect(stub.requests.count == 2)
  }

  @Test func otherStatusesAreNotRetried() async throws {
    for status in [400, 401, 403, 404, 501, 505] {
      let stub = StubTransport([.status(status), .status(200)])
      await #expect(throws: NetworkError.self) { try await client(stub, behavior: retry()).send(Request<Data>(path: "x")) }
      #expect(stub.requests.count == 1, "\(status) must not be retried")
    }
  }

  @Test func honoursRetryAfterInSecondsAsADateAndTheRateLimitReset() async throws {
    let stub = StubTransport([
      .status(503, headers: ["Retry-After": "7"]),
      .status(503, headers: ["Retry-After": "Tue, 14 Nov 2023 22:13:40 GMT"]),  // now + 20 s
      .status(429, headers: ["x-rate-limit-reset": "1700000030"]),  // now + 30 s
      .status(200),
    ])
    _ = try await client(stub, behavior: retry()).send(Request<Data>(path: "x"))
    #expect(sleeper.waits == [7, 20, 30])
  }

  @Test func aResetInThePastMeansNow() async throws {
    let stub = StubTransport([.status(429, headers: ["x-rate-limit-reset": "1600000000"]), .status(200)])
    _ = try await client(stub, behavior: retry()).send(Request<Data>(path: "x"))
    #expect(sleeper.waits == [0])
  }

  @Test func givesUpAfterMaxAttemptsWithTheLastError() async throws {
    let stub = StubTransport([], fallback: .status(503, body: Data("down".utf8)))
    do {
      _ = try await client(stub, behavior: retry()).send(Request<Data>(path: "x"))
      Issue.record("must give up")
    } catch {
      #expect(error.statusCode == 503)
    }
    #expect(stub.requests.count == 4)
  }

  @Test func aWaitBeyondTheBudgetFailsAtOnceWithTheResetInTheError() async throws {
    let stub = StubTransport([.status(429, headers: ["x-rate-limit-reset": "1700000900"]), .status(200)])
    do {
      _ = try await client(stub, behavior: retry()).send(Request<Data>(path: "x"))
      Issue.record("a 900 s wait is over the 100 s budget")
    } catch {
      guard case .httpStatus(let failure) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(failure.rateLimit?.reset == Date(timeIntervalSince1970: 1_700_000_900))
    }
    #expect(stub.requests.count == 1)
    #expect(sleeper.waits.isEmpty)
  }

  @Test func nonIdempotentRequestsAreRetriedOnlyWhenAllowed() async throws {
    let stub = StubTransport([.status(503), .status(200)])
    await #expect(throws: NetworkError.self) { try await client(stub, behavior: retry()).send(Request<Data>(method: .post, path: "x")) }
    #expect(stub.requests.count == 1)

    let allowed = StubTransport([.status(503), .status(200)])
    _ = try await client(allowed, behavior: retry { $0.retryNonIdempotent = true }).send(Request<Data>(method: .post, path: "x"))
    #expect(allowed.requests.count == 2)

    let limited = StubTransport([.status(429), .status(200)])
    _ = try await client(limited, behavior: retry()).send(Request<Data>(method: .post, path: "x"))
    #expect(limited.requests.count == 2, "a 429 was not acted on, so a POST may be resent")

    let marked = StubTransport([.status(503), .status(200)])
    _ = try await client(marked, behavior: retry()).send(Request<Data>(method: .post, path: "x", isIdempotent: true))
    #expect(marked.requests.count == 2)
  }

  @Test func everyAttemptRunsTheWholeChainAndIsSignedAfresh() async throws {
    let log = EventLog()
    let signer = CountingSigner()
    let stub = StubTransport([.status(503), .status(503), .status(200)])
    let client = client(stub, behavior: CombinedRequestBehavior([retry(), RecordingBehavior(name: "b", log: log), signer]))
    _ = try await client.send(Request<Data>(path: "x"))
    #expect(signer.signatures == 3)
    #expect(stub.requests.map { $0.headers["Authorization"]?.prefix(16) } == ["Test signature=1", "Test signature=2", "Test signature=3"])
    #expect(stub.requests.allSatisfy { $0.headers.values(for: "X-Modified-By") == ["b"] }, "headers are not added twice")
    #expect(log.events.filter { $0 == "b.afterFailure" }.count == 2)
  }

  @Test func cancellationDuringTheWaitEndsTheRequest() async throws {
    let stub = StubTransport([], fallback: .status(503, headers: ["Retry-After": "30"]))
    let retry = RetryBehavior(maxAttempts: 3, maxTotalWait: 100)  // the real sleeper
    let task = Task { try await client(stub, behavior: retry).send(Request<Data>(path: "x")) }
    try await Task.sleep(nanoseconds: 100_000_000)
    task.cancel()
    let result = await task.result
    guard case .failure(let error) = result, case .cancelled = error as? NetworkError else {
      Issue.record("expected .cancelled, got \(result)")
      return
    }
    #expect(stub.requests.count == 1)
  }

  @Test func httpDatesInAllThreeForms() {
    let expected = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
    #expect(RetryAfter.httpDate("Sun, 06 Nov 1994 08:49:37 GMT") == expected)
    #expect(RetryAfter.httpDate("Sunday, 06-Nov-94 08:49:37 GMT") == expected)
    #expect(RetryAfter.httpDate("Sun Nov  6 08:49:37 1994") == expected)
    #expect(RetryAfter.httpDate("soon") == nil)
    #expect(RetryAfter.delay(in: ["Retry-After": "-5"], statusCode: 503) == 0)
    #expect(RetryAfter.delay(in: [:], statusCode: 503) == nil)
  }

  /// X's headers on a 503 of a limited endpoint with requests left: the reset is the end of the
  /// window, 900 s away, and must not become the wait (it did: `retrying in 900.0 s`).
  @Test func aServerErrorWithRequestsLeftWaitsTheBackoffNotTheReset() async throws {
    let window: HTTPHeaders = ["x-rate-limit-limit": "900", "x-rate-limit-remaining": "897", "x-rate-limit-reset": "1700000900"]
    let stub = StubTransport([.status(503, headers: window), .status(200)])
    _ = try await client(stub, behavior: retry()).send(Request<Data>(path: "x"))
    #expect(sleeper.waits == [1])

    let usedUp: HTTPHeaders = ["x-rate-limit-remaining": "0", "x-rate-limit-reset": "1700000030"]
    let exhausted = StubTransport([.status(503, headers: usedUp), .status(200)])
    let waits = RecordingSleeper()
    _ = try await client(exhausted, behavior: retry { $0.sleeper = waits }).send(Request<Data>(path: "x"))
    #expect(waits.waits == [30], "with nothing left, the reset is when requests are accepted again")
    #expect(
      HTTPStatusFailure(response: HTTPResponse(statusCode: 503, headers: window, request: HTTPRequest(method: .get, url: api)), now: now).retryAfter
        == nil)
  }

  @Test func backoffIsCappedPerWait() async throws {
    let stub = StubTransport([], fallback: .status(503))
    _ = try? await client(
      stub,
      behavior: retry {
        $0.maxAttempts = 6
        $0.maxBackoff = 4
        $0.jitter = { 0.99 }
      }
    ).send(Request<Data>(path: "x"))
    #expect(sleeper.waits.count == 5)
    #expect(sleeper.waits.allSatisfy { $0 <= 4 }, "\(sleeper.waits)")
    #expect(sleeper.waits.first.map { $0 > 1.4 } == true, "jitter adds up to half")
  }

  @Test func theFinalErrorStatesTheRealNumberOfAttempts() async throws {
    let stub = StubTransport([], fallback: .status(503))
    do {
      _ = try await client(stub, behavior: retry()).send(Request<Data>(path: "x"))
      Issue.record("must give up")
    } catch {
      #expect(error.attempts == 4)
      #expect(error.description.contains("failed with HTTP 503 after 4 attempts"), "\(error)")
    }
    let once = StubTransport([.status(503)])
    do {
      _ = try await client(once, behavior: retry()).send(Request<Data>(method: .post, path: "x"))
      Issue.record("a POST is not retried after a 503")
    } catch {
      #expect(error.attempts == 1 && !error.description.contains("attempts"), "\(error)")
    }
  }

  @Test func transportFailuresFollowWhatTheyMeanForResending() async throws {
    let refused = StubTransport([.failure(URLError(.cannotConnectToHost)), .status(200)])
    _ = try await client(refused, behavior: retry()).send(Request<Data>(method: .post, path: "x"))
    #expect(refused.requests.count == 2, "a refused connection sent nothing, so even a POST is sent again")

    for code in [URLError.Code.timedOut, .networkConnectionLost] {
      let post = StubTransport([.failure(URLError(code)), .status(200)])
      await #expect(throws: NetworkError.self) { try await client(post, behavior: retry()).send(Request<Data>(method: .post, path: "x")) }
      #expect(post.requests.count == 1, "the server may have acted on the POST (\(code))")
      let get = StubTransport([.failure(URLError(code)), .status(200)])
      _ = try await client(get, behavior: retry()).send(Request<Data>(path: "x"))
      #expect(get.requests.count == 2)
    }
    for code in [URLError.Code.cannotFindHost, .serverCertificateUntrusted] {
      let stub = StubTransport([.failure(URLError(code)), .status(200)])
      await #expect(throws: NetworkError.self) { try await client(stub, behavior: retry()).send(Request<Data>(path: "x")) }
      #expect(stub.requests.count == 1, "\(code) does not pass in seconds")
    }
  }

  @Test func timeoutsSayHowManyAttemptsOfHowLong() async throws {
    let stub = StubTransport([], fallback: .failure(URLError(.timedOut)))
    do {
      _ = try await client(stub, behavior: retry { $0.maxAttempts = 3 }).send(Request<Data>(path: "x", timeout: 2))
      Issue.record("must time out")
    } catch {
      #expect(error.description.contains("timed out after 3 attempts of 2 s each"), "\(error)")
    }
  }

  @Test func theDeadlineBoundsTheWholeExchange() async throws {
    let clock = SteppingClock(start: now)
    let stub = StubTransport([], fallback: .status(503))
    do {
      _ = try await client(
        stub,
        behavior: retry {
          $0.now = { clock.now }
          $0.sleeper = clock
          $0.deadline = 2.5
        }
      ).send(Request<Data>(path: "x"))
      Issue.record("must give up")
    } catch {
      #expect(error.attempts == 2)
    }
    #expect(clock.waits == [1], "a second wait of 2 s would end 3 s in, past the 2.5 s deadline")
  }
}

/// A clock that moves only when slept on.
final class SteppingClock: Sleeper, @unchecked Sendable {
  private let lock = NSLock()
  private var current: Date
  private var slept: [TimeInterval] = []
  init(start: Date) { current = start }
  var now: Date { lock.withLock { current } }
  var waits: [TimeInterval] { lock.withLock { slept } }
  func sleep(seconds: TimeInterval) async throws {
    lock.withLock {
      slept.append(seconds)
      current += seconds
    }
  }
}
