import Foundation
import NetworkClient
import Testing
import XAPI

@testable import XSandbox

/// The sandbox against the client's rows (``XEndpoint``): every row is served by a route of the
/// same method and path pattern whose billing agrees, or is named here as not emulated, with
/// why. The two are compared, never shared: the sandbox declares what X bills from X's pages
/// (``SandboxBillable``), the client from its rows, and a disagreement fails here.
@Suite("The sandbox's routes against the client's rows")
struct SandboxRowsTests {
  /// What the sandbox does not emulate, by path prefix, with why (first match).
  static let notEmulated: [(prefix: String, reason: String)] = [
    ("/2/account_activity/", "push to a server the developer runs (Account Activity): no command of the package uses it"),
    ("/2/activity/subscriptions", "deleting subscriptions by ids: no command of the package uses it (tweets activity delete takes one id)"),
    ("/2/tweets/search/webhooks", "filtered-stream webhooks push to a server the developer runs"),
    ("/2/articles/", "Articles: no command of the package uses them"),
    ("/2/broadcasts", "live video broadcasts: no command of the package uses them"),
    ("/2/chat/", "XChat (encrypted messages): no command of the package uses it"),
    ("/2/dm_", "a DM event by id, deleting one, DM media: no command of the package uses them (tweets dm lists and sends)"),
    ("/2/communities/", "communities: no command of the package uses them"),
    ("/2/notes", "community notes: no command of the package uses them"),
    ("/2/news/", "news: no command of the package uses it"),
    ("/2/spaces", "Spaces: no command of the package uses them"),
    ("/2/trends/", "trends: no command of the package uses them"),
    ("/2/openapi.json", "the specification itself"),
    ("/2/likes/", "likes streams: Enterprise, no command of the package uses them"),
    ("/2/tweets/firehose/", "the firehose: Enterprise, no command of the package uses it"),
    ("/2/tweets/sample", "the sampled streams: no command of the package uses them"),
    ("/2/tweets/compliance/", "compliance streams: Enterprise; the package uses batch compliance"),
    ("/2/users/compliance/", "compliance streams: Enterprise; the package uses batch compliance"),
    ("/2/tweets/label/", "label streams: Enterprise, no command of the package uses them"),
    ("/2/tweets/analytics", "analytics: no command of the package uses them"),
    ("/2/media/analytics", "analytics: no command of the package uses them"),
    ("/2/media/subtitles", "subtitles: no command of the package uses them"),
    ("/2/media/upload", "the one-request upload: the package uploads in chunks (initialize, append, finalize)"),
    ("/2/media", "media lookup: no command of the package uses it"),
    ("/2/tweets/search/stream/rules/counts", "rule counts: no command of the package uses them"),
    ("/2/tweets/{tweet_id}/hidden", "hiding replies: a command family not built yet (issue #44)"),
    (
      "/2/users/{id}/",
      "likes, reposts, follows, mute and block writes, DM blocks and public keys of a user: command families not built yet (issue #44)"
    ),
    ("/2/users/{source_user_id}/", "undoing follows and mutes: a command family not built yet (issue #44)"),
    ("/2/users/", "personalized trends and public keys: no command of the package uses them"),
    ("/1.1/", "v1.1 endpoints no command of the package calls"),
    ("/oauth/", "OAuth 1.0a's token endpoints are served apart from the routes (SandboxServer)"),
    ("/2/oauth2/", "OAuth 2.0's token endpoint is served apart from the routes (SandboxServer)"),
  ]

  /// The rows the package calls (its typed methods), and `GET /2/users/{id}`, which the sandbox
  /// serves for `tweets api` and its own tests: each must be emulated, whatever `notEmulated`
  /// says, and only these are.
  static let called: [XEndpoint] = [
    .getUsersMe, .getUsersById, .getUsersByUsername, .getUsersPosts, .getUsersTimeline, .searchPostsRecent, .searchPostsAll, .getUsersMentions,
    .getUsersLikedPosts, .getPostsQuotedPosts, .getListsPosts, .getUsersFollowers, .getUsersFollowing, .getUsersByIds, .getUsersByUsernames,
    .getPostsCountsRecent, .getPostsCountsAll, .getPostsById, .getPostsByIds, .createPosts, .deletePosts, .getUsersBookmarks,
    .createUsersBookmark, .deleteUsersBookmark, .getUsersBookmarkFolders, .getUsersBookmarksByFolderId, .getComplianceJobs,
    .createComplianceJobs, .getComplianceJobsById, .getConnectionHistory, .deleteAllConnections, .deleteConnectionsByEndpointID,
    .deleteConnectionsByUuids, .getRules, .updateRules, .streamPosts, .getUsage, .initializeMediaUpload, .appendMediaUpload,
    .finalizeMediaUpload, .getMediaUploadStatus, .createMediaMetadata, .v1VerifyCredentials, .v1UserTimeline, .v1HomeTimeline,
    .v1SearchTweets, .v1StatusesShow, .v1StatusesUpdate, .searchUsers, .getUsersBlocking, .getUsersMuting,
    .getPostsLikingUsers, .getPostsRepostedBy, .getPostsReposts, .getUsersRepostsOfMe,
    .getListsById, .createLists, .updateLists, .deleteLists, .getListsMembers, .addListsMember, .removeListsMemberByUserId, .getListsFollowers,
    .getUsersOwnedLists, .getUsersFollowedLists, .getUsersListMemberships, .getUsersPinnedLists, .followList, .unfollowList, .pinList, .unpinList,
    .getDirectMessagesEvents, .getDirectMessagesEventsByParticipantId, .getDirectMessagesEventsByConversationId,
    .createDirectMessagesByParticipantId, .createDirectMessagesByConversationId, .createDirectMessagesConversation,
    .createActivitySubscription, .getActivitySubscriptions, .updateActivitySubscription, .deleteActivitySubscription, .activityStream,
    .getWebhooks, .createWebhooks, .validateWebhooks, .deleteWebhooks, .createWebhookReplayJob,
  ]

