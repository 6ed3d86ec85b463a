import Foundation
import NetworkClient
import OAuth1
import Testing
import XAPI
import XSandbox

/// The sandbox bills as X does (issue #30 item 7), through real `XClient` requests in process:
/// each resource once per UTC day of the sandbox's clock, owned reads, writes per request, 402
/// `CreditsDepleted` once the credits are spent, 429 `usage-capped` past the post cap with
/// headroom in the rate-limit headers, and `GET /2/usage/tweets` from the same accounts. The
/// amounts are exact.
@Suite("Sandbox: billing through requests")
struct SandboxBillingRequestTests {
  static let clock = FixedClock(seconds: mayDay)

  static func sandbox(credits: String? = "10.00", postCap: Int? = nil, tweetsPerUser: Int = 20, streamTimeScale: Double = 1) -> XSandbox {
    XSandbox(
      clock: clock, tweetsPerUser: tweetsPerUser, controlAPI: true, streamTimeScale: streamTimeScale, credits: credits.flatMap { USD($0) },
      postCap: postCap)
  }

  /// A user-context client whose signatures are dated by the sandbox's (unskewed) clock.
  static func user(_ sandbox: XSandbox) -> XClient { sandbox.client(configuration: .init(clock: clock)) }

  /// An app-only client: no timestamp to check, so it works while the sandbox's clock is skewed.
  static func app(_ sandbox: XSandbox) -> XClient {
    XClient(authentication: .bearer(XSandbox.demoBearerToken), transport: sandbox, retry: nil)
  }

  /// The control API's `billing` (the account), after `json` changed it.
  static func billing(_ sandbox: XSandbox, _ json: [String: Any]? = nil) async throws -> [String: Any] {
    try await SandboxMediaTests.control(sandbox, "billing", json: json)
  }

  static func spent(_ sandbox: XSandbox) async throws -> USD? {
    (try await billing(sandbox)["spent"] as? String).flatMap { USD($0) }
  }

  static func balance(_ sandbox: XSandbox) async throws -> String? {
    try await billing(sandbox)["balance"] as? String
  }

  static let postPrice = USD("0.005")!

  @Test("the same search twice the same UTC day is charged once; the next day (clock skew) again")
  func dailyDeduplication() async throws {
    let sandbox = Self.sandbox()
    let app = Self.app(sandbox)
    let found = try await app.v2.searchRecent(query: "from:oauth_fan").tweets().collect()
    #expect(found.count == 20)
    #expect(try await Self.spent(sandbox) == Self.postPrice * 20)
    #expect(try await app.v2.searchRecent(query: "from:oauth_fan").tweets().collect().count == 20)
    #expect(try await Self.spent(sandbox) == USD("0.10"), "the same posts the same day are not charged again")

    // Eleven hours later it is still 2024-05-01 (UTC); a day later it is the 2nd.
    _ = try await SandboxMediaTests.control(sandbox, "clock", json: ["skew": 11 * 3600])
    _ = try await app.v2.searchRecent(query: "from:oauth_fan").tweets().collect()
    #expect(try await Self.spent(sandbox) == USD("0.10"))
    _ = try await SandboxMediaTests.control(sandbox, "clock", json: ["skew": 86_400])
    _ = try await app.v2.searchRecent(query: "from:oauth_fan").tweets().collect()
    let account = try await Self.billing(sandbox)
    #expect(account["spent"] as? String == "0.20" && account["balance"] as? String == "9.80")
    #expect(account["posts_per_day"] as? [String: Int] == ["2024-05-01": 20, "2024-05-02": 20])
    #expect((account["charges"] as? [String: [String: Any]])?["post"]?["count"] as? Int == 40)
  }

  @Test("one's own timeline is an owned read at $0.001 a post; another's posts and users at X's prices")
  func ownedReads() async throws {
    let sandbox = Self.sandbox()
    let user = Self.user(sandbox)
    let own = try await user.v2.userTweets(userID: "1001", options: TimelineOptions(maxResults: 10), limit: 10).tweets().collect()
    #expect(own.count == 10)
    #expect(try await Self.spent(sandbox) == USD("0.01"))
    let others = try await user.v2.userTweets(userID: "1002", options: TimelineOptions(maxResults: 5), limit: 5).tweets().collect()
    #expect(others.count == 5)
    #expect(try await Self.spent(sandbox) == USD("0.035"))
    // A user: $0.01.
    _ = try await user.v2.me()
    #expect(try await Self.spent(sandbox) == USD("0.045"))
    let charges = try #require(try await Self.billing(sandbox)["charges"] as? [String: [String: Any]])
    #expect(charges["post_owned"]?["amount"] as? String == "0.01" && charges["post_owned"]?["count"] as? Int == 10)
    #expect(charges["post"]?["amount"] as? String == "0.025" && charges["user"]?["amount"] as? String == "0.01")
  }

