import Foundation
import OAuth1
import TestSupport
import Testing
import XAPI

/// The README's "Fetch a user's tweets" sample, run against the X sandbox over loopback. The lines between
/// the markers are the README's text (the test checks it); only the base URL differs.
func printRecentTweets(baseURL: URL = XClient.defaultBaseURL) async throws -> [String] {
  var printed: [String] = []
  func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }
  // README sample begins
  // Your app's consumer key and secret and the user's access token and secret
  // (here: those of the X sandbox, `tweets --sandbox`, which the tests serve).
  let client = XClient(
    authentication: .oauth1(
      consumer: Credentials(key: "sandbox-consumer-key", secret: "sandbox-consumer-secret"),
      token: Credentials(key: "1001-sandbox-access-token", secret: "sandbox-access-token-secret")),
    baseURL: baseURL)

  let user = try await client.v2.user(username: "swift_lang")
  for try await tweet in client.v2.userTweets(userID: user.id).tweets(limit: 25) {
    print(tweet.createdAt ?? Date.distantPast, "@\(tweet.author?.username ?? "?")", tweet.text)
  }
  print("requests left in this window:", client.rateLimits.last?.remaining ?? 0)
  // README sample ends
  return printed
}

@Suite("README: fetch a user's tweets", .sandboxChecks, .tags(.peers), .tier(.peers))
struct ReadmeXSampleTests {
  @Test func theSampleRuns() async throws {
    let server = try await VerifiedSandbox.start()
    let lines = try await printRecentTweets(baseURL: server.baseURL)
    #expect(lines.count == 26)
    #expect(lines.dropLast().allSatisfy { $0.contains("@swift_lang") })
    #expect(lines.last?.hasPrefix("requests left in this window: ") == true)
  }

  @Test func theReadmeShowsThisCode() throws {
    let sample = try DocumentedSample(
      in: #filePath, from: "// README sample begins\n", to: "  // README sample ends", replacing: [(",\n    baseURL: baseURL)", ")")])
    #expect(try sample.documentsNotShowingIt(["README.md"]).isEmpty, "README.md's X sample differs from this test's code")
  }
}
