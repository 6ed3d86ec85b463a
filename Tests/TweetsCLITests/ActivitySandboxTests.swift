import Foundation
import TestSupport
import Testing

/// `tweets activity subscribe|list|delete` against the sandbox, whose every answer X's
/// specification validates (``VerifiedSandbox``): app-only, a username looked up, one
/// subscription per event type, the sandbox's refusals of what X's schema refuses.
@Suite("tweets activity against the sandbox", .sandboxChecks, .tags(.peers, .processes), .tier(.peers, .processes))
struct ActivitySandboxTests {
  static let bearer = ["X_BEARER_TOKEN": VerifiedSandbox.bearerToken]

  func run(_ runner: TweetsRunner, _ arguments: [String]) async throws -> ProcessResult {
    let result = try await ProcessRunner.run(
      PackagePaths.executable("tweets"), runner.common(baseURL: runner.server.directURL.absoluteString) + arguments,
      environment: runner.environment.merging(Self.bearer) { $1 }, timeout: TweetsRunner.hangTimeout)
    runner.record(result)
    return result
  }

  @Test("subscribe @swift_lang to two types (inbound), list them as CSV, delete one; a direction for block.* is refused by the sandbox")
  func subscribeListDelete() async throws {
    let server = try await VerifiedSandbox.start(tweetsPerUser: 5)
    let runner = try TweetsRunner(server: server)
    let made = try await run(
      runner, ["activity", "subscribe", "--user", "@swift_lang", "--events", "post.create,follow.follow", "--direction", "inbound"])
    #expect(made.status == 0, "\(made.stderr)")
    let ids = made.stdout.split(separator: "\n").compactMap { $0.split(separator: " ").dropFirst().first.map { String($0.dropLast()) } }
    #expect(ids.count == 2, "\(made.stdout)")
    #expect(made.stdout.contains("post.create of user 1002 (inbound), on the stream"), "\(made.stdout)")
    let csv = try await run(runner, ["activity", "list", "--format", "csv"])
    #expect(csv.status == 0, "\(csv.stderr)")
    let rows = csv.stdout.split(separator: "\r\n").map(String.init)
    #expect(rows.first == "id,event_type,user_id,direction,keyword,tag,webhook_id,created_at")
    #expect(
      rows.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).prefix(4).joined(separator: ",") } == [
        "\(ids[0]),post.create,1002,inbound", "\(ids[1]),follow.follow,1002,inbound",
      ])
    let deleted = try await run(runner, ["activity", "delete", ids[0]])
    #expect(deleted.status == 0 && deleted.stdout.contains("Deleted subscription \(ids[0])."), "\(deleted.stdout)\(deleted.stderr)")
    let left = try await run(runner, ["activity", "list", "--format", "jsonl"])
    #expect(left.stdout.split(separator: "\n").count == 1 && left.stdout.contains(ids[1]), "\(left.stdout)")
    let gone = try await run(runner, ["activity", "delete", ids[0]])
    #expect(gone.status != 0, "\(gone.stdout)")
    let refused = try await run(runner, ["activity", "subscribe", "--user", "1002", "--events", "block.block", "--direction", "outbound"])
    #expect(refused.status != 0 && refused.stderr.contains("direction"), "\(refused.stderr)")
  }
}