  @Test("a post with a URL costs $0.20, one without $0.015; counts $0.005 a request; a failed request nothing")
  func writesAndCountsPerRequest() async throws {
    let sandbox = Self.sandbox()
    let user = Self.user(sandbox)
    _ = try await user.v2.post(text: "Billing, read at https://example.com/pricing")
    #expect(try await Self.spent(sandbox) == USD("0.20"))
    _ = try await user.v2.post(text: "No link in this one")
    #expect(try await Self.spent(sandbox) == USD("0.215"))
    _ = try await Self.app(sandbox).v2.tweetCounts(query: "from:oauth_fan")
    #expect(try await Self.spent(sandbox) == USD("0.22"))
    // Refused by X: a duplicate post, a bad parameter. Not billed.
    #expect(await xError { _ = try await user.v2.post(text: "No link in this one") } != nil)
    let bad = try await sandbox.raw(
      .get, "https://api.x.com/2/tweets/search/recent?query=from%3Aoauth_fan&max_results=5", authorization: "Bearer \(XSandbox.demoBearerToken)")
    #expect(bad.statusCode == 400)
    let charges = try #require(try await Self.billing(sandbox)["charges"] as? [String: [String: Any]])
    #expect(charges["post_create_with_url"]?["amount"] as? String == "0.20" && charges["post_create"]?["amount"] as? String == "0.015")
    #expect(charges["counts_recent"]?["count"] as? Int == 1)
    #expect(try await Self.spent(sandbox) == USD("0.22"))
  }

  @Test("credits that run out mid-way: the page that empties them is served whole, then 402 and nothing more is charged")
  func creditsRunOut() async throws {
    let sandbox = Self.sandbox(credits: "0.06")
    let user = Self.user(sandbox)
    var served = 0
    let error = await xError {
      for try await _ in user.v2.homeTimeline(userID: "1001", options: TimelineOptions(maxResults: 10)).tweets() { served += 1 }
    }
    guard case .creditsDepleted? = error else {
      Issue.record("expected CreditsDepleted, got \(String(describing: error))")
      return
    }
    #expect(served == 20, "the second page took the balance below zero and was served whole")
    #expect(try await Self.balance(sandbox) == "-0.04")
    let refused = await xError { _ = try await user.v2.me() }
    guard case .creditsDepleted? = refused else {
      Issue.record("expected CreditsDepleted, got \(String(describing: refused))")
      return
    }
    #expect(try await Self.spent(sandbox) == USD("0.10"), "a refused request is not charged")
    // A top-up (the control API) lifts the refusal.
    let account = try await Self.billing(sandbox, ["add_credits": "1.00"])
    #expect(account["balance"] as? String == "0.96")
    _ = try await user.v2.me()
    #expect(try await Self.balance(sandbox) == "0.95")
  }

  @Test("past the post cap: 429 usage-capped with headroom in the rate-limit headers, for post reads only")
  func postCap() async throws {
    let sandbox = Self.sandbox(credits: nil, postCap: 10)
    let app = Self.app(sandbox)
    let error = await xError {
      _ = try await app.v2.searchRecent(query: "from:oauth_fan", options: TimelineOptions(maxResults: 10)).tweets().collect()
    }
    guard case .creditsDepleted? = error else {
      Issue.record("expected the usage cap, got \(String(describing: error))")
      return
    }
    let raw = try await sandbox.raw(
      .get, "https://api.x.com/2/tweets/search/recent?query=from%3Aoauth_fan", authorization: "Bearer \(XSandbox.demoBearerToken)")
    #expect(raw.statusCode == 429)
    let body = try #require(jsonObject(raw))
    #expect(body["type"] as? String == "https://api.twitter.com/2/problems/usage-capped" && body["title"] as? String == "UsageCapExceeded")
    let remaining = try #require(raw.headers["x-rate-limit-remaining"].flatMap { Int($0) })
    #expect(remaining > 0 && raw.headers["x-rate-limit-limit"] == "450")
    // Users are not posts: the cap does not refuse them, and no credits means no 402.
    #expect(try await app.v2.user(username: "swift_lang").username == "swift_lang")
    let account = try await Self.billing(sandbox)
    #expect(account["posts_in_cycle"] as? Int == 10 && account["balance"] is NSNull)
  }

