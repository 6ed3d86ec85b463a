import CommandLineSupport
import Foundation
import OAuth1
import OAuth1Redis
import TestSupport
import Testing

/// The LTI 1.1 tool of the article "Sharing nonces across processes", compiled and run against
/// a redis-server. The lines between the markers are the article's text (a test checks it); only
/// the Redis URL differs, so that the test does not depend on the environment.
func ltiToolSample(redisURL: String, platforms: any OAuthCredentialLookup) throws -> (String, Data) async -> (status: Int, body: String) {
  // Article sample begins
  // At start-up. The URL (with its password) from the environment, not from the code.
  let nonces = try RedisNonceStore(
    url: redisURL,
    poolSize: 16,  // the launches you verify at once; more wait for a free connection
    window: 600)  // 2 × maxClockSkew
  var options = OAuthVerifier.Options(allowedSignatureMethods: [.hmacSHA1])
  options.publicURL = .origin("https://tool.example.edu")
  let verifier = OAuthVerifier(credentials: platforms, nonceStore: nonces, options: options)

  // For each launch: a form POSTed by the learning platform.
  func launch(url receivedURL: String, form: Data) async -> (status: Int, body: String) {
    do {
      let launch = try await verifier.verify(
        OAuthRequest(method: "POST", url: receivedURL, body: form, contentType: "application/x-www-form-urlencoded"),
        authorization: nil)  // LTI sends the protocol parameters as form fields
      let userID = launch.parameters.first { $0.name == "user_id" }?.value ?? "?"
      return (200, "Welcome, \(userID)")
    } catch {
      print("LTI launch refused: \(error)")  // temporarily_unavailable includes Redis's error
      let answer = error.response(realm: "tool.example.edu")  // 400, 401, or 503 while Redis is down
      return (answer.status, answer.body)
    }
  }
  // Article sample ends
  return launch
}

@Suite("Article: an LTI 1.1 tool with RedisNonceStore", .tags(.redis), .tier(.redis), .redisServer)
struct LTIToolSampleTests {
  /// Two instances of the tool share one Redis: a launch replayed to the other is refused;
  /// with Redis stopped, launches are refused with 503.
  @Test func twoInstancesRefuseAReplayedLaunch() async throws {
    let redis = try LocalRedisServer()
    let platforms = InMemoryCredentialLookup(consumers: ["lms-key": OAuthConsumer(secret: "lms-secret")])
    let first = try ltiToolSample(redisURL: redis.url, platforms: platforms)
    let second = try ltiToolSample(redisURL: redis.url, platforms: platforms)
    let form = OAuthRequest(
      method: "POST", url: "https://tool.example.edu/launch", body: Data("lti_message_type=basic-lti-launch-request&user_id=u-42".utf8),
      contentType: "application/x-www-form-urlencoded")
    // Dated 250 s ahead (the verifier accepts ±300 s): a run slowed down by a sanitizer can take
    // minutes between the launch and its replay (385 s once under ThreadSanitizer), and the
    // replay must be refused for its nonce, not for its age.
    var ahead = OAuthSignatureGenerator.Options(signatureMethod: .hmacSHA1)
    ahead.timestamp = Int64(Date().timeIntervalSince1970) + 250
    let signed = try #require(
      try OAuthSignatureGenerator(consumerCredentials: Credentials(key: "lms-key", secret: "lms-secret"), request: form, options: ahead)
        .signedFormBody)
    // Received behind the proxy at a local address; verified against the public origin.
    let received = "http://127.0.0.1:8080/launch"
    #expect(await first(received, signed) == (200, "Welcome, u-42"))
    let replay = await second(received, signed)
    #expect(replay.status == 401 && replay.body.contains("oauth_problem=nonce_used"))
    redis.stop()
    let fresh = try #require(
      try OAuthSignatureGenerator(
        consumerCredentials: Credentials(key: "lms-key", secret: "lms-secret"), request: form, options: .init(signatureMethod: .hmacSHA1)
      ).signedFormBody)
    let down = await first(received, fresh)
    #expect(down.status == 503 && down.body.contains("oauth_problem=temporarily_unavailable"))
  }
}

/// The article shows the code run above (needs no Redis: it compares texts).
@Suite("Article: the LTI 1.1 sample is the code the tests run")
struct LTIToolSampleTextTests {
  @Test func theArticleShowsThisCode() throws {
    let sample = try DocumentedSample(
      in: #filePath, from: "// Article sample begins\n", to: "  // Article sample ends",
      replacing: [("url: redisURL,", #"url: ProcessInfo.processInfo.environment["OAUTH1_REDIS_URL"] ?? "redis://127.0.0.1:6379","#)])
    let article = "Sources/OAuth1Redis/OAuth1Redis.docc/SharingNoncesAcrossProcesses.md"
    #expect(try sample.documentsNotShowingIt([article]).isEmpty, "the article's LTI sample differs from this test's code")
  }
}