  /// The rows X sells to Enterprise only that the sandbox serves to refuse them, as X refuses a
  /// self-serve app (the Enterprise 403 test calls them through `tweets api`).
  static let refusedToSelfServe: [XEndpoint] = [.likePost]

  /// The row's path as a route pattern: `{id}` is `*`, `{id}.json` is `*.json`.
  static func pattern(_ row: XEndpoint) -> [String] {
    row.path.split(separator: "/").map { segment in
      guard segment.hasPrefix("{") else { return String(segment) }
      return segment.hasSuffix(".json") ? "*.json" : "*"
    }
  }

  /// Whether the sandbox bills a route as the row says X does.
  static func agree(_ billable: SandboxBillable, _ charge: XEndpoint.Charge) -> Bool {
    switch (billable, charge) {
    case (.free, .free): true
    case (.resources(let kind, let ownable), .resources(let rowKind, let rowOwnable, _)): kind == rowKind && ownable == rowOwnable
    case (.resources(let kind, false), .streamed(let rowKind)): kind == rowKind
    case (.request(let kind), .request(let rowKind)): kind == rowKind
    case (.postCreate, .postCreate): true
    case (.unpriced, .unpriced): true
    default: false
    }
  }

  @Test("Every row has a route of the same method and pattern whose billing agrees, or is not emulated with a reason")
  func everyRowIsEmulatedOrSaysWhyNot() {
    var emulated: Set<XEndpoint> = []
    for row in XEndpoint.all {
      let pattern = Self.pattern(row)
      if let route = SandboxRoute.all.first(where: { $0.method == row.method.rawValue && $0.pattern == pattern }) {
        emulated.insert(row)
        #expect(Self.agree(route.billing, row.charge), "\(row): the sandbox bills \(route.billing), the row \(row.charge)")
      } else {
        #expect(!Self.called.contains(row), "\(row) is called by the package and has no sandbox route")
        #expect(Self.notEmulated.contains { row.path.hasPrefix($0.prefix) }, "\(row) has no sandbox route and no reason")
      }
    }
    #expect(emulated.isSuperset(of: Self.called))
    let alsoEmulated = emulated.subtracting(Self.called).map(\.description).sorted()
    #expect(alsoEmulated == Self.refusedToSelfServe.map(\.description).sorted(), "emulated, and not called by the package")
    for row in Self.refusedToSelfServe {
      #expect(row.access != .selfServe, "\(row) is refused as Enterprise-only and its row says self-serve")
    }
  }

  @Test("Every route of the sandbox serves a row, but its storage's and v1.1's alternative spellings")
  func everyRouteServesARow() {
    let rows = Set(XEndpoint.all.map { "\($0.method) \(Self.pattern($0).joined(separator: "/"))" })
    let apart: Set<String> = [
      "PUT 2/compliance/jobs/*/upload", "GET 2/compliance/jobs/*/download",  // the presigned storage, on X's storage host
      "GET 1.1/statuses/show/*.json",  // v1.1's other spelling of statuses/show.json
    ]
    for route in SandboxRoute.all {
      let key = "\(route.method) \(route.pattern.joined(separator: "/"))"
      #expect(rows.contains(key) || apart.contains(key), "the sandbox serves \(key), which no row declares")
    }
  }

