import Foundation
import NetworkClient
import NetworkClientTesting
import OAuth1
import TestSupport
import Testing
import XAPI

/// X's pay-per-use billing as the client keeps it: amounts, the endpoint table, the budget
/// behavior over a stub transport, and real answers recorded by other projects.
@Suite("Billing: prices, budgets and the ledger")
struct BillingTests {
  static let consumer = Credentials(key: "k", secret: "s")

  func client(_ stub: StubTransport, _ budget: XBudgetBehavior) -> XClient {
    XClient(
      authentication: .oauth1(consumer: Self.consumer, token: Credentials(key: "t", secret: "u")),
      baseURL: URL(string: "https://api.x.com")!, transport: stub, retry: nil, behaviors: [budget])
  }

  static func page(ids: [Int], date: String = "Thu, 26 Nov 2026 12:00:00 GMT", next: String? = nil) -> StubTransport.Reply {
    let data = ids.map { #"{"id":"\#($0)","text":"post \#($0)","edit_history_tweet_ids":["\#($0)"]}"# }.joined(separator: ",")
    let meta = next.map { #","meta":{"result_count":\#(ids.count),"next_token":"\#($0)"}"# } ?? #","meta":{"result_count":\#(ids.count)}"#
    return .json(#"{"data":[\#(data)],"includes":{"users":[{"id":"9","username":"x","name":"X"}]}\#(meta)}"#, headers: ["Date": date])
  }

  /// X's clock on the stub's answers (`page(ids:)`'s default `Date`): 26 November 2026, noon UTC.
  static let noon26 = Date(timeIntervalSince1970: 1_795_694_400)

  /// A clock a test moves.
  final class Clock: @unchecked Sendable {
    private let lock = NSLock()
    private var date: Date
    init(_ date: Date) { self.date = date }
    var now: Date {
      get { lock.withLock { date } }
      set { lock.withLock { date = newValue } }
    }
  }

  /// Warnings a budget gave.
  final class Warnings: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func add(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
  }

  @Test func amountsAreExact() {
    #expect(USD("0.005") == USD(micros: 5_000))
    #expect(USD("$1,000.50") == USD(micros: 1_000_500_000))
    #expect(USD(".5") == USD(micros: 500_000) && USD("2") == USD(micros: 2_000_000))
    for bad in ["", ".", "-1", "1e3", "0.0000001", "abc", "1.2.3", "99999999999999"] { #expect(USD(bad) == nil, "\(bad)") }
    #expect(USD.cents(1) * 50 == USD("0.50"))
    #expect("\(USD("0.005")!)" == "$0.005" && "\(USD("12")!)" == "$12.00" && "\(USD("0.5")!)" == "$0.50")
    // A thousand half-cent posts are five dollars exactly, where binary floating point drifts.
    #expect((0..<1000).reduce(USD.zero) { total, _ in total + USD("0.005")! } == USD("5"))
  }

  /// Amounts read from text stop at `USD.maximum` (13 digits of dollars used to trap when
  /// multiplied into millionths), and arithmetic saturates instead of trapping (issue #43).
  @Test func amountsHaveAMaximumAndArithmeticSaturates() {
    #expect(USD("1000000000") == USD.maximum && USD("1,000,000,000.000000") == USD.maximum)
    for past in ["1000000000.000001", "9999999999999", "99999999999999999999999999"] {
      #expect(USD(past) == nil && USD.isAmount(past), "\(past)")
    }
    #expect(!USD.isAmount("1e9") && !USD.isAmount("-5"))
    #expect(USD(micros: 5_000) * Int.max == USD.saturated)
    #expect(USD.saturated + USD("0.01")! == USD.saturated && USD(micros: .min) - USD("0.01")! == USD(micros: .min))
    #expect("\(USD.saturated)" == "more than $9223372036854.775806")
    #expect(Int.max.addingSaturating(Int.max) == Int.max && Int.min.addingSaturating(-1) == Int.min && 2.addingSaturating(3) == 5)
  }

  @Test func everyEndpointTheClientCallsHasAPrice() {
    func billing(_ method: HTTPMethod, _ path: String, owner: String? = "42", body: String? = nil) -> XBilling {
      XBilling.of(HTTPRequest(method: method, url: URL(string: "https://api.x.com/" + path)!, body: body.map { Data($0.utf8) }), ownerUserID: owner)
    }
    #expect(billing(.get, "2/tweets/search/recent?query=a&max_results=10") == .perResource(.post, owned: false, atMost: 10))
    #expect(billing(.get, "2/tweets/search/all?query=a") == .perResource(.post, owned: false, atMost: 500))
    #expect(billing(.get, "2/tweets?ids=1,2,3") == .perResource(.post, owned: false, atMost: 3))
    #expect(billing(.get, "2/users/42/tweets?max_results=100") == .perResource(.post, owned: true, atMost: 100))
    #expect(billing(.get, "2/users/43/tweets?max_results=100") == .perResource(.post, owned: false, atMost: 100))
    #expect(billing(.get, "2/users/42/tweets", owner: nil) == .perResource(.post, owned: false, atMost: 100))
    #expect(billing(.get, "2/users/42/followers?max_results=1000") == .perResource(.follow, owned: true, atMost: 1000))
    #expect(billing(.get, "2/users/by/username/jack") == .perResource(.user, owned: false, atMost: 1))
    #expect(billing(.get, "2/users/42/timelines/reverse_chronological") == .perResource(.post, owned: false, atMost: 100))
    #expect(billing(.get, "2/tweets/counts/recent?query=a") == .perRequest(.countsRecent))
    #expect(billing(.get, "2/tweets/counts/all?query=a") == .perRequest(.countsAll))
    #expect(billing(.get, "2/tweets/search/stream") == .free)
    #expect(billing(.get, "2/tweets/search/stream/rules") == .free)
    #expect(billing(.get, "2/usage/tweets") == .free)
    #expect(billing(.get, "1.1/statuses/user_timeline.json?count=200") == .perResource(.post, owned: false, atMost: 200))
    #expect(billing(.post, "2/tweets", body: #"{"text":"hello"}"#) == .perRequest(.postCreate))
    #expect(billing(.post, "2/tweets", body: #"{"text":"see example.com"}"#) == .perRequest(.postCreateWithURL))
    #expect(billing(.post, "2/tweets", body: #"{"text":"https://t.co/x"}"#) == .perRequest(.postCreateWithURL))
    #expect(billing(.post, "1.1/statuses/update.json", body: "status=read%20swift.org") == .perRequest(.postCreateWithURL))
    #expect(billing(.delete, "2/tweets/5") == .perRequest(.interactionDelete))
    #expect(billing(.post, "2/users/42/bookmarks") == .perRequest(.bookmark))
    #expect(billing(.delete, "2/users/42/bookmarks/5") == .perRequest(.bookmark))
    #expect(billing(.get, "2/users/42/bookmarks?max_results=20") == .perResource(.post, owned: true, atMost: 20))
    #expect(billing(.get, "2/users/42/bookmarks/folders") == .free)
    #expect(billing(.get, "2/users/42/bookmarks/folders/7") == .perResource(.post, owned: true, atMost: 100))
    #expect(billing(.get, "2/connections?status=active") == .free)
    #expect(billing(.delete, "2/connections/all") == .free)
    #expect(billing(.delete, "2/connections", body: #"{"uuids":["a"]}"#) == .free)
    #expect(billing(.post, "2/oauth2/token") == .free)
    #expect(billing(.get, "2/something/new") == .unpriced)
  }

  @Test func aRunStopsBeforeTheRequestThatCouldPassItsLimit() async throws {
    // Three pages of 100 at $0.005: $0.50 each. A $1.00 limit allows two, and refuses the third
    // before it is sent.
    let stub = StubTransport([Self.page(ids: Array(1...100), next: "a"), Self.page(ids: Array(101...200), next: "b")])
    let ledger = InMemoryXLedger()
    let budget = XBudgetBehavior(limit: USD("1.00")!, ledger: ledger, command: "search", now: { Self.noon26 })
    let pages = client(stub, budget).v2.searchRecent(query: "a", options: TimelineOptions(maxResults: 100), limit: 1000)
    var fetched: [Tweet] = []
    await #expect {
      for try await page in pages { fetched += page.tweets }
    } throws: { error in
      guard case .wouldExceed(let limit, let spent, _, let next, let request) = (error as? XError)?.budget else { return false }
      return limit == USD("1.00") && spent == USD("1.00") && next == USD("0.50") && request == "GET /2/tweets/search/recent"
    }
    #expect(fetched.count == 200 && stub.requests.count == 2)
    #expect(budget.spent == USD("1.00"))
    #expect(
      try await ledger.totals(from: "2026-11-26", through: "2026-11-26") == [
        XLedgerTotal(day: "2026-11-26", command: "search", items: 200, amount: USD("1.00")!)
      ])
  }

  @Test func aResourceIsChargedOncePerUTCDay() async throws {
    let ledger = InMemoryXLedger()
    // The same ten posts twice on X's 26 November, then again on the 27th (X's Date header).
    let stub = StubTransport([
      Self.page(ids: Array(1...10)), Self.page(ids: Array(1...10)), Self.page(ids: Array(1...10), date: "Fri, 27 Nov 2026 00:00:01 GMT"),
    ])
    let clock = Clock(Self.noon26)
    let budget = XBudgetBehavior(limit: nil, ledger: ledger, command: "hydrate", now: { clock.now })
    let client = client(stub, budget)
    let ids = (1...10).map(String.init)
    _ = try await client.v2.tweets(ids: ids)
    _ = try await client.v2.tweets(ids: ids)
    #expect(budget.spent == USD("0.05"))
    clock.now = Date(timeIntervalSince1970: 1_795_737_601)  // 27 November, 00:00:01 UTC
    _ = try await client.v2.tweets(ids: ids)
    #expect(budget.spent == USD("0.10"))
    #expect(try await ledger.charged(day: "2026-11-26", kind: .resource(.post), ids: ["1", "11"]) == ["1"])
  }

  /// Within `XBudgetBehavior.maxClockDifference` X's clock decides the day: at 23:55 here and
  /// 00:05 at X, the next request is X's next day. Past it, a `Date` of 2000 is not believed
  /// (one warning for the run) and charges stay on this computer's day (issue #43).
  @Test func xsDateIsBelievedOnlyNearTheLocalClock() async throws {
    let ledger = InMemoryXLedger()
    let warnings = Warnings()
    let clock = Clock(Date(timeIntervalSince1970: 1_795_737_300))  // 26 November, 23:55 UTC
    let stub = StubTransport([
      Self.page(ids: [1], date: "Fri, 27 Nov 2026 00:05:00 GMT"), Self.page(ids: [2], date: "Fri, 27 Nov 2026 00:05:01 GMT"),
      Self.page(ids: [3], date: "Sat, 01 Jan 2000 00:00:00 GMT"), Self.page(ids: [4], date: "Fri, 31 Dec 9999 23:59:59 GMT"),
    ])
    let budget = XBudgetBehavior(limit: nil, ledger: ledger, command: "hydrate", now: { clock.now }, warn: warnings.add)
    let client = client(stub, budget)
    _ = try await client.v2.tweets(ids: ["1"])  // priced before X's Date was known: the local day
    _ = try await client.v2.tweets(ids: ["2"])  // X's clock, 10 minutes ahead: the 27th
    clock.now = Date(timeIntervalSince1970: 1_795_737_900)  // 27 November, 00:05 UTC
    _ = try await client.v2.tweets(ids: ["3"])
    _ = try await client.v2.tweets(ids: ["4"])
    #expect(try await ledger.charged(day: "2026-11-26", kind: .resource(.post), ids: ["1", "2", "3", "4"]) == ["1"])
    #expect(try await ledger.charged(day: "2026-11-27", kind: .resource(.post), ids: ["1", "2", "3", "4"]) == ["2", "3", "4"])
    #expect(warnings.all.count == 1 && warnings.all[0].contains("Sat, 01 Jan 2000"), "\(warnings.all)")
  }

  /// An answer holding more than its request asked for is charged what was asked: of a lookup,
  /// the ids named; of a page, `max_results`. The rest is counted in a warning, and what was
  /// charged never passes what was held (issue #43: 500 posts for 10 were $2.50 under $0.05).
  @Test func anAnswerIsChargedNoMoreThanWasAskedFor() async throws {
    let warnings = Warnings()
    let stub = StubTransport([Self.page(ids: Array(1...500)), Self.page(ids: Array(1001...1500))])
    let budget = XBudgetBehavior(limit: USD("0.10")!, ledger: InMemoryXLedger(), command: "search", now: { Self.noon26 }, warn: warnings.add)
    let client = client(stub, budget)
    let lookup = try await client.v2.tweets(ids: (1...10).map(String.init))
    #expect(lookup.tweets.count == 500)
    #expect(budget.spent == USD("0.05"))
    var fetched = 0
    for try await page in client.v2.searchRecent(query: "a", options: TimelineOptions(maxResults: 10), limit: 10) { fetched += page.tweets.count }
    #expect(budget.spent == USD("0.10") && budget.spent <= budget.limit!)
    #expect(warnings.all.count == 2 && warnings.all.allSatisfy { $0.contains("490 more items than were asked for") }, "\(warnings.all)")
  }

  /// A shared limit (`tweets budget`, per billing cycle) counts what every run recorded in the
  /// ledger: two runs under $0.50 spend $0.50 together, not $0.50 each (issue #43).
  @Test func aSharedLimitCountsWhatOtherRunsRecorded() async throws {
    let ledger = InMemoryXLedger(now: { Self.noon26 })
    let cycle = XSharedLimit(limit: USD("0.50")!, since: "2026-11-01", scope: "this billing cycle (since 2026-11-01)")
    let stub = StubTransport([Self.page(ids: Array(1...100)), Self.page(ids: Array(101...110))])
    let first = XBudgetBehavior(limit: nil, ledger: ledger, command: "search", now: { Self.noon26 }, shared: cycle)
    _ = try await client(stub, first).v2.tweets(ids: (1...100).map(String.init))
    #expect(first.spent == USD("0.50") && first.remaining == .zero)
    let second = XBudgetBehavior(limit: USD("5.00")!, ledger: ledger, command: "search", now: { Self.noon26 }, shared: cycle)
    await #expect {
      _ = try await client(stub, second).v2.tweets(ids: (101...110).map(String.init))
    } throws: { error in
      guard case .wouldExceedShared(let limit, let recorded, _, let next, _, let scope) = (error as? XError)?.budget else { return false }
      return limit == USD("0.50") && recorded == USD("0.50") && next == USD("0.05") && scope.contains("billing cycle")
    }
    #expect(stub.requests.count == 1)
    // What was bought today costs nothing again, so it still fits.
    let third = XBudgetBehavior(limit: nil, ledger: ledger, command: "search", now: { Self.noon26 }, shared: cycle)
    await #expect(throws: Never.self) { try await third.checkAfterReading(.zero, for: "nothing") }
    #expect(throws: XBudgetError.self) { try third.check(USD("0.01")!, for: "a post") }
  }

  @Test func postsBoughtTodayDoNotCountAgainstTheLimit() async throws {
    let ledger = InMemoryXLedger()
    let ids = (1...100).map(String.init)
    let first = XBudgetBehavior(limit: USD("0.50")!, ledger: ledger, command: "hydrate", now: { Date(timeIntervalSince1970: 1_795_078_800) })
    let stub = StubTransport(
      [Self.page(ids: Array(1...100), date: "Thu, 19 Nov 2026 10:00:00 GMT")],
      fallback: Self.page(ids: Array(1...100), date: "Thu, 19 Nov 2026 10:00:00 GMT"))
    _ = try await client(stub, first).v2.tweets(ids: ids)
    #expect(first.spent == USD("0.50"))
    // A second run the same day with only $0.01: the 100 posts are already bought, so the
    // worst case is nothing and the lookup goes; it charges nothing.
    let second = XBudgetBehavior(limit: USD("0.01")!, ledger: ledger, command: "hydrate", now: { Date(timeIntervalSince1970: 1_795_100_400) })
    _ = try await client(stub, second).v2.tweets(ids: ids)
    #expect(second.spent == .zero && stub.requests.count == 2)
  }

  /// X's access tokens begin with the account's numeric id (`370773112-…` in X's signing
  /// example): a budget whose token came from the environment, with no login, still knows whose
  /// reads are owned reads. Without an owner it records them at the full price and says so.
  @Test func theOwnerFromTheTokenAndAnUnknownOwnerToldOfOwnableReads() async throws {
    #expect(XBilling.userID(ofAccessToken: "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb") == "370773112")
    for token in [
      "sandbox-token", "-abc", "0123-abc", "12345-", "12a-bc", "AAAAAAAAAAAAAAAAAAAAAMLheAAAAAAA0%2BuSeid", "", "1234567890123456789012-x",
    ] {
      #expect(XBilling.userID(ofAccessToken: token) == nil, "\(token)")
    }
    func get(_ path: String) -> HTTPRequest { HTTPRequest(method: .get, url: URL(string: "https://api.x.com/" + path)!) }
    #expect(XBilling.ownableUserID(of: get("2/users/42/tweets?max_results=100")) == "42")
    #expect(XBilling.ownableUserID(of: get("2/users/42/followers")) == "42")
    for path in ["2/users/42", "2/users/42/timelines/reverse_chronological", "2/tweets/search/recent?query=a", "1.1/statuses/user_timeline"] {
      #expect(XBilling.ownableUserID(of: get(path)) == nil, "\(path)")
    }

    // Ten of one's own posts: $0.01 as owned reads when the token names the account; $0.05
    // without an owner, and the caller is told whose data was read.
    let request = Request<HTTPResponse>(path: "2/users/42/tweets")
    let told = Told()
    let owned = XBudgetBehavior(
      limit: nil, ledger: InMemoryXLedger(), command: "timeline", ownerUserID: XBilling.userID(ofAccessToken: "42-abc"), onUnknownOwner: told.add)
    _ = try await client(StubTransport([Self.page(ids: Array(1...10))]), owned).raw(request)
    #expect(owned.spent == USD("0.01") && told.ids.isEmpty)
    let unknown = XBudgetBehavior(limit: nil, ledger: InMemoryXLedger(), command: "timeline", onUnknownOwner: told.add)
    _ = try await client(StubTransport([Self.page(ids: Array(1...10))]), unknown).raw(request)
    _ = try await client(StubTransport([Self.page(ids: Array(1...10))]), unknown).raw(Request<HTTPResponse>(path: "2/tweets/search/recent"))
    #expect(unknown.spent == USD("0.05") && told.ids == ["42"])
  }

  /// What ``XBudgetBehavior``'s `onUnknownOwner` was told.
  final class Told: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [String] = []
    var ids: [String] { lock.withLock { seen } }
    func add(_ id: String) { lock.withLock { seen.append(id) } }
  }

