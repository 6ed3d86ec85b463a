import Foundation
import NetworkClient
import OAuth1
import TestSupport
import Testing
import XAPI

/// X's errors, produced by the X sandbox, surfacing as the right cases.
@Suite("X: errors", .sandboxChecks, .tags(.peers), .tier(.peers))
struct ErrorTests {
  @Test func tamperedSecretsAreRejectedByTheServer() async throws {
    let server = try await VerifiedSandbox.start()
    let wrongConsumer = server.client(consumer: Credentials(key: VerifiedSandbox.consumerKey, secret: "tampered"))
    let wrongToken = server.client(token: Credentials(key: VerifiedSandbox.accessToken, secret: "tampered"))
    for client in [wrongConsumer, wrongToken] {
      await #expect {
        try await client.v1.verifyCredentials()
      } throws: { error in
        guard case .couldNotAuthenticate(let message) = error as? XError else { return false }
        return message == "Could not authenticate you."
      }
      await #expect {
        try await client.v2.me()
      } throws: { error in
        // v2 answers a bare 401 "Unauthorized": no code to say why.
        if case .unauthorized = error as? XError { return true }
        return false
      }
    }
    let stats = try await server.stats()
    #expect(stats.rejected == 4 && stats.verified == 0)
    #expect(!"\(XError.couldNotAuthenticate(message: "x"))".contains("tampered"))
  }

  @Test func aRevokedTokenIsCode89() async throws {
    let server = try await VerifiedSandbox.start()
    try await server.revoke(token: VerifiedSandbox.accessToken)
    await #expect {
      try await server.client().v1.verifyCredentials()
    } throws: { error in
      if case .invalidOrExpiredToken = error as? XError { return true }
      return false
    }
  }

  @Test func aSkewedClockIsCode135WithTheMeasuredSkew() async throws {
    let server = try await VerifiedSandbox.start()
    try await server.skewClock(by: 3600)
    do {
      _ = try await server.client().v2.me()
      Issue.record("must fail")
    } catch {
      guard case .timestampOutOfBounds(let skew) = error else {
        Issue.record("\(error)")
        return
      }
      let measured = try #require(skew)
      // Measured from the response's Date header when the answer is read: a loaded machine
      // may read it late, so the bound is loose; the message must carry the measured value.
      #expect(abs(measured - 3600) < TestTiming.seconds(60))
      #expect(error.description.contains(String(format: "X's clock is %+.0f s", measured)), "\(error.description)")
    }
  }

  @Test func rateLimitsWithTheResetTime() async throws {
    let server = try await VerifiedSandbox.start()
    try await server.script("/2/users/me", [["status": 429, "reset_in": 600]])
    do {
      _ = try await server.client().v2.me()
      Issue.record("must be rate limited")
    } catch {
      guard case .rateLimited(let reset, let limit) = error else {
        Issue.record("\(error)")
        return
      }
      let wait = try #require(reset).timeIntervalSinceNow
      #expect(wait > 600 - TestTiming.seconds(60) && wait <= 601)
      #expect(limit?.remaining == 0)
    }
  }

  @Test func aRetryWaitsOutAShortRateLimit() async throws {
    let server = try await VerifiedSandbox.start()
    // X's reset is a whole second: 2 s ahead is more than 1 s ahead of any moment of the
    // exchange (with 1 s, a loaded run's wait was 0.39 s, rightly, to a reset 0.39 s away).
    try await server.script("/2/users/me", [["status": 429, "reset_in": 2], ["status": 503]])
    let client = server.client(retry: RetryBehavior(maxAttempts: 3, maxTotalWait: 10, baseDelay: 0.1))
    let started = Date()
    #expect(try await client.v2.me().username == "sandbox_user")
    #expect(Date().timeIntervalSince(started) >= 0.9)
    let stats = try await server.stats()
    #expect(stats.verified == 3, "each attempt was signed afresh and verified")
  }

  @Test func aRealRateLimitWindowRunsOut() async throws {
    let server = try await VerifiedSandbox.start()
    try await server.setRemaining("/1.1/statuses/show.json", 1)
    let client = server.client()
    let tweet = try #require(try await client.v1.userTimeline(limit: 1).tweets().collect().first)
    _ = try await client.v1.show(id: tweet.id)
    #expect(client.rateLimits.rateLimit(forPath: "/1.1/statuses/show.json")?.remaining == 0)
    await #expect {
      try await client.v1.show(id: tweet.id)
    } throws: { error in
      if case .rateLimited = error as? XError { return true }
      return false
    }
  }

  @Test func responsesThatAreNotTheAPIsJSON() async throws {
    let server = try await VerifiedSandbox.start()
    let client = server.client()
    // An unknown route: an HTML 404 page.
    do {
      _ = try await client.raw(Request<HTTPResponse>(path: "2/tweets/counts/everything"))
      Issue.record("must fail")
    } catch {
      guard case .notFound = error else {
        Issue.record("\(error)")
        return
      }
    }
    // An HTML error page from a proxy, invalid JSON, a truncated body.
    try await server.script("/2/users/me", [["html": true], ["invalid_json": true], ["truncate": true]])
    for expected in ["unexpectedResponse(502)", "unexpectedResponse(200)", "network"] {
      do {
        _ = try await client.v2.me()
        Issue.record("must fail (\(expected))")
      } catch {
        switch (error, expected) {
        case (.unexpectedResponse(502, _, _), "unexpectedResponse(502)"), (.unexpectedResponse(200, _, _), "unexpectedResponse(200)"),
          (.network, "network"):
          break
        default:
          Issue.record("expected \(expected), got \(error)")
        }
      }
    }
  }

  @Test func errorMappingFromXsOwnBodies() {
    let request = HTTPRequest(method: .get, url: URL(string: "https://api.x.com/2/users/me")!)
    func map(_ status: Int, _ body: String) -> XError {
      XError(NetworkError.httpStatus(HTTPStatusFailure(response: HTTPResponse(statusCode: status, body: Data(body.utf8), request: request))))
    }
    let cases: [(XError, String)] = [
      (map(400, #"{"errors":[{"code":215,"message":"Bad Authentication data."}]}"#), "badAuthenticationData"),
      (map(403, #"{"errors":[{"message":"You currently have access to a subset of Twitter API v2 endpoints","code":453}]}"#), "accessLevel"),
      (
        map(
          403,
          #"{"client_id":"1","detail":"When authenticating requests to the Twitter API v2 endpoints, you must use keys and tokens from a Twitter developer App that is attached to a Project.","title":"Client Forbidden","reason":"client-not-enrolled","type":"https://api.twitter.com/2/problems/client-forbidden"}"#
        ), "clientNotEnrolled"
      ),
      (
        map(
          402,
          #"{"title":"CreditsDepleted","detail":"Your enrolled account does not have any credits to fulfill this request.","type":"https://api.twitter.com/2/problems/credits"}"#
        ), "creditsDepleted"
      ),
      (
        map(
          429,
          #"{"title":"UsageCapExceeded","detail":"Usage cap exceeded: Monthly product cap","type":"https://api.twitter.com/2/problems/usage-capped"}"#
        ), "creditsDepleted"
      ),
      (map(403, #"{"errors":[{"code":187,"message":"Status is a duplicate."}]}"#), "duplicate"),
      (
        map(
          400,
          #"{"errors":[{"parameters":{"max_results":["1"]},"message":"The `max_results` query parameter value [1] is not between 5 and 100"}],"title":"Invalid Request","detail":"One or more parameters to your request was invalid.","type":"https://api.twitter.com/2/problems/invalid-request"}"#
        ), "api"
      ),
    ]
    for (error, expected) in cases {
      let name = Mirror(reflecting: error).children.first?.label
      #expect(name == expected, "\(error)")
      #expect(!error.description.contains(".."), "\(error)")
      #expect(error.description.count > 40)
    }
  }
}
