import Foundation
import NetworkClient
import OAuth1
import TestSupport
import Testing
import XAPI

/// Redirects from the X sandbox, which answers them at the edge (before authentication) and
/// has every signature it receives checked by oauthlib (the proxy in front of it): the library and `tweets` sign each hop
/// for its own URL, and send nothing of their credentials to another origin.
@Suite("Redirects against the X sandbox", .sandboxChecks, .serialized, .tags(.peers, .processes), .tier(.peers, .processes))
struct RedirectFollowingTests {
  static func client(_ base: URL) -> XClient {
    XClient(
      authentication: .oauth1(
        consumer: Credentials(key: VerifiedSandbox.consumerKey, secret: VerifiedSandbox.consumerSecret),
        token: Credentials(key: VerifiedSandbox.accessToken, secret: VerifiedSandbox.accessTokenSecret)),
      baseURL: base, retry: nil, timeout: 5)
  }

  @Test func aSameOriginRedirectIsSignedForTheNewURLByTheLibraryAndTheCLI() async throws {
    let server = try await VerifiedSandbox.start()
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()
    let moved = server.baseURL.appendingPathComponent("old")

    // A signed GET.
    try await server.reset()
    try await server.script("/old/", [["redirect": "/2/users/me", "keep_query": true]])
    #expect(try await Self.client(moved).v2.me().username == "sandbox_user")
    var stats = try await server.stats()
    #expect(stats.requests.map(\.path) == ["/old/2/users/me", "/2/users/me"])
    #expect(stats.requests.map(\.status) == [307, 200])
    #expect(stats.verified == 1 && stats.rejected == 0, "the second hop's signature verified for its own URL: \(stats.reasons)")

    // A signed form POST keeps its method and body through a 307, and is signed again.
    try await server.reset()
    try await server.script("/old/", [["redirect": "/1.1/statuses/update.json", "keep_query": true]])
    let posted = try await Self.client(moved).v1.updateStatus("Moved, and signed again")
    #expect(posted.text == "Moved, and signed again")
    stats = try await server.stats()
    #expect(stats.requests.map(\.method) == ["POST", "POST"] && stats.verified == 1 && stats.rejected == 0, "\(stats.reasons)")

    // A 303 after a POST: the answer is fetched with a GET, signed for its URL.
    try await server.reset()
    try await server.script("/old/", [["redirect": "/1.1/account/verify_credentials.json", "status": 303]])
    let seeOther = try await Self.client(moved).raw(
      Request<HTTPResponse>(method: .post, path: "1.1/statuses/update.json", body: .form([("status", "x")])))
    #expect(seeOther.request.method == .get && seeOther.request.body == nil && seeOther.statusCode == 200)
    stats = try await server.stats()
    #expect(stats.requests.map(\.method) == ["POST", "GET"] && stats.verified == 1, "\(stats.reasons)")

    // tweets, with --verbose saying where it was sent.
    try await server.reset()
    try await server.script("/old/", [["redirect": "/2/users/me", "keep_query": true]])
    let result = try await tweets.run(["whoami", "--verbose"], baseURL: moved.absoluteString)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stderr.contains("↪ 307: redirected from \(moved.absoluteString)/2/users/me to \(server.baseURL.absoluteString)/2/users/me"),
      "\(result.stderr)")
    #expect(try await server.stats().verified == 1)
    try TweetsCommandTests().expectNoSecrets(tweets)
  }

  @Test func anotherOriginReceivesNoCredentials() async throws {
    let server = try await VerifiedSandbox.start()
    let other = try await VerifiedSandbox.start()
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()
    let target = other.baseURL.absoluteString + "/2/users/me"

    try await server.reset()
    try await server.script("/2/users/me", [["redirect": target, "keep_query": true]])
    do {
      _ = try await Self.client(server.baseURL).v2.me()
      Issue.record("the other origin cannot authenticate a request without credentials")
    } catch {
      guard case .network(.httpStatus(let failure)) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(failure.statusCode == 401 && failure.lostCredentialsInRedirect)
    }

    try await server.script("/2/users/me", [["redirect": target, "keep_query": true]])
    let result = try await tweets.run(["whoami"])
    #expect(result.status == 1, "\(result.stderr)")
    #expect(
      result.stderr.contains("redirected from \(server.baseURL.absoluteString)/2/users/me to \(target), another origin, so without the credentials"),
      "\(result.stderr)")
    #expect(!result.stderr.contains("check the consumer key"), "not the misleading advice about keys")

    let seen = try await other.stats().requests
    #expect(seen.count == 2 && seen.allSatisfy { !$0.authorization }, "the other server's log: \(seen)")
  }

  @Test func aRedirectLoopEndsWithATypedError() async throws {
    let server = try await VerifiedSandbox.start()
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()
    try await server.reset()
    try await server.script("/2/users/me", Array(repeating: ["redirect": "/2/users/me"], count: 6))
    do {
      _ = try await Self.client(server.baseURL).v2.me()
      Issue.record("a loop must end")
    } catch {
      guard case .network(.redirect(let failure)) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(failure.reason == .tooMany(limit: 5))
    }
    #expect(try await server.stats().attempts("/2/users/me") == 6)

    try await server.script("/2/users/me", Array(repeating: ["redirect": "/2/users/me"], count: 6))
    let result = try await tweets.run(["whoami"])
    #expect(result.status == 1 && result.stderr.contains("more than 5 redirects"), "\(result.stderr)")
  }
}
