import Foundation
import TestSupport
import Testing

/// The check of the sandbox's answers against X's OpenAPI specification
/// (`Tests/Peers/openapi_check.py` with openapi-core), on logs written here: it finds what X's
/// specification requires and an answer lacks (shown on one of X's own recorded answers, made
/// before X added the two metrics), and lists, rather than passes, what it does not check.
@Suite("The spec check of the sandbox's answers", .tags(.peers), .tier(.peers))
struct SpecCheckTests {
  /// A log holding `records`, one JSON object a line (as `SandboxExchangeLog` writes them).
  static func log(_ records: [[String: Any]], extra: String = "") throws -> URL {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("spec-check-\(UUID().uuidString).jsonl")
    let lines = try records.map { String(decoding: try JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]), as: UTF8.self) }
    try (lines.joined(separator: "\n") + "\n" + extra).write(to: file, atomically: true, encoding: .utf8)
    return file
  }

  static func answer(_ method: String, _ path: String, _ status: Int, _ body: String, _ extra: [String: Any] = [:]) -> [String: Any] {
    [
      "method": method, "path": path, "query": "", "status": status, "content_type": "application/json; charset=utf-8", "body": body,
      "delivery": "whole", "spelling": "tweet",
    ].merging(extra) { $1 }
  }

  /// X's answer to `GET /2/users/:id/tweets` recorded by another project (2022), before X's
  /// posts carried `impression_count` and `bookmark_count`, which specification 2.166 requires.
  static func recordedTimeline() throws -> (path: String, body: String) {
    let file = PackagePaths.root.appendingPathComponent("Tests/XAPITests/Recordings/v2-user-tweets-all-reference-types.json")
    let cassette = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
    let interaction = try #require((cassette["interactions"] as? [[String: Any]])?.first)
    let address = try #require((interaction["request"] as? [String: Any])?["url"] as? String)
    let url = try #require(URL(string: address))
    let body = try #require((interaction["response"] as? [String: Any])?["body"] as? String)
    return (url.path, body)
  }

  @Test("An answer without what X's specification requires is outside, with its operation, status and the validator's words")
  func findsWhatIsMissing() throws {
    let (path, body) = try Self.recordedTimeline()
    let old = try Self.log([Self.answer("GET", path, 200, body)])
    defer { try? FileManager.default.removeItem(at: old) }
    let (outside, report) = try SpecCheck.check(old)
    #expect(outside == 1, "\(report)")
    #expect(report.contains("GET /2/users/{id}/tweets 200 x1") && report.contains("'impression_count' is a required property"), "\(report)")

    // The same answer with the two metrics X now sends (the counts are the test's): inside.
    var object = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
    func withMetrics(_ tweets: Any?) -> [[String: Any]] {
      (tweets as? [[String: Any]] ?? []).map { tweet in
        var tweet = tweet
        if var metrics = tweet["public_metrics"] as? [String: Any] {
          metrics["impression_count"] = 10
          metrics["bookmark_count"] = 1
          tweet["public_metrics"] = metrics
        }
        return tweet
      }
    }
    object["data"] = withMetrics(object["data"])
    if var includes = object["includes"] as? [String: Any] {
      includes["tweets"] = withMetrics(includes["tweets"])
      object["includes"] = includes
    }
    let today = try Self.log([Self.answer("GET", path, 200, String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self))])
    defer { try? FileManager.default.removeItem(at: today) }
    let (none, clean) = try SpecCheck.check(today)
    #expect(none == 0 && clean.contains("1 checked"), "\(clean)")
  }

  @Test("What the specification lacks, what a test scripted, a reset and the post spelling are listed, not passed")
  func listsWhatItDoesNotCheck() throws {
    let file = try Self.log([
      Self.answer("GET", "/_control/stats", 200, "{}"),
      Self.answer("GET", "/1.1/statuses/home_timeline.json", 200, "[]"),
      Self.answer("POST", "/oauth/request_token", 200, "oauth_token=a&oauth_token_secret=b"),
      Self.answer("GET", "/2/users/me", 502, "<html></html>", ["scripted": "html"]),
      Self.answer("GET", "/2/users/me", 0, "", ["delivery": "reset"]),
      Self.answer("GET", "/2/users/me", 200, #"{"data":{"id":"1","name":"A","username":"a"}}"#, ["spelling": "post"]),
      Self.answer("GET", "/2/users/me", 200, #"{"data":{"id":"1","name":"A","username":"a"}}"#),
    ])
    defer { try? FileManager.default.removeItem(at: file) }
    let (outside, report) = try SpecCheck.check(file)
    #expect(outside == 0, "\(report)")
    for listed in [
      "7 answers; 1 checked", "GET /_control/... x1", "GET /1.1/statuses/home_timeline.json x1", "POST /oauth/request_token x1",
      "scripted by the test (html) x1", "connection reset before any answer", "in the post spelling",
    ] {
      #expect(report.contains(listed), "\(listed): \(report)")
    }
  }

  @Test("Past the first 100 answers of one operation and status, every 25th is checked and the others counted")
  func samplesALongFetch() throws {
    let me = Self.answer("GET", "/2/users/me", 200, #"{"data":{"id":"1","name":"A","username":"a"}}"#)
    let wrong = Self.answer("GET", "/2/users/me", 200, #"{"data":{"id":1}}"#)
    // 130 answers: the 125th (the 25th past 100) is checked, and is outside.
    let file = try Self.log(Array(repeating: me, count: 124) + [wrong] + Array(repeating: me, count: 5))
    defer { try? FileManager.default.removeItem(at: file) }
    let (outside, report) = try SpecCheck.check(file)
    #expect(outside == 1 && report.contains("130 answers; 101 checked"), "\(report)")
    #expect(report.contains("sampled out: GET /2/users/me 200 past its first 100 (every 25th checked) x29"), "\(report)")
  }

  @Test("A hostile log: a line cut short, a line that is no answer, 4 MB that is not JSON: each reported, none passed")
  func hostileLog() throws {
    let huge = String(repeating: "not json ", count: 466_034)
    let file = try Self.log([Self.answer("GET", "/2/users/me", 200, huge)], extra: "[1, 2]\n" + #"{"method":"GET","path":"/2/users/me","sta"#)
    defer { try? FileManager.default.removeItem(at: file) }
    let (outside, report) = try SpecCheck.check(file)
    #expect(outside == 3, "\(report)")
    #expect(report.contains("unreadable line 2") && report.contains("unreadable line 3") && report.contains("GET /2/users/me 200 x1"), "\(report)")
    #expect(report.utf8.count < 20_000, "the report quotes at most a short part of what it read")
  }
}
