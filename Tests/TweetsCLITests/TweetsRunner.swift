import Foundation
import TestSupport

/// Runs the built `tweets` binary against the X sandbox (behind the oauthlib proxy) with its own config directory, and
/// keeps every output so a test can check that no secret ever appeared.
final class TweetsRunner: @unchecked Sendable {
  let server: VerifiedSandbox
  let configDirectory: URL
  private let lock = NSLock()
  private var outputs: [String] = []

  init(server: VerifiedSandbox) throws {
    self.server = server
    configDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("tweets-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: configDirectory, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: configDirectory) }

  var environment: [String: String] {
    var environment = ProcessInfo.processInfo.environment
    for key in environment.keys where key.hasPrefix("X_") || key.hasPrefix("TWITTER_") || key.hasPrefix("TWEETS_") {
      environment.removeValue(forKey: key)
    }
    environment["NO_COLOR"] = "1"
    return environment
  }

  var common: [String] { common(baseURL: server.baseURL.absoluteString) }

  func common(baseURL: String) -> [String] { ["--base-url", baseURL, "--config-dir", configDirectory.path] }

  /// Consumer credentials on the command line, as for a first login.
  var consumer: [String] { ["--consumer-key", VerifiedSandbox.consumerKey, "--consumer-secret", VerifiedSandbox.consumerSecret] }

  /// Runs `tweets` with `arguments` against the sandbox (or `baseURL`).
  func run(_ arguments: [String], environment extra: [String: String] = [:], stdin: String = "", baseURL: String? = nil) async throws
    -> ProcessResult
  {
    var environment = self.environment
    for (key, value) in extra { environment[key] = value }
    let result = try await ProcessRunner.run(
      PackagePaths.executable("tweets"), arguments + common(baseURL: baseURL ?? server.baseURL.absoluteString),
      stdin: Data(stdin.utf8), environment: environment, timeout: 60)
    record(result)
    return result
  }

  func interactive(_ arguments: [String]) throws -> InteractiveProcess {
    try InteractiveProcess(PackagePaths.executable("tweets"), arguments + common, environment: environment)
  }

  func record(_ result: ProcessResult) {
    lock.withLock { outputs.append(result.stdout + "\n" + result.stderr) }
  }

  /// Everything every run printed.
  var everything: String { lock.withLock { outputs.joined(separator: "\n") } }

  /// Stores the fixture access token without the PIN flow.
  func loginWithTokens() async throws {
    let result = try await run(
      ["login", "--access-token", VerifiedSandbox.accessToken, "--access-token-secret", VerifiedSandbox.accessTokenSecret] + consumer)
    precondition(result.status == 0, "login failed: \(result.stderr)")
  }

  var credentialsFile: URL { configDirectory.appendingPathComponent("credentials.json") }
}

extension ProcessResult {
  /// The stdout as JSON.
  func json() throws -> Any {
    try JSONSerialization.jsonObject(with: Data(stdout.utf8))
  }
}
