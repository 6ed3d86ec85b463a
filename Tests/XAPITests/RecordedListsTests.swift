import Foundation
import NetworkClient
import NetworkClientTesting
import OAuth1
import TestSupport
import Testing
import XAPI

/// The list methods on real answers X sent to tweepy's test suite (its cassettes, converted:
/// `Tests/XAPITests/Recordings/PROVENANCE.md`): a lookup, members and followers with X's
/// `next_token`, owned, followed, member-of and pinned lists, and the whole management of a
/// list (create, add a member, pin, unpin, remove, update, delete; follow and unfollow).
@Suite("Real recorded X answers of the lists family")
struct RecordedListsTests {
  func client(_ name: String) throws -> XClient {
    let file = PackagePaths.root.appendingPathComponent("Tests/XAPITests/Recordings/\(name).json")
    let replay = ReplayTransport(try Cassette(contentsOf: file), matching: .methodAndPath)
    return XClient(
      authentication: .oauth1(consumer: Credentials(key: "k", secret: "s"), token: Credentials(key: "t", secret: "u")),
      baseURL: URL(string: "https://api.twitter.com")!, transport: replay, retry: nil)
  }

  @Test func lookupMembersAndFollowers() async throws {
    let list = try await client("v2-list-lookup-tweepy").v2.list(id: "84839422")
    #expect(list == XList(id: "84839422", name: "Official Twitter Accounts"))
    let members = try #require(try await client("v2-list-members-tweepy").v2.listMembers(listID: "84839422").firstPage())
    #expect(members.users.count == 100 && members.next == .token("4611686018799963893"))
    #expect(members.users.first?.username == "birdwatch")
    let followers = try #require(try await client("v2-list-followers-tweepy").v2.listFollowers(listID: "84839422").firstPage())
    #expect(followers.users.count == 100 && followers.next == .token("1681785793004588624"))
  }

  @Test func aUsersLists() async throws {
    let owned = try #require(try await client("v2-users-owned-lists-tweepy").v2.ownedLists(userID: "783214").firstPage())
    #expect(owned.lists.count == 11 && owned.lists.first == XList(id: "1207354259852820480", name: "Tweets by Twitter") && owned.next == nil)
    let followed = try #require(try await client("v2-users-followed-lists-tweepy").v2.followedLists(userID: "372575989").firstPage())
    #expect(followed.lists.map(\.name) == ["US Cities", "Offices & Culture"])
    let memberships = try #require(
      try await client("v2-users-list-memberships-tweepy").v2.listMemberships(userID: "783214", limit: 100).firstPage())
    #expect(memberships.lists.count == 86 && memberships.next == .token("1715319138678579468"))
    #expect(memberships.lists.contains { $0.name == "النصر" })
  }

  @Test func managingAListFromCreateToDelete() async throws {
    let v2 = try client("v2-lists-manage-and-pin-tweepy").v2
    let me = "1072250532645998596"
    let created = try await v2.createList(name: "Test List", isPrivate: true)
    #expect(created.id == "1460392296822812685" && created.name == "Test List")
    #expect(try await v2.addListMember(listID: created.id, userID: "783214"))
    #expect(try await v2.pinList(userID: me, listID: created.id))
    #expect(try await v2.pinnedLists(userID: me).map(\.id) == [created.id])
    #expect(try await v2.removeListMember(listID: created.id, userID: "783214"))
    #expect(try await v2.unpinList(userID: me, listID: created.id))
    #expect(try await v2.updateList(id: created.id, description: "Test List Description"))
    #expect(try await v2.deleteList(id: created.id))
    let follows = try client("v2-lists-follow-and-unfollow-tweepy").v2
    #expect(try await follows.followList(userID: me, listID: "84839422"))
    #expect(try await follows.unfollowList(userID: me, listID: "84839422"))
  }
}