  @Test("XClient.call sends a row's method and filled path, and decodes the answer; X's refusal is an XError")
  func aGenericCallByRow() async throws {
    struct User: Decodable, Sendable {
      let id: String
      let username: String
    }
    struct One: Decodable, Sendable { let data: User? }
    let client = XSandbox().client()
    let me = try await client.call(.getUsersMe, as: One.self)
    #expect(me.data?.id == "1001")
    let byName = try await client.call(
      .getUsersByUsername, path: [try #require(me.data?.username)], query: [("user.fields", "created_at")], as: One.self)
    #expect(byName.data?.id == "1001")
    await #expect(throws: XError.self) { _ = try await client.call(.getUsersByUsername, path: ["no such name!"], as: One.self) }
  }

  /// The kinds of authentication a route accepts, in the rows' terms (`app-only`,
  /// `oauth1-user`, `oauth2-user`): a bearer token where `bearerOK`, a user where it is not
  /// `appOnly`, OAuth 1.0a unless it refuses it.
  static func kinds(_ route: SandboxRoute) -> Set<String> {
    var kinds: Set<String> = []
    if route.bearerOK { kinds.insert("app-only") }
    if !route.appOnly && route.oauth1OK { kinds.insert("oauth1-user") }
    if !route.appOnly && route.oauth2OK { kinds.insert("oauth2-user") }
    return kinds
  }

  static func kinds(_ row: XEndpoint) -> Set<String> {
    Set(
      row.authentications.map {
        switch $0 {
        case .appOnly: "app-only"
        case .oauth1User: "oauth1-user"
        case .oauth2User: "oauth2-user"
        }
      })
  }

  @Test(
    "Every emulated row's route accepts the kinds of authentication X's specification lists, and requires its OAuth 2.0 scopes")
  func everyRouteAcceptsTheRowsAuthentications() {
    for row in XEndpoint.specified {
      let pattern = Self.pattern(row)
      guard let route = SandboxRoute.all.first(where: { $0.method == row.method.rawValue && $0.pattern == pattern }) else { continue }
      #expect(Self.kinds(route) == Self.kinds(row), "\(row): the sandbox accepts \(Self.kinds(route).sorted()), X \(Self.kinds(row).sorted())")
      // Where X takes OAuth 2.0 user context, the route requires the same scopes (its own
      // declaration: a token without one of them is refused with 403).
      guard let scopes = row.authentications.compactMap({ if case .oauth2User(let scopes) = $0 { scopes } else { nil } }).first else {
        continue
      }
      #expect(route.scopes.sorted() == scopes, "\(row): the sandbox requires \(route.scopes.sorted()), X \(scopes)")
    }
  }

  /// The status the sandbox answers `row` with, its path filled with the demo data's user, post,
  /// list and bookmark folder, with `max_results` set to `size`; app-only rows sent with the demo bearer token.
  static func status(_ sandbox: XSandbox, _ row: XEndpoint, size: Int, extra: [QueryItem]) async throws -> Int {
    let values = row.path.split(separator: "/").enumerated().compactMap { index, segment -> String? in
      guard segment.hasPrefix("{") else { return nil }
      let owner = row.path.split(separator: "/")[index - 1]
      switch owner {
      case "tweets": return String(SandboxData.firstID)
      case "lists": return SandboxData.listID
      case "dm_conversations": return "1001-1002"  // the demo user's conversation with @swift_lang
      case "folders": return "1940000000000000001"  // the demo user's one folder, "Read later"
      default: return SandboxData.mainUserID
      }
    }
    let client =
      row.authentications.contains(.oauth1User)
      ? sandbox.client() : XClient(authentication: .bearer(XSandbox.demoBearerToken), transport: sandbox, retry: nil)
    do {
      return try await client.rawResponse(
        Request<HTTPResponse>(path: row.filled(values), query: extra + [("max_results", String(size))])
      ).statusCode
    } catch {
      guard case .httpStatus(let failure) = error else { throw error }
      return failure.statusCode
    }
  }

  @Test("Every emulated v2 row with page sizes: the sandbox serves its smallest and largest max_results and refuses one past either")
  func everyRoutePagesAsItsRow() async throws {
    let sandbox = XSandbox()
    var probed: [String] = []
    for row in XEndpoint.specified {
      guard let sizes = row.pageSizes, SandboxRoute.all.contains(where: { $0.method == row.method.rawValue && $0.pattern == Self.pattern(row) })
      else { continue }
      // Full-archive search is refused to the demo app before any parameter, as X refuses an app
      // without its access level.
      if row == .searchPostsAll { continue }
      let extra: [QueryItem] = row == .searchPostsRecent ? [("query", "sandbox")] : row == .searchUsers ? [("query", "fan")] : []
      for size in [sizes.lowerBound, sizes.upperBound] {
        let status = try await Self.status(sandbox, row, size: size, extra: extra)
        #expect(status == 200, "\(row) max_results=\(size): \(status)")
      }
      for size in [sizes.lowerBound - 1, sizes.upperBound + 1] {
        let status = try await Self.status(sandbox, row, size: size, extra: extra)
        #expect(status == 400, "\(row) max_results=\(size): \(status)")
      }
      probed.append(row.operation)
    }
    #expect(probed.count >= 12, "\(probed)")
  }
}
