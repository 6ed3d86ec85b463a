import Foundation
import NetworkClient
import OAuth1
import Testing
import XAPI
import XSandbox

/// The sandbox's filtered stream in process, through XAPI's typed rules and `FilteredStream`:
/// X's limits on rules, X's shapes, one connection at a time.
@Suite("Sandbox: filtered stream rules and stream")
struct SandboxStreamTests {
  static func app(_ sandbox: XSandbox) -> XClient {
    XClient(authentication: .bearer(XSandbox.demoBearerToken), transport: sandbox, retry: nil)
  }

  @Test("1,000 rules fit; the 1,001st is refused as rule-cap and none of its batch is created; dry_run creates nothing")
  func ruleCap() async throws {
    let sandbox = XSandbox(clock: FixedClock(seconds: mayDay), tweetsPerUser: 5, streamTimeScale: 0.01)
    let app = Self.app(sandbox)
    let checked = try await app.v2.addStreamRules([.init(value: "dry run")], dryRun: true)
    #expect(checked.summary["valid"] == 1)
    #expect(try await app.v2.streamRules().isEmpty, "a dry run creates nothing")
    let added = try await app.v2.addStreamRules((1...1000).map { StreamRule.New(value: "word\($0)", tag: "t\($0)") })
    #expect(added.rules.count == 1000 && added.summary["created"] == 1000)
    #expect(Set(added.rules.map(\.id)).count == 1000)
    let refusal = await xError { _ = try await app.v2.addStreamRules([.init(value: "one more")]) }
    guard case .streamRulesRefused(let problems)? = refusal else {
      Issue.record("expected a refusal, got \(String(describing: refusal))")
      return
    }
    #expect(problems.first?.type?.hasSuffix("rule-cap") == true)
    #expect(try await app.v2.streamRules().count == 1000)
    _ = try await app.v2.deleteStreamRules(ids: added.rules.prefix(10).map(\.id))
    #expect(try await app.v2.streamRules().count == 990)
  }

  @Test("a batch with one invalid rule creates none, and X's summary counts valid and invalid")
  func atomicBatch() async throws {
    let sandbox = XSandbox(clock: FixedClock(seconds: mayDay), tweetsPerUser: 5)
    let request = HTTPRequest(
      method: .post, url: URL(string: "https://api.x.com/2/tweets/search/stream/rules")!,
      headers: ["Authorization": "Bearer \(XSandbox.demoBearerToken)", "Content-Type": "application/json"],
      body: Data(#"{"add":[{"value":"cats"},{"value":"nope:cats"}]}"#.utf8))
    let response = try await sandbox.send(request)
    #expect(response.statusCode == 200)
    let object = try #require(jsonObject(response))
    let summary = (object["meta"] as? [String: Any])?["summary"] as? [String: Int]
    #expect(summary == ["created": 0, "not_created": 2, "valid": 1, "invalid": 1])
    let errors = object["errors"] as? [[String: Any]]
    #expect(errors?.count == 1 && errors?.first?["title"] as? String == "UnprocessableEntity")
    #expect(object["data"] == nil)
  }

  @Test("posts match the rules and carry matching_rules; a second connection gets 429 TooManyConnections until the first hangs up")
  func oneConnection() async throws {
    let sandbox = XSandbox(clock: FixedClock(seconds: mayDay), tweetsPerUser: 5, streamTimeScale: 0.01)
    let app = Self.app(sandbox)
    let rule = try #require(try await app.v2.addStreamRules([.init(value: "from:oauth_fan", tag: "fans")]).rules.first)
    let request = HTTPRequest(
      method: .get, url: URL(string: "https://api.x.com/2/tweets/search/stream?expansions=author_id")!,
      headers: ["Authorization": "Bearer \(XSandbox.demoBearerToken)"])
    let first = try await sandbox.open(request)
    #expect(first.statusCode == 200)
    var firstLines = 0
    for try await chunk in first.body {
      let object = try JSONSerialization.jsonObject(with: chunk) as? [String: Any]
      #expect((object?["data"] as? [String: Any])?["author_id"] as? String == "1003")
      #expect((object?["matching_rules"] as? [[String: String]]) == [["id": rule.id, "tag": "fans"]])
      firstLines += 1
      if firstLines == 2 { break }
    }
    let second = try await sandbox.open(request)
    #expect(second.statusCode == 429, "X allows one connection: a second one is refused while the first is held")
    var refusal = Data()
    for try await chunk in second.body { refusal += chunk }
    let problem = try JSONSerialization.jsonObject(with: refusal) as? [String: String]
    #expect(problem?["connection_issue"] == "TooManyConnections" && problem?["title"] == "ConnectionException", "\(problem ?? [:])")
    first.cancel()
    let third = try await sandbox.open(request)
    #expect(third.statusCode == 200, "a client that hung up holds no connection")
    third.cancel()
  }
}
