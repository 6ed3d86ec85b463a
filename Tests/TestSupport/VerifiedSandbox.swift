import Foundation
import XSandbox

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The package's one X emulator, ``XSandbox``, served over loopback HTTP by the built
/// `tweets sandbox serve --control` (its own process, so that tests blocking this process's
/// threads cannot starve it), behind `Tests/Peers/oauthlib_proxy.py`: every OAuth 1.0a signature a test sends is checked by
/// Python's oauthlib as well as by the sandbox, and a request on which the two disagree is
/// answered 418, so the test fails. Scripted per test through the sandbox's control API (429s,
/// 5xx, delays, truncated bodies, resets, redirects, clock skew, revoked tokens), with the token
/// the sandbox printed at start.
///
/// The sandbox is a ``SandboxProcess``: every answer it sends is logged (``exchangeLog``), and
/// when the test that started it ends (``SandboxChecks``, a trait every suite that starts one
/// carries) each is validated against X's own OpenAPI specification by ``SpecCheck``; an answer
/// outside X's schemas fails that test, with the checker's report.
///
/// Both live as long as this object, and exit when this process does.
public final class VerifiedSandbox: @unchecked Sendable {
  public static let consumerKey = XSandbox.demoConsumer.key
  public static let consumerSecret = XSandbox.demoConsumer.secret
  public static let accessToken = XSandbox.demoAccessToken.key
  public static let accessTokenSecret = XSandbox.demoAccessToken.secret
  public static let bearerToken = XSandbox.demoBearerToken

  private let server: SandboxProcess
  private let proxy: LoopbackServer
  /// The proxy's URL: where clients under test send their requests.
  public var baseURL: URL { proxy.baseURL }
  /// The sandbox's own URL, behind the proxy (no oauthlib check): for a second origin.
  public var directURL: URL { server.baseURL }
  /// The token of the sandbox's control API, from its `control token: TOKEN` line.
  public let controlToken: String
  /// The file the sandbox appends every answer to (`--record-exchanges`), as JSON lines.
  public var exchangeLog: URL { server.exchangeLog }

  /// A sandbox with `tweetsPerUser` tweets for each of its three accounts, whose OAuth 2.0
  /// access tokens live `oauth2Lifetime` seconds, whose rate limits reset every `rateWindow`
  /// seconds (X: 900), and whose filtered stream's keep-alive period and pace are multiplied by
  /// `streamTimeScale`. With `credits` (dollars, `"5.00"`) or a `postCap`, it bills as X does
  /// (`tweets sandbox serve --credits --post-cap`); free otherwise. Its v2 answers use X's
  /// tweet names, or with `spelling` `"post"` the names of X's specification 2.167.
  ///
  /// It blocks until both processes print their ports: an async test calls
  /// ``start(tweetsPerUser:oauth2Lifetime:rateWindow:streamTimeScale:credits:postCap:spelling:)``.
  public convenience init(
    tweetsPerUser: Int = 250, oauth2Lifetime: Int = 7200, rateWindow: Int = 900, streamTimeScale: Double = 1, credits: String? = nil,
    postCap: Int? = nil, spelling: String = "tweet"
  ) throws {
    try self.init(
      tweetsPerUser: tweetsPerUser, oauth2Lifetime: oauth2Lifetime, rateWindow: rateWindow, streamTimeScale: streamTimeScale,
      credits: credits, postCap: postCap, spelling: spelling, adopted: true)
  }

  /// ``init(tweetsPerUser:oauth2Lifetime:rateWindow:streamTimeScale:credits:postCap:spelling:)``
  /// for an async test: the waits for the sandbox's and the proxy's ports (a process start and a
  /// Python start, seconds on a busy machine) run on a thread of their own, not on one of the
  /// concurrency pool's few threads that every other test shares.
  public static func start(
    tweetsPerUser: Int = 250, oauth2Lifetime: Int = 7200, rateWindow: Int = 900, streamTimeScale: Double = 1, credits: String? = nil,
    postCap: Int? = nil, spelling: String = "tweet"
  ) async throws -> VerifiedSandbox {
    let sandbox = try await onOwnThread {
      try VerifiedSandbox(
        tweetsPerUser: tweetsPerUser, oauth2Lifetime: oauth2Lifetime, rateWindow: rateWindow, streamTimeScale: streamTimeScale,
        credits: credits, postCap: postCap, spelling: spelling, adopted: false)
    }
    SandboxChecks.adopt(sandbox.server)
    return sandbox
  }

