import Foundation
import NetworkClient
import OAuth1
import OAuthNetworking
import TestSupport
import Testing
import XAPI

/// The whole story over real HTTP: request token → PIN → access token → paged timeline, with
/// every signature checked by oauthlib in the proxy in front of the X sandbox.
@Suite("X: PIN login and timeline, end to end", .sandboxChecks, .tags(.peers), .tier(.peers))
struct LoginAndTimelineTests {
  @Test func pinLoginThenThePagedTimeline() async throws {
    let server = try await VerifiedSandbox.start()
    let login = XLogin(consumer: fixtureConsumer, baseURL: server.baseURL)
    let pending = try await login.start()
    #expect(pending.authorizeURL.absoluteString.hasPrefix("\(server.baseURL.absoluteString)/oauth/authorize?oauth_token="))

    let page = try await server.browse(pending.authorizeURL)
    let pin = try #require(page.firstMatch(of: /<code id="oauth_pin">(\d{7})<\/code>/)?.1)
    let account = try await login.finish(pending, pin: String(pin))
    #expect(account.screenName == "sandbox_user" && account.userID == "1001")
    #expect(account.credentials.key.hasPrefix("1001-"))

    let client = server.client(token: account.credentials)
    let me = try await client.v2.me()
    #expect(me == XUser(id: "1001", username: "sandbox_user", name: "Sandbox User"))

    let pages = try await client.v2.userTweets(userID: me.id, options: TimelineOptions(maxResults: 100)).collect()
    let tweets = pages.flatMap(\.tweets)
    #expect(pages.count == 3)
    #expect(tweets.count == 250)
    #expect(Set(tweets.map(\.id)).count == 250)
    #expect(tweets.map(\.id) == tweets.map(\.id).sorted { UInt64($0)! > UInt64($1)! }, "newest first")
    #expect(tweets.allSatisfy { $0.author?.username == "sandbox_user" && $0.createdAt != nil && $0.metrics != nil })
    #expect(pages.last?.next == nil)

    let stats = try await server.stats()
    #expect(stats.rejected == 0)
    #expect(stats.verified >= 6, "request token, access token, me and three pages")
  }

  @Test func aWrongPinIsRefusedWithTheProvidersWords() async throws {
    let server = try await VerifiedSandbox.start()
    let login = XLogin(consumer: fixtureConsumer, baseURL: server.baseURL)
    let pending = try await login.start()
    do {
      _ = try await login.finish(pending, pin: "0000000")
      Issue.record("a wrong PIN must fail")
    } catch {
      guard case .rejected(_, let status, let message, _) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(status == 401)
      #expect(message == "Error processing your OAuth request: Invalid oauth_verifier parameter")
    }
  }

  @Test func aLimitStopsPagingCleanly() async throws {
    let server = try await VerifiedSandbox.start()
    let client = server.client()
    let tweets = try await client.v2.userTweets(userID: "1001", limit: 42).tweets().collect()
    #expect(tweets.count == 42)
    let few = try await client.v2.userTweets(userID: "1001").tweets(limit: 3).collect()
    #expect(few.count == 3, "below the API's minimum page size of 5, the page is trimmed")
    #expect(few.map(\.id) == Array(tweets.prefix(3)).map(\.id))
  }
}
