import Foundation
import Testing
import XAPI
import XSandbox

/// What X sends today, as the sandbox serves it (issue #33): the bookmark and impression counts
/// X's specification requires in every post's `public_metrics`, and ids never given twice.
@Suite("XSandbox: today's post fields and ids")
struct SandboxTodaysPostsTests {
  @Test func everyPostCarriesTheTwoCounts() async throws {
    let client = XSandbox().client()
    let sources = [
      try await client.v2.userTweets(userID: "1001", limit: 20).tweets().collect(),
      try await client.v2.searchRecent(query: "a", limit: 20).tweets().collect(),
      try await client.v2.homeTimeline(userID: "1001", limit: 20).tweets().collect(),
    ]
    for tweets in sources {
      #expect(!tweets.isEmpty)
      #expect(tweets.allSatisfy { $0.metrics?.bookmarks != nil && $0.metrics?.impressions != nil })
      #expect(tweets.allSatisfy { $0.paidPartnership == false })
    }
  }

  @Test func aDeletedPostsIdIsNeverGivenAgain() async throws {
    let client = XSandbox().client()
    let first = try await client.v2.post(text: "one")
    #expect(try await client.v2.deleteTweet(id: first.id))
    let second = try await client.v2.post(text: "two")
    #expect(second.id != first.id)
    #expect(UInt64(second.id)! > UInt64(first.id)!)
  }
}