  @Test("GET /2/usage/tweets counts the posts charged, in X's shape, decoded by XClient; app-only and free")
  func usageFromTheSameAccounts() async throws {
    let sandbox = Self.sandbox(postCap: 1000)
    let app = Self.app(sandbox)
    _ = try await app.v2.searchRecent(query: "from:oauth_fan").tweets().collect()
    _ = try await app.v2.searchRecent(query: "from:swift_lang", options: TimelineOptions(maxResults: 10), limit: 10).tweets().collect()
    #expect(await xError { _ = try await Self.user(sandbox).v2.usage() } != nil, "app-only, as X serves it")
    _ = try await SandboxMediaTests.control(sandbox, "clock", json: ["skew": 86_400])
    _ = try await app.v2.searchRecent(query: "from:oauth_fan", options: TimelineOptions(maxResults: 10), limit: 10).tweets().collect()
    _ = try await app.v2.user(username: "swift_lang")
    let spent = try #require(try await Self.spent(sandbox))

    let usage = try await app.v2.usage(days: 7)
    #expect(usage.projectUsage == 40 && usage.projectCap == 1000 && usage.capResetDay == 1)
    #expect(usage.projectID == "1930000001")
    let days = [XUsage.Day(day: "2024-05-01", posts: 30), XUsage.Day(day: "2024-05-02", posts: 10)]
    #expect(usage.daily == days && usage.dailyByApp == ["29841730": days])
    #expect(try await app.v2.usage(days: 1).daily == [XUsage.Day(day: "2024-05-02", posts: 10)])
    let account = try await Self.billing(sandbox)
    #expect(account["posts_in_cycle"] as? Int == usage.projectUsage)
    #expect(try await Self.spent(sandbox) == spent, "the usage endpoint is not billed")
    #expect(spent == Self.postPrice * 40 + USD("0.01")!)

    // X's wire form (specification 2.166 and X's page): counts as numbers, days at midnight UTC;
    // a user-context signature refused.
    let raw = try await sandbox.raw(
      .get, "https://api.x.com/2/usage/tweets?usage.fields=daily_project_usage,project_usage", authorization: "Bearer \(XSandbox.demoBearerToken)")
    #expect(raw.text.contains(#""project_usage":40"#) && raw.text.contains(#"{"date":"2024-05-01T00:00:00.000Z","usage":30}"#))
    let bad = try await sandbox.raw(.get, "https://api.x.com/2/usage/tweets?days=91", authorization: "Bearer \(XSandbox.demoBearerToken)")
    #expect(bad.statusCode == 400)
  }

  @Test("each post delivered on the stream is charged; at zero credits the stream ends with the problem, and a reconnection gets 402")
  func streamCharges() async throws {
    let sandbox = Self.sandbox(credits: "0.01", tweetsPerUser: 5, streamTimeScale: 0.01)
    _ = try await Self.app(sandbox).v2.addStreamRules([.init(value: "from:oauth_fan")])
    let request = HTTPRequest(
      method: .get, url: URL(string: "https://api.x.com/2/tweets/search/stream")!, headers: ["Authorization": "Bearer \(XSandbox.demoBearerToken)"])
    let stream = try await sandbox.open(request)
    #expect(stream.statusCode == 200)
    var lines: [String] = []
    for try await chunk in stream.body {
      lines += String(decoding: chunk, as: UTF8.self).split(separator: "\r\n").map(String.init)
    }
    let posts = lines.filter { $0.hasPrefix(#"{"data""#) }
    #expect(posts.count == 2, "$0.01 buys two posts")
    #expect(lines.last?.contains("CreditsDepleted") == true)
    let account = try await Self.billing(sandbox)
    #expect(account["balance"] as? String == "0.00" && account["posts_in_cycle"] as? Int == 2)
    let again = try await sandbox.open(request)
    #expect(again.statusCode == 402)
  }

  @Test("the sandbox is free unless given credits or a cap; the control API refuses what is not an amount")
  func freeByDefaultAndControl() async throws {
    let sandbox = Self.sandbox(credits: nil)
    _ = try await Self.app(sandbox).v2.searchRecent(query: "from:oauth_fan").tweets().collect()
    var account = try await Self.billing(sandbox)
    #expect(account["metered"] as? Bool == false && account["spent"] as? String == "0.00")
    #expect(try await Self.billing(sandbox, ["credits": "lots"])["error"] != nil)
    #expect(try await Self.billing(sandbox, ["colour": 1])["error"] != nil)
    account = try await Self.billing(sandbox, ["credits": "2", "post_cap": 50])
    #expect(account["metered"] as? Bool == true && account["balance"] as? String == "2.00" && account["post_cap"] as? Int == 50)
    account = try await Self.billing(sandbox, ["post_cap": NSNull()])
    #expect(account["post_cap"] is NSNull)
  }
}