  private init(
    tweetsPerUser: Int, oauth2Lifetime: Int, rateWindow: Int, streamTimeScale: Double, credits: String?, postCap: Int?, spelling: String,
    adopted: Bool
  ) throws {
    let billing = (credits.map { ["--credits", $0] } ?? []) + (postCap.map { ["--post-cap", String($0)] } ?? [])
    server = try SandboxProcess(
      [
        "--control", "--tweets-per-user", String(tweetsPerUser), "--oauth2-lifetime", String(oauth2Lifetime), "--rate-window", String(rateWindow),
        "--stream-time-scale", String(streamTimeScale), "--spelling", spelling,
      ] + billing, adopted: adopted)
    let prefix = "control token: "
    guard let line = server.output.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) else {
      server.stop()
      throw LoopbackServer.Failure(description: "the sandbox printed no control token: \(server.output)")
    }
    let token = String(line.dropFirst(prefix.count))
    controlToken = token
    let site = try PythonPeer.sitePackages()
    proxy = try LoopbackServer(
      script: "oauthlib_proxy.py", arguments: ["--backend", "127.0.0.1:\(server.port)", "--control-token", token],
      environment: ["PYTHONPATH": site.path], lifetime: 6 * 3600)
  }

  deinit { stop() }

  /// Asks the proxy and the server to stop and returns at once (``LoopbackServer/stop()``);
  /// ``stopAndWait()`` waits until nothing can reach the sandbox. Every answer it sent is checked
  /// against X's specification when the test ends (``SandboxChecks``).
  public func stop() {
    proxy.stop()
    server.stop()
  }

  /// ``stop()``, then waits, off the concurrency pool, until both processes have exited.
  public func stopAndWait() async {
    await proxy.stopAndWait()
    await server.stopAndWait()
  }

  /// Scripts the next answers for paths that start with `pathPrefix` (see `SandboxAction`).
  public func script(_ pathPrefix: String, _ responses: [[String: Any]]) async throws {
    try await control("script", ["path_prefix": pathPrefix, "responses": responses])
  }

  /// Shifts the server's clock by `seconds`.
  public func skewClock(by seconds: Int) async throws {
    try await control("clock", ["skew": seconds])
  }

  /// Revokes an access token.
  public func revoke(token: String) async throws {
    try await control("revoke", ["token": token])
  }

  /// Sets how many requests remain in an endpoint's rate-limit window.
  public func setRemaining(_ pathPrefix: String, _ remaining: Int) async throws {
    try await control("rate_limit", ["path_prefix": pathPrefix, "remaining": remaining])
  }

  /// How the sandbox processes uploaded videos and GIFs: `pendingPolls` status polls before it
  /// ends, `failed` instead of `succeeded` when `fail`.
  public func setMediaProcessing(pendingPolls: Int = 1, fail: Bool = false) async throws {
    try await control("media", ["pending_polls": pendingPolls, "fail_processing": fail])
  }

  /// What an upload received: its bytes' count and SHA-256 (base64), and its segments.
  public func media(id: String) async throws -> (bytes: Int, sha256: String, segments: Int, altText: String?) {
    let data = try await controlGET("media?id=\(id)")
    let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    return (object["bytes"] as? Int ?? -1, object["sha256_base64"] as? String ?? "", object["segments"] as? Int ?? -1, object["alt_text"] as? String)
  }

  /// A fault for the filtered stream's live connection: `["disconnect": true]` or
  /// `["stall": seconds]`, with `"after": n` posts.
  public func streamFault(_ fault: [String: Any]) async throws {
    try await control("stream", fault)
  }

  /// One attempt to connect to the filtered stream, from the server's log (Unix seconds).
  public struct StreamConnection: Decodable, Sendable {
    public let serial: Int
    public let opened: Double
    /// 200, the refusal's status, or 0 for a reset before any answer.
    public let status: Int?
    public let closed: Double?
    public let reason: String?
    public let delivered: Int
    /// When a scripted stall began on it.
    public let stalled: Double?
  }

  /// The server's log of connections to the filtered stream, in order, and its rule count.
  public func streamConnections() async throws -> (connections: [StreamConnection], rules: Int) {
    struct Log: Decodable {
      let connections: [StreamConnection]
      let rules: Int
    }
    let data = try await controlGET("stream")
    let log = try JSONDecoder().decode(Log.self, from: data)
    return (log.connections, log.rules)
  }

  /// The sandbox's account with X (`/_control/billing`): amounts as X's dollars, exact.
  public struct Billing: Decodable, Sendable {
    /// Whether the sandbox bills at all.
    public let metered: Bool
    /// What is left; `nil` when the sandbox bills no credits (a post cap alone).
    public let balance: String?
    /// What was charged in all.
    public let spent: String
    /// The post cap; `nil` for none.
    public let postCap: Int?
    /// Posts charged in the cycle (the sandbox's life).
    public let postsInCycle: Int
    /// Posts charged per UTC day (`2024-05-01`).
    public let postsPerDay: [String: Int]
    /// What was charged by kind (`post`, `post_owned`, `user`, `post_create_with_url` ...).
    public let charges: [String: Charge]

    /// The charges of one kind.
    public struct Charge: Decodable, Sendable {
      public let count: Int
      public let amount: String
    }

    enum CodingKeys: String, CodingKey {
      case metered, balance, spent, charges
      case postCap = "post_cap"
      case postsInCycle = "posts_in_cycle"
      case postsPerDay = "posts_per_day"
    }
  }

  /// The account: balance, spent, posts per day, charges by kind.
  public func billing() async throws -> Billing {
    try JSONDecoder().decode(Billing.self, from: try await controlGET("billing"))
  }

  /// Adds `dollars` (`"1.00"`) of credits, as a top-up in X's console.
  public func addCredits(_ dollars: String) async throws {
    try await control("billing", ["add_credits": dollars])
  }

  /// Sets the balance to `dollars` and, when given, the post cap.
  public func setCredits(_ dollars: String, postCap: Int? = nil) async throws {
    try await control("billing", ["credits": dollars].merging(postCap.map { ["post_cap": $0] } ?? [:]) { $1 })
  }

  /// Clears scripts, clock skew, statistics, rate-limit counters and revocations.
  public func reset() async throws {
    try await control("reset", [:])
  }

  /// What the sandbox verified and rejected so far, and what oauthlib checked.
  public struct Stats: Decodable, Sendable {
    public let verified: Int
    public let rejected: Int
    public let reasons: [String: Int]
    public let requests: [RecordedRequest]
    /// OAuth 2.0 token requests by grant type (`authorization_code`, `refresh_token`, the
    /// exchange's URN), `spent_presented` (a spent refresh token shown again) and `revoke`.
    public let oauth2Grants: [String: Int]
    /// oauthlib's side, from the proxy: every signature it checked, and the disagreements.
    public var oauthlib = OAuthlibStats(checked: 0, valid: 0, invalid: 0, disagreements: [])

    enum CodingKeys: String, CodingKey {
      case verified, rejected, reasons, requests
      case oauth2Grants = "oauth2_grants"
    }

    /// How many requests reached `path` (answered, reset or still open).
    public func attempts(_ path: String) -> Int { requests.filter { $0.path == path }.count }
  }

  /// What the oauthlib proxy checked.
  public struct OAuthlibStats: Decodable, Sendable {
    public let checked: Int
    public let valid: Int
    public let invalid: Int
    /// Each request on which oauthlib and the sandbox disagreed, described.
    public let disagreements: [[String: String]]
  }

  /// One request as the server recorded it; `status` 0 means the connection was reset.
  public struct RecordedRequest: Decodable, Sendable {
    public let method: String
    public let path: String
    public let status: Int?
    /// Whether the request carried an `Authorization` header at all.
    public let authorization: Bool
    /// What the request tried: `oauth1`, `bearer`, or `none`.
    public let auth: String
  }

  public func stats() async throws -> Stats {
    let body = try await controlGET("stats")
    var stats = try JSONDecoder().decode(Stats.self, from: body)
    let (data, _) = try await URLSession.tests.data(from: baseURL.appendingPathComponent("_oauthlib/stats"))
    stats.oauthlib = try JSONDecoder().decode(OAuthlibStats.self, from: data)
    return stats
  }

  /// The ids of every tweet the sandbox holds (of `userID` only, when given), newest first.
  public func tweetIDs(of userID: String? = nil) async throws -> [String] {
    let query = userID.map { "?user_id=\($0)" } ?? ""
    let body = try await controlGET("tweets" + query)
    struct IDs: Decodable { let ids: [String] }
    return try JSONDecoder().decode(IDs.self, from: body).ids
  }

  /// Fetches a page as a browser would (no signature): the authorize page, say.
  public func browse(_ url: URL) async throws -> String {
    let (data, _) = try await URLSession.tests.data(from: url)
    return String(decoding: data, as: UTF8.self)
  }

  /// `GET /_control/PATH` (a query included) with the token.
  private func controlGET(_ path: String) async throws -> Data {
    var request = URLRequest(url: URL(string: directURL.absoluteString + "/_control/" + path)!)
    request.setValue(controlToken, forHTTPHeaderField: "X-Sandbox-Control-Token")
    let (data, response) = try await URLSession.tests.data(for: request)
    guard (response as? HTTPURLResponse)?.statusCode == 200 else {
      throw LoopbackServer.Failure(description: "sandbox control GET \(path) failed: \(String(decoding: data, as: UTF8.self))")
    }
    return data
  }

  /// `/_control/activity`: the X Activity API side of the sandbox: its `webhooks` (id, url,
  /// valid), the `events` it built (serial, uuid, type, user_id, webhook_id), its webhook
  /// `deliveries` (uuid, event_type, webhook_id, status, outcome) and the activity stream's
  /// `connections`. With `event` (`{"event_type": "follow.follow", "source_user_id",
  /// "target_user_id"}`, `{"event_type": "profile.update.bio", "user_id", "before", "after"}`),
  /// the sandbox first makes that activity for its subscribers.
  public func activity(_ event: [String: Any] = [:]) async throws -> [String: Any] {
    let body = event.isEmpty ? try await controlGET("activity") : try await control("activity", event)
    return try JSONSerialization.jsonObject(with: body) as? [String: Any] ?? [:]
  }

  /// `/_control/compliance`: sets posts' and accounts' events, where job URLs point, how long
  /// jobs process (see the sandbox's `complianceControl`), and answers the jobs and every
  /// transfer to their URLs with whether it carried a credential.
  @discardableResult
  public func compliance(_ body: [String: Any] = [:]) async throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: try await control("compliance", body)) as? [String: Any] ?? [:]
  }

  @discardableResult
  private func control(_ name: String, _ body: [String: Any]) async throws -> Data {
    var request = URLRequest(url: directURL.appendingPathComponent("_control/\(name)"))
    request.httpMethod = "POST"
    request.setValue(controlToken, forHTTPHeaderField: "X-Sandbox-Control-Token")
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = try JSONSerialization.data(withJSONObject: body)
    let (data, response) = try await URLSession.tests.data(for: request)
    guard (response as? HTTPURLResponse)?.statusCode == 200 else {
      throw LoopbackServer.Failure(description: "sandbox control \(name) failed: \(String(decoding: data, as: UTF8.self))")
    }
    return data
  }
}