  @Test func anUnpricedEndpointIsRefusedUnderALimitOnly() async throws {
    let stub = StubTransport(fallback: .json(#"{"data":[]}"#))
    let request = Request<HTTPResponse>(path: "2/something/new")
    let limited = client(stub, XBudgetBehavior(limit: USD("5")!, ledger: InMemoryXLedger(), command: "api"))
    await #expect {
      _ = try await limited.raw(request)
    } throws: { error in
      (error as? XError)?.budget == .unpriced(request: "GET /2/something/new")
    }
    #expect(stub.requests.isEmpty)
    _ = try await client(stub, XBudgetBehavior(limit: nil, ledger: InMemoryXLedger(), command: "api")).raw(request)
    #expect(stub.requests.count == 1)
  }

  @Test func concurrentRequestsCannotPassTheLimitTogether() async throws {
    let stub = StubTransport(fallback: .delayed(0.05, Self.page(ids: Array(1...100))))
    let budget = XBudgetBehavior(limit: USD("1.00")!, ledger: InMemoryXLedger(), command: "search")
    let client = client(stub, budget)
    let results = await withTaskGroup(of: Bool.self) { group in
      for index in 0..<5 {
        group.addTask { (try? await client.v2.tweets(ids: (0..<100).map { "\(index * 1000 + $0)" })) != nil }
      }
      return await group.reduce(into: [Bool]()) { $0.append($1) }
    }
    #expect(results.filter { $0 }.count == 2 && stub.requests.count == 2)
    #expect(budget.spent <= USD("1.00")!)
  }

  /// Real answers recorded by other projects: the charge is the `data` items, not the expanded
  /// `includes` (authors, media) that came with them.
  @Test(arguments: [("v2-search-recent-gif-and-video", 2), ("v2-home-timeline-default-fields", 98), ("v2-tweet-lookup-many-urls", 1)])
  func recordedAnswersAreChargedPerDataItem(recording: String, posts: Int) async throws {
    let file = PackagePaths.root.appendingPathComponent("Tests/XAPITests/Recordings/\(recording).json")
    let replay = ReplayTransport(try Cassette(contentsOf: file), matching: .methodAndPath)
    let budget = XBudgetBehavior(limit: nil, ledger: InMemoryXLedger(), command: "replay")
    let client = XClient(
      authentication: .oauth1(consumer: Self.consumer, token: Credentials(key: "t", secret: "u")),
      baseURL: URL(string: "https://api.twitter.com")!, transport: replay, retry: nil, behaviors: [budget])
    let interaction = try #require(try Cassette(contentsOf: file).interactions.first)
    let path = String(URL(string: interaction.request.url)!.path.dropFirst())
    _ = try await client.raw(Request<HTTPResponse>(path: path))
    #expect(budget.spent == USD(micros: 5_000) * posts)
  }

  @Test func aStreamStopsWhenNoPostIsLeftInTheBudget() async throws {
    let budget = XBudgetBehavior(limit: USD("0.012")!, ledger: InMemoryXLedger(), command: "stream")
    #expect(try await budget.streamed(postID: "1"))  // $0.005 spent, $0.007 left: one more fits
    #expect(try await budget.streamed(postID: "1"))  // the same post again the same day: free
    #expect(try await budget.streamed(postID: "2") == false)  // $0.010 spent, $0.002 left
    #expect(budget.spent == USD("0.010"))
  }

  @Test func aPriceFileReplacesWhatItNames() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pricing-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("pricing.json")
    try Data(#"{"effective":"2027-01-01","reads":{"post":"0.006"},"requests":{"post_create_with_url":0.25}}"#.utf8).write(to: file)
    let pricing = try XPricing.published.load(contentsOf: file)
    #expect(pricing.effective == "2027-01-01" && pricing.reads[.post] == USD("0.006") && pricing.requests[.postCreateWithURL] == USD("0.25"))
    #expect(pricing.reads[.user] == XPricing.published.reads[.user] && pricing.ownedRead == USD("0.001"))
    // A hostile or mistaken file is refused unread past the limit, naming it.
    try Data(count: XPricing.maxFileBytes + 1).write(to: file)
    #expect {
      try XPricing.published.load(contentsOf: file)
    } throws: { error in "\(error)".contains("larger than 65536 bytes") }
    try Data(#"{"reads":{"post":"0.006"}}"#.utf8).write(to: file)
    #expect(throws: XPricingError.self) { try XPricing.published.load(contentsOf: file) }
    try Data(#"{"effective":"2027-01-01","reads":{"tweet":"0.006"}}"#.utf8).write(to: file)
    #expect {
      try XPricing.published.load(contentsOf: file)
    } throws: { error in "\(error)".contains("price file") }
  }
}

/// `GET /2/usage/tweets` as X answers it: counts as strings (X's specification, and an answer
/// used in the tests of an R client) or as numbers (an answer used in a TypeScript worker's
/// tests), decoded alike.
@Suite("Billing: X's usage endpoint")
struct UsageEndpointTests {
  static let asStrings = """
    {"data":{"project_id":"1234","project_cap":"10000","project_usage":"250","cap_reset_day":15,
    "daily_project_usage":{"project_id":"1234","usage":[{"date":"2026-09-23T00:00:00.000Z","usage":"200"},
    {"date":"2026-09-22T00:00:00.000Z","usage":"50"}]},"daily_client_app_usage":[]}}
    """
  static let asNumbers = """
    {"data":{"cap_reset_day":12,"project_cap":10000,"project_id":"1234567890","project_usage":4321,
    "daily_project_usage":{"project_id":1234567890,"usage":[{"date":"2026-07-30T00:00:00.000Z","usage":120}]},
    "daily_client_app_usage":[{"client_app_id":"app-1","usage_result_count":1,"usage":[{"date":"2026-07-30T00:00:00.000Z","usage":120}]}]}}
    """

