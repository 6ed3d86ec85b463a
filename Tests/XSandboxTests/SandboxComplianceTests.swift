import Foundation
import NetworkClient
import OAuth1
import OAuth1Testing
import Testing
import XAPI
import XSandbox

/// Batch compliance in the sandbox, in process, attacked: X's one-active-job rule (409), the
/// app-only rule, a URL's secret that is wrong or used for the other operation, an upload past
/// the limit, a download before the job is complete, an expired upload window; and the results
/// for deleted posts, an author's events and invalid lines.
@Suite("Sandbox: batch compliance")
struct SandboxComplianceTests {
  static func app(_ sandbox: XSandbox) -> XClient {
    XClient(authentication: .bearer(XSandbox.demoBearerToken), transport: sandbox, retry: nil)
  }

  static func file(_ text: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("sandbox-compliance-\(UUID()).txt")
    try Data(text.utf8).write(to: url)
    return url
  }

  @Test("a job's life: created, uploaded, in progress, complete, its results; one active job of a type")
  func lifecycle() async throws {
    let sandbox = XSandbox(clock: FixedClock(seconds: mayDay), tweetsPerUser: 10)
    let app = Self.app(sandbox)
    let user = sandbox.client(configuration: .init(clock: FixedClock(seconds: mayDay)))
    let posts = try await user.v2.userTweets(userID: "1001").collect().flatMap(\.tweets)
    let mine = try #require(posts.first)
    // Deleted through the API: X's compliance reports it.
    _ = try await user.v2.deleteTweet(id: mine.id)
    var job = try await app.v2.createComplianceJob(type: .tweets, name: "t")
    #expect(job.status == .created && app.isOwnOrigin(job.uploadURL!))
    await #expect(throws: XError.self) { _ = try await app.v2.createComplianceJob(type: .tweets) }
    // A users job may run beside it.
    #expect(try await app.v2.createComplianceJob(type: .users).status == .created)
    // User context is refused: X serves compliance app-only.
    await #expect(throws: XError.self) { _ = try await user.v2.complianceJob(id: job.id) }
    // Downloading before completion is refused.
    await #expect(throws: XError.self) { _ = try await app.v2.complianceResults(of: job) }

    let ids = try Self.file("\(mine.id)\n\(posts[1].id)\nnot-an-id\n\n")
    defer { try? FileManager.default.removeItem(at: ids) }
    try await app.v2.uploadComplianceIDs(for: job, file: ids)
    job = try await app.v2.complianceJob(id: job.id)
    #expect(job.status == .inProgress)
    job = try await app.v2.complianceJob(id: job.id)
    #expect(job.status == .complete)
    let results = try await app.v2.complianceResults(of: job)
    #expect(results.map(\.id) == [mine.id, "not-an-id"])
    #expect(results[0].action == .delete && results[0].event == "deleted" && results[1].error == "invalid_id")
    #expect(try await app.v2.complianceJobs(type: .tweets).map(\.id) == [job.id])
    #expect(try await app.v2.complianceJobs(type: .tweets, status: .created).isEmpty)
  }

  @Test("a wrong secret, the other operation's path, a closed window and an oversized upload are refused")
  func hostileTransfers() async throws {
    let clock = ManualClock(seconds: mayDay)
    let sandbox = XSandbox(clock: clock, tweetsPerUser: 5)
    let app = Self.app(sandbox)
    let job = try await app.v2.createComplianceJob(type: .users)
    let upload = try #require(job.uploadURL)
    let bearer = "Bearer \(XSandbox.demoBearerToken)"
    func put(_ url: URL, _ body: Data) async throws -> Int {
      var request = HTTPRequest(method: .put, url: url, headers: ["Authorization": bearer, "Content-Type": "text/plain"], body: body)
      request.headers["Authorization"] = bearer
      return try await sandbox.send(request).statusCode
    }
    let wrong = URL(string: upload.absoluteString.replacingOccurrences(of: "token=", with: "token=x"))!
    #expect(try await put(wrong, Data("1\n".utf8)) == 403)
    let download = URL(string: upload.absoluteString.replacingOccurrences(of: "/upload", with: "/download"))!
    #expect(try await sandbox.raw(.get, download.absoluteString, authorization: bearer).statusCode == 403)
    // Past the sandbox's limit: 413, as X answers past its 128 MB.
    #expect(try await put(upload, Data(repeating: UInt8(ascii: "1"), count: (16 << 20) + 1)) == 413)
    // An upload window closed: the job expires and the URL no longer takes ids.
    clock.advance(by: 15 * 60 + 1)
    #expect(try await put(upload, Data("1\n".utf8)) == 403)
    #expect(try await app.v2.complianceJob(id: job.id).status == .expired)
    // A job id X never issued.
    await #expect(throws: XError.self) { _ = try await app.v2.complianceJob(id: "1") }
  }

  @Test("a tweets job reports a post of a suspended author with the author's event; a users job the accounts")
  func authorEvents() async throws {
    let sandbox = XSandbox(clock: FixedClock(seconds: mayDay), tweetsPerUser: 5, controlAPI: true)
    let control = try await sandbox.send(
      HTTPRequest(
        method: .post, url: URL(string: "https://api.x.com/_control/compliance")!, headers: ["Content-Type": "application/json"],
        body: Data(#"{"users": {"1003": "suspended", "1002": "deactivated"}, "processing_polls": 0}"#.utf8)))
    #expect(control.statusCode == 200)
    let app = Self.app(sandbox)
    let posts = try await sandbox.client(configuration: .init(clock: FixedClock(seconds: mayDay))).v2.userTweets(userID: "1003").collect().flatMap(
      \.tweets)
    var job = try await app.v2.createComplianceJob(type: .tweets)
    let ids = try Self.file(posts.map(\.id).joined(separator: "\n"))
    defer { try? FileManager.default.removeItem(at: ids) }
    try await app.v2.uploadComplianceIDs(for: job, file: ids)
    job = try await app.v2.complianceJob(id: job.id)
    let results = try await app.v2.complianceResults(of: job)
    #expect(results.count == posts.count && results.allSatisfy { $0.event == "suspended" && $0.action == .delete })
    var users = try await app.v2.createComplianceJob(type: .users)
    let userIDs = try Self.file("1001\n1002\n1003\n")
    defer { try? FileManager.default.removeItem(at: userIDs) }
    try await app.v2.uploadComplianceIDs(for: users, file: userIDs)
    users = try await app.v2.complianceJob(id: users.id)
    #expect(try await app.v2.complianceResults(of: users).map { "\($0.id):\($0.event)" } == ["1002:deactivated", "1003:suspended"])
  }
}
