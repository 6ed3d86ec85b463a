import Foundation
import NetworkClient
import NetworkClientTesting
import OAuth1
import OAuthNetworking
import TestSupport
import Testing
import XAPI

/// `RecordingTransport` records real exchanges with the X sandbox over loopback (signed, paged, a token
/// answer), redacting secrets as it writes; `ReplayTransport` answers the same calls from the
/// cassette alone, with the same results.
@Suite("Record and replay", .sandboxChecks, .tags(.peers), .tier(.peers))
struct RecordReplayTests {
  @Test func recordedWithoutSecretsAndReplayedAlike() async throws {
    let server = try await VerifiedSandbox.start()
    let recorder = RecordingTransport(URLSessionTransport())
    let live = XClient(
      authentication: .oauth1(consumer: fixtureConsumer, token: fixtureToken), baseURL: server.baseURL, transport: recorder, retry: nil)
    let me = try await live.v2.me()
    let pages = try await live.v2.userTweets(userID: me.id, limit: 150).collect()
    let lookup = try await live.v2.tweets(ids: pages[0].tweets.prefix(3).map(\.id))
    let flow = OAuthFlow(baseURL: server.baseURL, consumer: fixtureConsumer, transport: recorder)
    let temporary = try await flow.requestToken(callback: "oob")

    let file = FileManager.default.temporaryDirectory.appendingPathComponent("cassette-\(UUID().uuidString).json")
    defer { try? FileManager.default.removeItem(at: file) }
    try recorder.save(to: file)
    let text = try String(contentsOf: file, encoding: .utf8)
    for secret in [
      VerifiedSandbox.consumerSecret, VerifiedSandbox.accessTokenSecret, VerifiedSandbox.accessToken, temporary.credentials.secret,
      "oauth_signature=",
    ] {
      #expect(!text.contains(secret), "the cassette holds \(secret.prefix(6))…")
    }
    #expect(text.contains(#""Authorization" : "<redacted>""#))
    let cassette = try Cassette(contentsOf: file)
    #expect(cassette.interactions.count == 5)
    #expect(cassette.interactions.last?.response.body?.contains("oauth_token_secret=<redacted>") == true)

    let replayed = XClient(
      authentication: .oauth1(consumer: fixtureConsumer, token: fixtureToken), baseURL: server.baseURL, transport: ReplayTransport(cassette),
      retry: nil)
    await server.stopAndWait()  // nothing may reach it now
    #expect(try await replayed.v2.me() == me)
    let again = try await replayed.v2.userTweets(userID: me.id, limit: 150).collect()
    #expect(again.map(\.tweets) == pages.map(\.tweets))
    #expect(again.map(\.body) == pages.map(\.body))
    #expect(try await replayed.v2.tweets(ids: pages[0].tweets.prefix(3).map(\.id)).tweets == lookup.tweets)
    // A request that was not recorded fails, naming itself.
    await #expect {
      _ = try await replayed.v2.tweets(ids: ["1"])
    } throws: { error in
      "\(error)".contains("no recorded answer for GET")
    }
  }
}
