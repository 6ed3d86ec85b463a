import Foundation
import NetworkClient
import NetworkClientTesting
import OAuth1
import TestSupport
import Testing
import XAPI

/// The direct-message methods on the real answers X sent to tweepy's test suite (its cassette
/// `test_manage_and_lookup_direct_messages.yaml`, converted: `Recordings/PROVENANCE.md`): a
/// message to a user, one into the conversation X made, a group, and the three reads (one of
/// them X's empty page).
@Suite("Real recorded X answers of the direct-messages family")
struct RecordedDMTests {
  func client() throws -> XClient {
    let file = PackagePaths.root.appendingPathComponent("Tests/XAPITests/Recordings/v2-dm-manage-and-lookup-tweepy.json")
    let replay = ReplayTransport(try Cassette(contentsOf: file), matching: .methodAndPath)
    return XClient(
      authentication: .oauth1(consumer: Credentials(key: "k", secret: "s"), token: Credentials(key: "t", secret: "u")),
      baseURL: URL(string: "https://api.twitter.com")!, transport: replay, retry: nil)
  }

  @Test func sendToAUserIntoTheConversationAndToAGroupThenRead() async throws {
    let v2 = try client().v2
    let first = try await v2.sendDM(to: "750362064426721281", text: "Testing 1")
    #expect(first.conversationID == "750362064426721281-1072250532645998596" && first.eventID == "1585800613253812228")
    let second = try await v2.sendDM(conversationID: first.conversationID, text: "Testing 2")
    #expect(second.conversationID == first.conversationID && second.eventID == "1585800613752881156")
    let group = try await v2.createDMGroup(participantIDs: ["750362064426721281", "1324848235714736129"], text: "Testing")
    #expect(group.conversationID == "1585800614365339648" && group.eventID == "1585800614365339652")

    // X's answer to GET /2/dm_events right after: an empty page, {"meta":{"result_count":0}}.
    var all: [DMEvent] = []
    for try await page in v2.dmEvents() { all += page.events }
    #expect(all.isEmpty)
    let conversation = try #require(try await v2.dmEvents(conversationID: first.conversationID).firstPage())
    #expect(conversation.events.map(\.text) == ["Testing 2", "Testing 1"] && conversation.events.allSatisfy { $0.eventType == "MessageCreate" })
    #expect(conversation.next == .token("18LAA5G1SL0NR5OG0G00ZZZZ"), "X's next_token, even on a short page")
    let with = try #require(try await v2.dmEvents(with: "750362064426721281").firstPage())
    #expect(with.events.map(\.id) == ["1585800613752881156", "1585800613253812228"])
  }
}
