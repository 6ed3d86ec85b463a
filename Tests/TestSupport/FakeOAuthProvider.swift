import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The generic fake OAuth 1.0a provider (`Tests/Peers/fake_oauth_provider.py`) on a free
/// loopback port: oauthlib's provider endpoints, configured per provider quirk with the
/// script's flags (`--methods HMAC-SHA256 --realm 123456_SB1`, `--one-legged`,
/// `--problem-reporting`, `--body-hash sha256`...).
public final class FakeOAuthProvider: @unchecked Sendable {
  public static let consumerKey = "test-consumer-key"
  public static let consumerSecret = "test-consumer-secret"
  public static let accessToken = "test-access-token"
  public static let accessTokenSecret = "test-access-token-secret"

  public let server: LoopbackServer
  public var baseURL: URL { server.baseURL }

  public init(_ arguments: [String] = [], lifetime: Int = 300) throws {
    let site = try PythonPeer.sitePackages()
    server = try LoopbackServer(
      script: "fake_oauth_provider.py", arguments: arguments, environment: ["PYTHONPATH": site.path], lifetime: lifetime)
  }

  /// ``init(_:lifetime:)`` for an async test: the Python start (and its wait for the port) runs
  /// on a thread of its own, not on one of the concurrency pool's few threads.
  public static func start(_ arguments: [String] = [], lifetime: Int = 300) async throws -> FakeOAuthProvider {
    try await onOwnThread { try FakeOAuthProvider(arguments, lifetime: lifetime) }
  }

  deinit { server.stop() }

  /// `base` + `path`, as a string for a command line.
  public func url(_ path: String) -> String { baseURL.absoluteString + path }

  /// The verifier of the last request token the authorize page approved.
  public func lastVerifier() async throws -> String {
    let (data, _) = try await URLSession.tests.data(from: baseURL.appendingPathComponent("_control/last_verifier"))
    guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any], let verifier = object["verifier"] as? String else {
      throw LoopbackServer.Failure(description: "no verifier yet: \(String(decoding: data, as: UTF8.self))")
    }
    return verifier
  }

  /// Opens `url` as the user's browser would, following redirects (to a loopback callback).
  public static func browse(_ url: URL) async throws -> (status: Int, body: String) {
    let (data, response) = try await URLSession.tests.data(from: url)
    return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
  }
}
