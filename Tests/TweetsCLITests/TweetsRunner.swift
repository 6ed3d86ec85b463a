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

  /// How long a run may take before it is killed as hung: a bound for a hang, not for speed.
  /// A login that takes 0.2 s alone was seen passing 60 s on a loaded 2-core machine (the
  /// sandbox, its Python proxy and other tests' processes sharing the cores), and the kill
  /// failed a test that asserted nothing about time.
  static let hangTimeout = TestTiming.seconds(300)

  /// Runs `tweets` with `arguments` against the sandbox (or `baseURL`).
  func run(_ arguments: [String], environment extra: [String: String] = [:], stdin: String = "", baseURL: String? = nil) async throws
    -> ProcessResult
  {
    var environment = self.environment
    for (key, value) in extra { environment[key] = value }
    let result = try await ProcessRunner.run(
      PackagePaths.executable("tweets"), arguments + common(baseURL: baseURL ?? server.baseURL.absoluteString),
      stdin: Data(stdin.utf8), environment: environment, timeout: Self.hangTimeout)
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

  /// Why a set-up step failed: the test fails with it (a `precondition` stopped the whole
  /// test process).
  struct SetupFailure: Error, CustomStringConvertible {
    let description: String
  }

  /// Stores the fixture access token without the PIN flow.
  func loginWithTokens() async throws {
    let result = try await run(
      ["login", "--access-token", VerifiedSandbox.accessToken, "--access-token-secret", VerifiedSandbox.accessTokenSecret] + consumer)
    guard result.status == 0 else {
      throw SetupFailure(description: "login failed with status \(result.status) after \(result.seconds) s: \(result.stderr)")
    }
  }

  var credentialsFile: URL { configDirectory.appendingPathComponent("credentials.json") }
}

extension ProcessResult {
  /// The stdout as JSON.
  func json() throws -> Any {
    try JSONSerialization.jsonObject(with: Data(stdout.utf8))
  }
}
