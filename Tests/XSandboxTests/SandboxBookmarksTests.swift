import Foundation
import NetworkClient
import OAuth1
import OAuth2
import Testing
import XAPI
import XSandbox

/// Bookmarks through XAPI's typed endpoints against the sandbox in process, with the
/// authentication and scopes X's specification requires, and the stream's connections
/// (`GET /2/connections`, `DELETE /2/connections[/all]`) with the one-connection rule.
@Suite("Sandbox: bookmarks and stream connections")
struct SandboxBookmarksTests {
  static let client = OAuth2Client.x(
    clientID: "sandbox-client-id", apiBaseURL: URL(string: "https://api.x.com")!,
    authorizeURL: URL(string: "https://api.x.com/i/oauth2/authorize")!)

  /// A client of `sandbox` with an OAuth 2.0 user token carrying `scopes` (authorization code with PKCE).
  static func oauth2(_ sandbox: XSandbox, scopes: [String]) async throws -> XClient {
    let login = try AuthorizationRequest(client: client, redirectURI: "http://127.0.0.1:8976/callback", scopes: scopes)
    let page = try await sandbox.send(HTTPRequest(method: .get, url: login.url))
    let redirect = try #require(page.headers["Location"])
    let endpoint = TokenEndpoint(client: client, transport: sandbox)
    let token = try await endpoint.exchange(code: try login.code(fromRedirect: redirect), for: login)
    return XClient(authentication: .oauth2(store: InMemoryBearerTokenStore(token), refresher: endpoint), transport: sandbox, retry: nil)
  }

  static let readWrite = ["tweet.read", "users.read", "bookmark.read", "bookmark.write"]

  @Test("a token keeps its scopes in another sandbox (the next --sandbox process): bookmarks with them, 403 without")
  func scopesTravelWithTheToken() async throws {
    let issuer = XSandbox(clock: FixedClock(seconds: mayDay), tweetsPerUser: 10)
    func token(_ scopes: [String]) async throws -> BearerToken {
      let login = try AuthorizationRequest(client: Self.client, redirectURI: "http://127.0.0.1:8976/callback", scopes: scopes)
      let page = try await issuer.send(HTTPRequest(method: .get, url: login.url))
      let redirect = try #require(page.headers["Location"])
      return try await TokenEndpoint(client: Self.client, transport: issuer).exchange(code: try login.code(fromRedirect: redirect), for: login)
    }
    let other = XSandbox(clock: FixedClock(seconds: mayDay), tweetsPerUser: 10)
    func client(_ token: BearerToken) -> XClient {
      XClient(
        authentication: .oauth2(store: InMemoryBearerTokenStore(token), refresher: TokenEndpoint(client: Self.client, transport: other)),
        transport: other, retry: nil)
    }
    let reader = client(try await token(Self.readWrite))
    #expect(try await reader.v2.bookmarks(userID: "1001").collect().flatMap(\.tweets).isEmpty == false)
    let without = client(try await token(["tweet.read", "users.read"]))
    await #expect(throws: XError.self) { _ = try await without.v2.bookmarks(userID: "1001").collect() }
  }

  @Test("list (most recent first, paged), add, remove, folders and a folder's posts with OAuth 2.0 and X's scopes")
  func bookmarksWithOAuth2() async throws {
    let sandbox = XSandbox(clock: FixedClock(seconds: mayDay), tweetsPerUser: 10)
    let x = try await Self.oauth2(sandbox, scopes: Self.readWrite)
    let me = try await x.v2.me().id
    let seeded = try await x.v2.bookmarks(userID: me).collect().flatMap(\.tweets)
    #expect(seeded.count == 5 && seeded.allSatisfy { $0.author?.id != me }, "the demo user starts with five bookmarks of others' posts")
    let paged = try await x.v2.bookmarks(userID: me, options: TimelineOptions(maxResults: 2)).collect()
    #expect(paged.count == 3 && paged.flatMap(\.tweets).map(\.id) == seeded.map(\.id), "pages of 2 give the same posts in the same order")

    let own = try #require(try await x.v2.userTweets(userID: me, limit: 5).collect().flatMap(\.tweets).last)
    #expect(try await x.v2.addBookmark(userID: me, tweetID: own.id))
    let after = try await x.v2.bookmarks(userID: me).collect().flatMap(\.tweets)
    #expect(after.first?.id == own.id && after.count == 6, "the newest bookmark comes first")
    #expect(try await x.v2.removeBookmark(userID: me, tweetID: own.id))
    #expect(try await x.v2.bookmarks(userID: me).collect().flatMap(\.tweets).map(\.id) == seeded.map(\.id))

    let folders = try await x.v2.bookmarkFolders(userID: me)
    let folder = try #require(folders.first)
    #expect(folders.count == 1 && folder.name == "Read later")
    #expect(try await x.v2.bookmarkFolderPostIDs(userID: me, folderID: folder.id) == seeded.prefix(2).map(\.id))
    let folderPosts = try await x.v2.bookmarkFolderPosts(userID: me, folderID: folder.id).collect().flatMap(\.tweets)
    #expect(folderPosts.map(\.id) == seeded.prefix(2).map(\.id) && folderPosts.allSatisfy { !$0.text.isEmpty })
    #expect(await xError { _ = try await x.v2.bookmarkFolderPostIDs(userID: me, folderID: "1") } != nil, "an unknown folder is X's 404")
  }

