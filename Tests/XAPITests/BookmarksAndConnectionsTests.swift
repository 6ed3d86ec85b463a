import Foundation
import NetworkClient
import NetworkClientTesting
import Testing
import XAPI

/// The typed bookmarks and stream-connections endpoints against a stub transport: the requests
/// they send (method, path, query, JSON body) and X's answers as its specification shapes them.
@Suite("X: bookmarks and stream connections, typed")
struct BookmarksAndConnectionsTests {
  static func client(_ stub: StubTransport) -> XClient {
    XClient(authentication: .bearer("token"), baseURL: URL(string: "https://api.x.com")!, transport: stub, retry: nil)
  }

  static func body(_ request: HTTPRequest) -> [String: Any]? {
    request.body.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
  }

  @Test("bookmarks: paged list, add and remove with X's JSON, folders, a folder's ids")
  func bookmarks() async throws {
    let page = #"{"data":[{"id":"2","text":"b","edit_history_tweet_ids":["2"]}],"meta":{"result_count":1,"next_token":"n1"}}"#
    let last = #"{"data":[{"id":"1","text":"a","edit_history_tweet_ids":["1"]}],"meta":{"result_count":1}}"#
    let stub = StubTransport([
      .json(page), .json(last), .json(#"{"data":{"bookmarked":true}}"#), .json(#"{"data":{"bookmarked":false}}"#),
      .json(#"{"data":[{"id":"7","name":"Later"}]}"#), .json(#"{"data":[{"id":"2"},{"id":"1"}]}"#),
    ])
    let v2 = Self.client(stub).v2
    var ids: [String] = []
    for try await page in v2.bookmarks(userID: "42", options: TimelineOptions(maxResults: 1)) { ids += page.tweets.map(\.id) }
    #expect(ids == ["2", "1"])
    #expect(try await v2.addBookmark(userID: "42", tweetID: "5"))
    #expect(try await v2.removeBookmark(userID: "42", tweetID: "5"))
    #expect(try await v2.bookmarkFolders(userID: "42") == [BookmarkFolder(id: "7", name: "Later")])
    #expect(try await v2.bookmarkFolderPostIDs(userID: "42", folderID: "7") == ["2", "1"])

    let requests = stub.requests
    #expect(requests.map(\.method) == [.get, .get, .post, .delete, .get, .get])
    #expect(
      requests.map(\.url.path) == [
        "/2/users/42/bookmarks", "/2/users/42/bookmarks", "/2/users/42/bookmarks", "/2/users/42/bookmarks/5", "/2/users/42/bookmarks/folders",
        "/2/users/42/bookmarks/folders/7",
      ])
    #expect(requests[1].url.query?.contains("pagination_token=n1") == true)
    #expect(Self.body(requests[2])?["tweet_id"] as? String == "5" && requests[2].headers["Content-Type"] == "application/json")
  }

  @Test("connections: every field decoded, status and fields asked, kills with and without results, by uuid in a JSON body")
  func connections() async throws {
    let listed = #"""
      {"data":[{"id":"u-1","endpoint_name":"filtered_stream","client_ip":"10.0.0.1","connected_at":"2026-11-26T12:00:00.000Z",
      "disconnected_at":"2026-11-26T12:05:00Z","disconnect_reason":"terminated"}],"meta":{"result_count":1}}
      """#
    let stub = StubTransport([
      .json(listed), .json(#"{"data":{"successful_kills":1,"failed_kills":0,"results":[{"uuid":"u-1","success":true}]}}"#),
      .json(#"{"data":{"successful_kills":0,"failed_kills":0}}"#),
      .json(#"{"data":{"successful_kills":0,"failed_kills":1,"results":[{"uuid":"x","success":false,"error_message":"gone"}]}}"#),
    ])
    let v2 = Self.client(stub).v2
    let connections = try await v2.streamConnections(status: .all)
    let connection = try #require(connections.first)
    #expect(connection.id == "u-1" && connection.endpointName == "filtered_stream" && connection.clientIP == "10.0.0.1")
    #expect(connection.connectedAt == Date(timeIntervalSince1970: 1_795_694_400))
    #expect(connection.disconnectedAt == Date(timeIntervalSince1970: 1_795_694_700) && connection.disconnectReason == "terminated")
    let all = try await v2.terminateAllStreamConnections()
    #expect(all.successfulKills == 1 && all.results.first?.uuid == "u-1" && all.results.first?.success == true)
    #expect(try await v2.terminateStreamConnections(endpoint: "filtered_stream").results.isEmpty)
    let byID = try await v2.terminateStreamConnections(uuids: ["x"])
    #expect(byID.failedKills == 1 && byID.results.first?.errorMessage == "gone")

    let requests = stub.requests
    #expect(requests.map(\.method) == [.get, .delete, .delete, .delete])
    #expect(requests.map(\.url.path) == ["/2/connections", "/2/connections/all", "/2/connections/filtered_stream", "/2/connections"])
    let query = URLComponents(url: requests[0].url, resolvingAgainstBaseURL: false)?.queryItems ?? []
    #expect(query.first { $0.name == "status" }?.value == "all")
    #expect(query.first { $0.name == "connection.fields" }?.value?.split(separator: ",").count == 6)
    #expect(Self.body(requests[3])?["uuids"] as? [String] == ["x"])
  }
}
