import Foundation
import TestSupport
import Testing

/// Spending only what the user allowed (issue #30), as processes against the sandbox over
/// loopback: the budget stops a paged fetch before the page that could pass it, keeping whole
/// pages; `--resume` with a larger budget goes on without buying again what was bought today;
/// `--estimate` asks the counts endpoint only; the ledger keeps one charge per post per UTC day.
@Suite("Cost control: budgets, estimates and the ledger", .sandboxChecks, .serialized, .tags(.processes), .tier(.processes))
struct CostControlTests {
  /// What `tweets usage --format json` says was spent this cycle, from the profile's ledger.
  static func spent(_ tweets: TweetsRunner, environment: [String: String] = [:]) async throws -> (cycle: String, rows: [[String: Any]]) {
    let usage = try await tweets.run(["usage", "--format", "json"], environment: environment)
    let report = try usage.json() as? [String: Any] ?? [:]
    return (report["spent_this_cycle"] as? String ?? "?", report["spent"] as? [[String: Any]] ?? [])
  }

  @Test func aBudgetStopsBeforeThePageThatCouldPassItAndResumeBuysNothingTwice() async throws {
    let server = try await VerifiedSandbox.start()
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()
    try await server.reset()
    let archive = tweets.configDirectory.appendingPathComponent("climate.sqlite").path
    // 150 posts of "a": a page of 100 ($0.50 at worst), then one of 50 ($0.25: a page asks for
    // no more than are still wanted). $0.60 allows the first, not the second.
    let stopped = try await tweets.run(["search", "a", "--limit", "150", "--db", archive, "--max-cost", "0.60"])
    #expect(stopped.status == 7, "\(stopped.stderr)")
    #expect(stopped.stderr.contains("stopped after 100 tweets"), "\(stopped.stderr)")
    #expect(stopped.stderr.contains("it could cost up to $0.25, and $0.50 of the $0.60 allowed is spent"), "\(stopped.stderr)")
    #expect(stopped.stderr.contains("--resume"), "\(stopped.stderr)")
    // The login looked up the account it belongs to (users/me, a user read, $0.01): a lookup
    // the tool makes on its own is billed like any read.
    #expect(try await Self.spent(tweets).cycle == "0.51")
    // The refused request was never sent.
    let searches = try await server.stats().requests.filter { $0.path == "/2/tweets/search/recent" }
    #expect(searches.count == 1, "\(searches)")

    let resumed = try await tweets.run(["search", "a", "--limit", "150", "--db", archive, "--resume", "--max-cost", "1.00"])
    #expect(resumed.status == 0, "\(resumed.stderr)")
    #expect(resumed.stderr.contains("150 in all"), "\(resumed.stderr)")
    // 150 posts bought once each: $0.75, whatever the runs that fetched them.
    #expect(try await Self.spent(tweets).cycle == "0.76")

    // The same search again the same day is charged nothing: a page's worst case is not known
    // before it comes, so the limit must still cover it, but the posts were bought today.
    let again = try await tweets.run(["search", "a", "--limit", "150", "--format", "jsonl", "--max-cost", "0.75"])
    #expect(again.status == 0 && again.stdout.split(separator: "\n").count == 150, "\(again.stderr)")
    let (cycle, rows) = try await Self.spent(tweets)
    #expect(cycle == "0.76")
    let byCommand = Dictionary(grouping: rows) { $0["command"] as? String ?? "?" }.mapValues { $0.map { $0["items"] as? Int ?? 0 }.reduce(0, +) }
    #expect(byCommand == ["search": 150, "login": 1], "\(rows)")
  }

