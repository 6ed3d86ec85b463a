import Foundation
import NetworkClient
import TestSupport
import Testing
import XAPI

/// X's monthly cap and an empty credit balance are no rate limit: waiting does not lift them.
/// A 429 `usage-capped` in the middle of a paged fetch, with X's rate-limit headers showing
/// requests left and a reset 900 s away, used to be waited on like a rate limit (`waiting 900 s
/// … for the limit to reset`), and the process hung (issue #30).
@Suite("X's usage cap and credits are not waited on", .sandboxChecks, .serialized)
struct UsageCapTests {
  static let usageCapped =
    #"{"title":"UsageCapExceeded","detail":"Usage cap exceeded: Monthly product cap","type":"https://api.twitter.com/2/problems/usage-capped","period":"Monthly","scope":"Product"}"#
  static let creditsDepleted =
    #"{"title":"CreditsDepleted","detail":"Your enrolled account does not have any credits to fulfill this request.","type":"https://api.twitter.com/2/problems/credits"}"#

  /// The window's headers as X sends them on an answer that is not a rate limit: requests left.
  static func headroom() -> [String: Any] {
    ["x-rate-limit-limit": 300, "x-rate-limit-remaining": 297, "x-rate-limit-reset": Int(Date().timeIntervalSince1970) + 900]
  }

  @Test(arguments: [(429, usageCapped), (402, creditsDepleted)])
  func aPagedFetchStopsAtOnceOnTheSecondPage(status: Int, body: String) async throws {
    let server = try await VerifiedSandbox.start()
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()
    try await server.reset()
    // The first page passes; the second meets the cap.
    try await server.script("/2/tweets/search/recent", [[:], ["status": status, "bare": true, "body": body, "headers": Self.headroom()]])
    // "a" matches 169 of the sandbox's posts: two pages of 100.
    let result = try await tweets.run(["search", "a", "--all", "--format", "jsonl"])
    let elapsed = result.duration
    #expect(result.status == 3, "\(result.stderr)")
    #expect(!result.stderr.contains("for the limit to reset"), "\(result.stderr)")
    #expect(!result.stderr.contains("retrying"), "\(result.stderr)")
    #expect(result.stderr.contains(status == 429 ? "Usage cap exceeded" : "credits"), "\(result.stderr)")
    // The bound catches a wait for the rate-limit reset (15 minutes), not a busy machine.
    #expect(elapsed < .seconds(TestTiming.seconds(60)), "\(elapsed)")
    // The page fetched before the cap was written.
    #expect(result.stdout.split(separator: "\n").count == 100)
    let answered = try await server.stats().requests.filter { $0.path == "/2/tweets/search/recent" }.map(\.status)
    #expect(answered == [200, status], "the capped request is sent once: \(answered)")
  }

  /// In the library: the retry policy of every `XClient` refuses to repeat them, whatever
  /// `RetryBehavior` the caller gave, while a plain 429 is still retried.
  @Test func xClientsRetryPolicyKnowsThem() {
    let request = HTTPRequest(method: .get, url: URL(string: "https://api.x.com/2/tweets/search/recent")!)
    let failure: (Int, String) -> NetworkError = { status, body in
      let headers = HTTPHeaders(Self.headroom().map { ($0.key, "\($0.value)") })
      return .httpStatus(HTTPStatusFailure(response: HTTPResponse(statusCode: status, headers: headers, body: Data(body.utf8), request: request)))
    }
    let retry = XClient.retryPolicy(RetryBehavior())
    #expect(retry.delay(after: failure(429, Self.usageCapped), attempt: 1, request: request) == nil)
    #expect(retry.delay(after: failure(402, Self.creditsDepleted), attempt: 1, request: request) == nil)
    #expect(
      retry.delay(
        after: failure(429, #"{"title":"Too Many Requests","detail":"Too Many Requests","type":"about:blank","status":429}"#), attempt: 1,
        request: request) != nil)
  }
}