extension VerifiedSandbox {
  /// One request the sandbox's other origin (its CDN and storage stand-in) received, with every
  /// header as sent.
  public struct OffsiteRequest: Sendable {
    public let method: String
    public let target: String
    public let headers: [(name: String, value: String)]
    public let status: Int
  }

  /// The other origin's base URL, its files (path and size) and its log of requests.
  public func offsite() async throws -> (baseURL: URL, files: [String: Int], requests: [OffsiteRequest]) {
    let object = try JSONSerialization.jsonObject(with: try await controlGET("offsite")) as? [String: Any] ?? [:]
    guard let base = (object["base_url"] as? String).flatMap(URL.init(string:)) else {
      throw LoopbackServer.Failure(description: "the sandbox reported no other origin: \(object)")
    }
    var files: [String: Int] = [:]
    for case let file as [String: Any] in object["files"] as? [Any] ?? [] {
      if let path = file["path"] as? String, let bytes = file["bytes"] as? Int { files[path] = bytes }
    }
    let requests = (object["requests"] as? [[String: Any]] ?? []).map { entry in
      OffsiteRequest(
        method: entry["method"] as? String ?? "", target: entry["target"] as? String ?? "",
        headers: (entry["headers"] as? [[String]] ?? []).compactMap { $0.count == 2 ? ($0[0], $0[1]) : nil }, status: entry["status"] as? Int ?? 0)
    }
    return (base, files, requests)
  }

  /// Breaks the other origin's answers to paths under `pathPrefix`: `["fault": "slow", "pause": 0.2]`,
  /// `["fault": "truncate"]`, `["fault": "redirect", "location": URL]`, `["fault": "status", "status": 503]`,
  /// each once unless `"times"` says otherwise.
  public func offsiteFault(_ pathPrefix: String, _ fault: [String: Any]) async throws {
    try await control("offsite", fault.merging(["path_prefix": pathPrefix]) { _, new in new })
  }
}