  @Test func anEstimateAsksTheCountsEndpointOnly() async throws {
    let server = try await VerifiedSandbox.start()
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()
    try await server.reset()
    let estimate = try await tweets.run(["search", "a", "--estimate", "--all"] + tweets.consumer)
    #expect(estimate.status == 0, "\(estimate.stderr)")
    #expect(estimate.stdout.contains("This count cost $0.005."), "\(estimate.stdout)")
    let paths = try await server.stats().requests.map(\.path)
    #expect(paths.filter { $0.hasPrefix("/2/tweets/counts/recent") }.count == 1, "\(paths)")
    #expect(!paths.contains { $0.hasPrefix("/2/tweets/search") }, "\(paths)")
    // The figure is what fetching them all returns, and the price is that many posts'.
    let fetched = try await tweets.run(["search", "a", "--all", "--format", "jsonl"]).stdout.split(separator: "\n").count
    #expect(
      estimate.stdout.hasPrefix("\(fetched) posts match: fetching them costs \(Self.dollars(posts: fetched)) at $0.005 a post"), "\(estimate.stdout)")
  }

  /// Dollars as `tweets` prints them, for `posts` at half a cent, computed here in tenths of a cent.
  static func dollars(posts: Int) -> String {
    let tenths = posts * 5
    var fraction = String(format: "%03d", tenths % 1000)
    if fraction.hasSuffix("0") { fraction.removeLast() }
    return "$\(tenths / 1000).\(fraction)"
  }

  @Test func aThreadOverItsBudgetIsRefusedBeforeItsFirstPost() async throws {
    let server = try await VerifiedSandbox.start()
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()
    let file = tweets.configDirectory.appendingPathComponent("thread.txt")
    // Three posts, one with a link: $0.015 + $0.20 + $0.015.
    try Data("one\n---\ntwo: see swift.org\n---\nthree\n".utf8).write(to: file)
    let refused = try await tweets.run(["post", "--thread", file.path, "--max-cost", "0.20"])
    #expect(refused.status == 7, "\(refused.stderr)")
    #expect(refused.stderr.contains("cost $0.23"), "\(refused.stderr)")
    #expect(!refused.stdout.contains("Posted"), "\(refused.stdout)")
    let single = try await tweets.run(["post", "read swift.org"])
    #expect(single.status == 0 && single.stderr.contains("this post costs $0.20"), "\(single.stderr)")
  }

  /// A mix of commands against a sandbox that bills as X does: the ledger's total equals what
  /// the sandbox charged, to the cent (a search, the same search again, one's own timeline as
  /// owned reads, a hydrate of ids fetched before, a post with a link).
  @Test func theLedgerAgreesWithWhatTheSandboxCharged() async throws {
    let server = try await VerifiedSandbox.start(credits: "100.00")
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()
    let search = try await tweets.run(["search", "a", "--limit", "30", "--format", "jsonl"])
    #expect(search.status == 0, "\(search.stderr)")
    #expect(try await tweets.run(["search", "a", "--limit", "30"]).status == 0)
    #expect(try await tweets.run(["timeline", "sandbox_user", "--limit", "20"]).status == 0)
    let ids = search.stdout.split(separator: "\n").compactMap { line in
      (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? String
    }
    let idFile = tweets.configDirectory.appendingPathComponent("ids.txt")
    try Data(ids.prefix(20).joined(separator: "\n").utf8).write(to: idFile)
    #expect(try await tweets.run(["hydrate", idFile.path, "--format", "jsonl"]).status == 0)
    let post = try await tweets.run(["post", "notes at https://swift.org/blog"])
    #expect(post.status == 0, "\(post.stderr)")
    let charged = try await server.billing().spent
    let (ledger, rows) = try await Self.spent(tweets)
    #expect(USDText(ledger) == USDText(charged), "the ledger says \(ledger), the sandbox charged \(charged): \(rows)")
    #expect(USDText(charged) > USDText("0.20"), "the post with a link alone costs $0.20: \(charged)")
  }

  /// Credentials from the environment and no `tweets login` (issue #42): the access token names
  /// the account (X's begin with its numeric id), so one's own timeline is recorded as X bills
  /// it, as owned reads ($0.001 a post, not $0.005), and the ledger agrees with the sandbox.
  @Test func ownPostsReadWithATokenFromTheEnvironmentAreOwnedReads() async throws {
    let server = try await VerifiedSandbox.start(credits: "100.00")
    let tweets = try TweetsRunner(server: server)
    let environment = [
      "X_CONSUMER_KEY": VerifiedSandbox.consumerKey, "X_CONSUMER_SECRET": VerifiedSandbox.consumerSecret,
      "X_ACCESS_TOKEN": VerifiedSandbox.accessToken, "X_ACCESS_TOKEN_SECRET": VerifiedSandbox.accessTokenSecret,
    ]
    let timeline = try await tweets.run(["timeline", "sandbox_user", "--limit", "20"], environment: environment)
    #expect(timeline.status == 0, "\(timeline.stderr)")
    #expect(!timeline.stderr.contains("does not know whose access token"), "\(timeline.stderr)")
    let charged = try await server.billing().spent
    let (ledger, rows) = try await Self.spent(tweets, environment: environment)
    // The username's lookup ($0.01, a user read) and 20 owned reads ($0.02).
    #expect(USDText(charged) == USDText("0.03"), "the sandbox charged \(charged)")
    #expect(USDText(ledger) == USDText(charged), "the ledger says \(ledger), the sandbox charged \(charged): \(rows)")
  }

  /// A token that names no account (not X's `ID-…` form) and no profile: a read of a user's own
  /// data is recorded at the full price, and the run says so, once, before it is sent.
  @Test func anUnknownAccountIsSaidOnce() async throws {
    let server = try await VerifiedSandbox.start()
    let tweets = try TweetsRunner(server: server)
    let environment = [
      "X_CONSUMER_KEY": VerifiedSandbox.consumerKey, "X_CONSUMER_SECRET": VerifiedSandbox.consumerSecret,
      "X_ACCESS_TOKEN": "opaque-token", "X_ACCESS_TOKEN_SECRET": "secret",
    ]
    let read = try await tweets.run(["api", "GET", "/2/users/1001/tweets"], environment: environment)
    let notes = read.stderr.components(separatedBy: "the ledger does not know whose access token this is").count - 1
    #expect(notes == 1 && read.stderr.contains("user 1001's data at the full price"), "\(read.stderr)")
    // Not for a read X never bills as owned.
    let search = try await tweets.run(["api", "GET", "/2/tweets/search/recent?query=a"], environment: environment)
    #expect(!search.stderr.contains("the ledger does not know"), "\(search.stderr)")
  }

  /// Credits run out in the middle of a paged fetch: what was stored is kept, the message says
  /// where to add credits, and after a top-up `--resume` finishes.
  @Test func creditsRunningOutStopAFetchThatResumesAfterATopUp() async throws {
    let server = try await VerifiedSandbox.start(credits: "0.60")
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()
    let archive = tweets.configDirectory.appendingPathComponent("a.sqlite").path
    // $0.60 less the login's $0.01 buys the first page of 100 ($0.50) and part of the second
    // (the answer that empties the balance is served whole); the third is refused with 402.
    let stopped = try await tweets.run(["search", "a", "--limit", "300", "--db", archive])
    #expect(stopped.status == 3, "\(stopped.stderr)")
    #expect(stopped.stderr.contains("stopped after 200 tweets"), "\(stopped.stderr)")
    #expect(stopped.stderr.contains("credits") && stopped.stderr.contains("https://console.x.com"), "\(stopped.stderr)")
    try await server.addCredits("5.00")
    let resumed = try await tweets.run(["search", "a", "--limit", "300", "--db", archive, "--resume"])
    #expect(resumed.status == 0, "\(resumed.stderr)")
    #expect(resumed.stderr.contains("300 in all"), "\(resumed.stderr)")
    let (ledger, _) = try await Self.spent(tweets)
    #expect(USDText(ledger) == USDText(try await server.billing().spent))
  }
}

/// An amount as text, compared exactly (`"0.5"` and `"0.50"` are equal), in millionths.
struct USDText: Equatable, Comparable {
  let micros: Int
  init(_ text: String) {
    let digits = text.drop { $0 == "$" }
    let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
    let fraction = parts.count > 1 ? String(parts[1]) : ""
    micros = (Int(parts.first ?? "0") ?? 0) * 1_000_000 + (Int((fraction + "000000").prefix(6)) ?? 0)
  }
  static func < (lhs: USDText, rhs: USDText) -> Bool { lhs.micros < rhs.micros }
}
