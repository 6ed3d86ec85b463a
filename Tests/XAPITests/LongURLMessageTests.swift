import Foundation
import NetworkClient
import NetworkClientTesting
import OAuth1
import Testing
import XAPI

/// A lookup of 100 tweets, rate-limited or failing: the wait and the errors name the endpoint
/// and a glimpse of its query, not its 2,000-character URL.
@Suite("X: messages about a long request")
struct LongURLMessageTests {
  let ids = (0..<100).map { String(1_799_999_999_999_952_000 + $0) }

  func client(_ stub: StubTransport, onWait: (@Sendable (RetryWait) -> Void)? = nil) -> XClient {
    XClient(
      authentication: .oauth1(consumer: Credentials(key: "ck", secret: "cs"), token: Credentials(key: "tk", secret: "ts")),
      transport: stub, retry: RetryBehavior(maxAttempts: 2, sleeper: RecordingSleeper(), onWait: onWait))
  }

  @Test func theRateLimitWaitNamesTheEndpoint() async throws {
    let reset = String(Int(Date().timeIntervalSince1970) + 30)
    let stub = StubTransport([
      .json(#"{"title":"Too Many Requests","status":429}"#, status: 429, headers: ["x-rate-limit-remaining": "0", "x-rate-limit-reset": reset]),
      .json(#"{"data":[]}"#),
    ])
    let lines = Locked<[String]>([])
    _ = try await client(stub) { wait in lines.withLock { $0.append(wait.requestLine) } }.v2.tweets(ids: ids)
    let line = try #require(lines.withLock { $0 }.first)
    #expect(line.count <= MessageURL.requestLineLimit && line.hasPrefix("GET https://api.x.com/2/tweets?ids=1799999999999952000,"), "\(line)")
    #expect(line.contains("…(100 values)") && !line.contains(ids[2]))
  }

  @Test func errorsNameTheEndpoint() async throws {
    let stub = StubTransport([
      .status(404, body: Data("<html>not here</html>".utf8)), .failure(URLError(.cannotConnectToHost)),
      .failure(URLError(.cannotConnectToHost)),
    ])
    let client = client(stub)
    for _ in 0..<2 {
      do {
        _ = try await client.v2.tweets(ids: ids)
        Issue.record("no error")
      } catch {
        #expect(error.description.contains("GET https://api.x.com/2/tweets?ids=") && !error.description.contains(ids[2]), "\(error)")
        #expect(error.description.count < 300, "\(error.description.count) characters: \(error)")
      }
    }
  }
}
