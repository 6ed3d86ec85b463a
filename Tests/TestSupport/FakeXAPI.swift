import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The fake X API (`Tests/Peers/fake_x_api.py`) on a free loopback port: it verifies every
/// OAuth 1.0a signature with Python's oauthlib, serves fixture tweets and can be scripted per
/// test (429s, 5xx, delays, truncated bodies, clock skew, revoked tokens).
public final class FakeXAPI: @unchecked Sendable {
  public static let consumerKey = "fake-consumer-key"
  public static let consumerSecret = "fake-consumer-secret"
  public static let accessToken = "1001-fakeaccesstoken"
  public static let accessTokenSecret = "fake-access-token-secret"
  public static let bearerToken = "fake-bearer-token"

  public let server: LoopbackServer
  public var baseURL: URL { server.baseURL }

  public init(lifetime: Int = 300, arguments: [String] = []) throws {
    let site = try PythonPeer.sitePackages()
    server = try LoopbackServer(
      script: "fake_x_api.py", arguments: arguments, environment: ["PYTHONPATH": site.path], lifetime: lifetime)
  }

  deinit { server.stop() }

  /// Scripts the next answers for paths that start with `pathPrefix` (see the server's doc).
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

  /// What the server verified and rejected so far.
  public struct Stats: Decodable, Sendable {
    public let verified: Int
    public let rejected: Int
    public let reasons: [String: Int]
    public let requests: [RecordedRequest]

    /// How many requests reached `path` (answered, reset or still open).
    public func attempts(_ path: String) -> Int { requests.filter { $0.path == path }.count }
  }

  /// One request as the server recorded it; `status` 0 means the connection was reset.
  public struct RecordedRequest: Decodable, Sendable {
    public let method: String
    public let path: String
    public let status: Int?
    /// Whether the request carried an `Authorization` header at all.
    public let authorization: Bool
    /// `oauth1` when its signature verified for the URL it was sent to, `bearer`, or `none`.
    public let auth: String
  }

  /// Clears scripts, clock skew, statistics, rate-limit counters and revocations.
  public func reset() async throws {
    try await control("reset", [:])
  }

  public func stats() async throws -> Stats {
    let (data, _) = try await URLSession.shared.data(from: baseURL.appendingPathComponent("_control/stats"))
    return try JSONDecoder().decode(Stats.self, from: data)
  }

  /// Fetches a page as a browser would (no signature): the authorize page, say.
  public func browse(_ url: URL) async throws -> String {
    let (data, _) = try await URLSession.shared.data(from: url)
    return String(decoding: data, as: UTF8.self)
  }

  private func control(_ name: String, _ body: [String: Any]) async throws {
    var request = URLRequest(url: baseURL.appendingPathComponent("_control/\(name)"))
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = try JSONSerialization.data(withJSONObject: body)
    let (data, response) = try await URLSession.shared.data(for: request)
    guard (response as? HTTPURLResponse)?.statusCode == 200 else {
      throw LoopbackServer.Failure(description: "fake X API control \(name) failed: \(String(decoding: data, as: UTF8.self))")
    }
  }
}
