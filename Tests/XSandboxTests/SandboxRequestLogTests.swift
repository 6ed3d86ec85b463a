import Foundation
import NetworkClient
import Testing
import XSandbox

/// The control API's request log is capped (issue #35 item 7): the oldest entries go, and the
/// count of those dropped is reported.
@Suite("The sandbox's request log")
struct SandboxRequestLogTests {
  @Test func theLogKeepsTheNewestEntriesAndCountsTheDropped() async throws {
    let sandbox = XSandbox(controlAPI: true)
    let limit = 10_000
    for index in 0..<(limit + 10) {
      _ = try await sandbox.send(HTTPRequest(method: .get, url: URL(string: "https://api.x.com/2/nothing/\(index)")!))
    }
    let response = try await sandbox.send(HTTPRequest(method: .get, url: URL(string: "https://api.x.com/_control/stats")!))
    let stats = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
    let requests = try #require(stats["requests"] as? [[String: Any]])
    #expect(requests.count == limit)
    #expect(requests.first?["path"] as? String == "/2/nothing/10")
    #expect(requests.last?["path"] as? String == "/2/nothing/\(limit + 9)")
    #expect(stats["requests_dropped"] as? Int == 10)
  }
}
