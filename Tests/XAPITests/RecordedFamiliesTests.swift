import Foundation
import NetworkClient
import NetworkClientTesting
import OAuth1
import TestSupport
import Testing
import XAPI

/// The typed methods of issue #44's families on real answers X sent to tweepy's test suite
/// (its cassettes, converted: `Tests/XAPITests/Recordings/PROVENANCE.md`), replayed through
/// `XClient`: blocked and muted accounts, liking users, reposters.
@Suite("Real recorded X answers of the users and engagement families")
struct RecordedFamiliesTests {
  func client(_ name: String) throws -> XClient {
    let file = PackagePaths.root.appendingPathComponent("Tests/XAPITests/Recordings/\(name).json")
    let replay = ReplayTransport(try Cassette(contentsOf: file), matching: .methodAndPath)
    return XClient(
      authentication: .oauth1(consumer: Credentials(key: "k", secret: "s"), token: Credentials(key: "t", secret: "u")),
      baseURL: URL(string: "https://api.twitter.com")!, transport: replay, retry: nil)
  }

  @Test func blockedAndMutedAccounts() async throws {
    let me = "1072250532645998596"
    let blocked = try #require(try await client("v2-users-blocking-tweepy").v2.blocking(userID: me).firstPage())
    #expect(blocked.users.map(\.username) == ["TwitterSupport"] && blocked.next == nil)
    let muted = try #require(try await client("v2-users-muting-tweepy").v2.muting(userID: me).firstPage())
    #expect(muted.users.map(\.id) == ["17874544"] && muted.users.first?.name == "Twitter Support")
  }

  @Test func likingUsersAndReposters() async throws {
    let likers = try #require(try await client("v2-tweet-liking-users-tweepy").v2.likingUsers(tweetID: "1293593516040269825").firstPage())
    #expect(likers.users.count == 43 && likers.next == nil, "one page, meta.result_count 43 and no next_token")
    #expect(likers.users.first?.username == "DanLimmert" && likers.users.first?.name == "Dan Limmert \u{1F1FA}\u{1F1F2}\u{1F1E8}\u{1F1E6} \u{1F30A}")
    let reposters = try #require(try await client("v2-tweet-retweeted-by-tweepy").v2.repostedBy(tweetID: "1415348607813832708").firstPage())
    #expect(reposters.users.count == 38 && reposters.users.first?.username == "iamsury71020583")
  }
}
