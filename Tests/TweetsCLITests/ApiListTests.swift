import Foundation
import TestSupport
import Testing

/// `tweets api --list`: the package's rows of X's operations (`XEndpoint`), printed by the built
/// binary, with no credentials and no network: a table for people, one JSON object a line for
/// programs, the price list of the config directory laid over X's.
@Suite("tweets api --list", .tags(.processes), .tier(.processes))
struct ApiListTests {
  func run(_ arguments: [String], configDirectory: URL) async throws -> ProcessResult {
    var environment = ProcessInfo.processInfo.environment
    for key in environment.keys where key.hasPrefix("X_") || key.hasPrefix("TWITTER_") || key.hasPrefix("TWEETS_") {
      environment.removeValue(forKey: key)
    }
    return try await ProcessRunner.run(
      PackagePaths.executable("tweets"), arguments + ["--config-dir", configDirectory.path], environment: environment,
      timeout: TweetsRunner.hangTimeout)
  }

  @Test("Every row, as text and as JSON lines, with its authentication, price and Enterprise mark; --list takes no path")
  func listsEveryRow() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("api-list-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }

    let text = try await run(["api", "--list"], configDirectory: directory)
    #expect(text.status == 0, "\(text.stderr)")
    let lines = text.stdout.split(separator: "\n").map(String.init)
    // 178 operations of X's specification 2.167, and the v1.1 and OAuth ones the package calls.
    #expect(lines.count > 178, "\(lines.count)")
    #expect(
      lines.contains("GET\t/2/users/{id}/tweets\toauth1-user,oauth2-user(tweet.read users.read),app-only\t$0.005 per post ($0.001 owned)\t-"),
      "\(lines.prefix(5))")
    #expect(lines.contains { $0.hasPrefix("POST\t/2/users/{id}/likes\t") && $0.hasSuffix("\t$0.015 per request\tenterprise-only") })
    #expect(lines.contains { $0.hasPrefix("GET\t/2/tweets/counts/all\tapp-only\t$0.01 per request\t") })

    // A price file over X's list changes what is printed.
    try #"{"effective": "2027-01-01", "reads": {"post": "0.006"}}"#.write(
      to: directory.appendingPathComponent("pricing.json"), atomically: true, encoding: .utf8)
    let json = try await run(["api", "--list", "--format", "json"], configDirectory: directory)
    #expect(json.status == 0, "\(json.stderr)")
    let objects = try json.stdout.split(separator: "\n").map {
      try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    #expect(objects.count == lines.count)
    let timeline = try #require(objects.first { $0["method"] as? String == "GET" && $0["path"] as? String == "/2/users/{id}/tweets" })
    #expect(timeline["price"] as? String == "$0.006 per post ($0.001 owned)")
    #expect(timeline["pageSizes"] as? [Int] == [5, 100] && timeline["operation"] as? String == "getUsersPosts")
    #expect(timeline["authentications"] as? [String] == ["oauth1-user", "oauth2-user(tweet.read users.read)", "app-only"])
    let buyers = try #require(objects.first { $0["path"] as? String == "/2/spaces/{id}/buyers" })
    #expect(buyers["price"] as? String == "$0.01 per user" && buyers["enterpriseOnly"] == nil)
    let follow = try #require(objects.first { $0["method"] as? String == "POST" && $0["path"] as? String == "/2/users/{id}/following" })
    #expect(follow["enterpriseOnly"] as? String == "enterprise-only")
    let chat = try #require(objects.first { ($0["path"] as? String)?.hasPrefix("/2/chat/") == true })
    #expect(chat["price"] as? String == "unpriced" && (chat["reason"] as? String)?.isEmpty == false)

    for wrong in [["api", "--list", "GET"], ["api", "GET", "/2/users/me", "--format", "json"], ["api", "--list", "--format", "csv"]] {
      let result = try await run(wrong, configDirectory: directory)
      #expect(result.status == 2, "\(wrong): \(result.status) \(result.stderr)")
    }
  }
}