  @Test("refused as X refuses: a token without bookmark.read or bookmark.write, an OAuth 1.0a write, app-only, another user's id")
  func refusals() async throws {
    // The real clock's moment, held: the OAuth 1.0a signature below carries the real clock (within
    // X's 5 minutes of it), and the 30 s code may not expire on a busy machine.
    let sandbox = XSandbox(clock: FixedClock(seconds: Int64(Date().timeIntervalSince1970)), tweetsPerUser: 10)
    let readOnly = try await Self.oauth2(sandbox, scopes: ["tweet.read", "users.read", "bookmark.read"])
    let noBookmarks = try await Self.oauth2(sandbox, scopes: ["tweet.read", "users.read"])
    let me = SandboxFixture.mainUserID
    func status(_ body: () async throws -> Void) async -> Int? {
      guard case .api(let status, _, _, _)? = await xError(body) else { return nil }
      return status
    }
    #expect(await status { _ = try await noBookmarks.v2.bookmarks(userID: me).collect() } == 403, "bookmark.read is required")
    #expect(await status { _ = try await noBookmarks.v2.bookmarkFolders(userID: me) } == 403)
    #expect(try await readOnly.v2.bookmarks(userID: me).collect().flatMap(\.tweets).count == 5)
    #expect(await status { _ = try await readOnly.v2.addBookmark(userID: me, tweetID: "1799999999999999000") } == 403, "bookmark.write")

    // X's specification lets an OAuth 1.0a token read bookmarks, not write them.
    let oauth1 = sandbox.client()
    #expect(try await oauth1.v2.bookmarks(userID: me).collect().flatMap(\.tweets).count == 5)
    let written = await xError { _ = try await oauth1.v2.addBookmark(userID: me, tweetID: "1799999999999999000") }
    guard case .api(403, _, let message, _)? = written else {
      Issue.record("expected X's 403, got \(String(describing: written))")
      return
    }
    #expect(message.contains("OAuth 2.0 User Context"), "\(message)")
    let app = XClient(authentication: .bearer(XSandbox.demoBearerToken), transport: sandbox, retry: nil)
    #expect(await status { _ = try await app.v2.bookmarks(userID: me).collect() } == 403, "app-only is refused")
    let x = try await Self.oauth2(sandbox, scopes: Self.readWrite)
    #expect(await status { _ = try await x.v2.bookmarks(userID: "1002").collect() } == 403, "only the owner reads their bookmarks")
  }

  @Test("connections: the held one is listed, a second is refused with 429, --terminate-all ends it and a new one connects")
  func connections() async throws {
    let sandbox = XSandbox(clock: FixedClock(seconds: mayDay), tweetsPerUser: 5, streamTimeScale: 0.01)
    let app = XClient(authentication: .bearer(XSandbox.demoBearerToken), transport: sandbox, retry: nil)
    _ = try await app.v2.addStreamRules([.init(value: "from:oauth_fan")])
    #expect(try await app.v2.streamConnections().isEmpty)
    let request = HTTPRequest(
      method: .get, url: URL(string: "https://api.x.com/2/tweets/search/stream")!, headers: ["Authorization": "Bearer \(XSandbox.demoBearerToken)"])
    let first = try await sandbox.open(request)
    #expect(first.statusCode == 200)
    let active = try await app.v2.streamConnections()
    let held = try #require(active.first)
    #expect(active.count == 1 && held.endpointName == "filtered_stream" && held.connectedAt != nil && held.disconnectedAt == nil)
    #expect(try await sandbox.open(request).statusCode == 429)

    let unknown = try await app.v2.terminateStreamConnections(uuids: ["00000000-0000-0000-0000-000000000000"])
    #expect(unknown.successfulKills == 0 && unknown.failedKills == 1 && unknown.results.first?.success == false)
    let ended = try await app.v2.terminateAllStreamConnections()
    #expect(ended.successfulKills == 1 && ended.failedKills == 0 && ended.results.map(\.uuid) == [held.id])
    // The terminated connection's body ends.
    for try await _ in first.body {}
    let inactive = try await app.v2.streamConnections(status: .inactive)
    #expect(
      inactive.first?.id == held.id && inactive.first?.disconnectedAt != nil && inactive.first?.disconnectReason?.contains("terminated") == true)
    let next = try await sandbox.open(request)
    #expect(next.statusCode == 200, "after the terminate, a new connection is served")
    let byID = try await app.v2.terminateStreamConnections(uuids: [try #require(try await app.v2.streamConnections().first?.id)])
    #expect(byID.successfulKills == 1)
    next.cancel()
    #expect(try await app.v2.terminateStreamConnections(endpoint: "filtered_stream").successfulKills == 0)

    // User context is refused, as X serves these endpoints app-only.
    #expect(await xError { _ = try await sandbox.client().v2.streamConnections() } != nil)
  }
}

/// The sandbox's demo user, as its data has it.
enum SandboxFixture {
  static let mainUserID = "1001"
}