  func usage(_ body: String) async throws -> (XUsage, HTTPRequest) {
    let stub = StubTransport([.json(body)])
    let client = XClient(authentication: .bearer("app"), baseURL: URL(string: "https://api.x.com")!, transport: stub, retry: nil)
    let usage = try await client.v2.usage(days: 7)
    return (usage, try #require(stub.requests.first))
  }

  @Test func countsAsStrings() async throws {
    let (usage, request) = try await usage(Self.asStrings)
    #expect(usage.projectUsage == 250 && usage.projectCap == 10_000 && usage.capResetDay == 15 && usage.projectID == "1234")
    #expect(usage.daily == [XUsage.Day(day: "2026-09-22", posts: 50), XUsage.Day(day: "2026-09-23", posts: 200)])
    #expect(request.url.path == "/2/usage/tweets" && request.url.query?.contains("days=7") == true)
    #expect(XBilling.of(request, ownerUserID: nil) == .free)
  }

  @Test func countsAsNumbers() async throws {
    let (usage, _) = try await usage(Self.asNumbers)
    #expect(usage.projectUsage == 4_321 && usage.projectCap == 10_000 && usage.projectID == "1234567890")
    #expect(usage.dailyByApp == ["app-1": [XUsage.Day(day: "2026-07-30", posts: 120)]])
  }
}
