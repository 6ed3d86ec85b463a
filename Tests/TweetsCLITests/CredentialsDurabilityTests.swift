import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The credentials file under hostile conditions: `tweets login` killed at random moments
/// (SIGKILL, no chance to clean up) many times over, and several logins at once. The file must
/// always be complete, parseable and mode 0600.
@Suite("Credentials file: kills and concurrent writers", .sandboxChecks, .tags(.peers, .processes), .tier(.peers, .processes))
struct CredentialsDurabilityTests {
  struct Contents: Decodable {
    struct Stored: Decodable {
      let access_token: String?
      let access_token_secret: String?
    }
    let profiles: [String: Stored]
  }

  func read(_ file: URL) throws -> Contents {
    try JSONDecoder().decode(Contents.self, from: Data(contentsOf: file))
  }

  func mode(_ file: URL) throws -> Int {
    (try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
  }

  /// `tweets login` with the server's fixture token, saved as `profile`.
  func login(_ tweets: TweetsRunner, profile: String) -> Process {
    let process = Process()
    process.executableURL = PackagePaths.executable("tweets")
    process.arguments =
      ["login", "--profile", profile, "--access-token", VerifiedSandbox.accessToken, "--access-token-secret", VerifiedSandbox.accessTokenSecret]
      + tweets.consumer + tweets.common
    process.environment = tweets.environment
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    return process
  }

  @Test func killingLoginAtRandomMomentsNeverLeavesABrokenFile() async throws {
    let server = try await VerifiedSandbox.start()
    // Two hundred logins would use up users/me's 15-minute window; this test is not about that.
    try await server.setRemaining("/2/users/me", 100_000)
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()
    let file = tweets.credentialsFile
    // A big file (3,000 other profiles, about a megabyte), so that writing and syncing it takes
    // long enough for some kills to land in the middle of it.
    var profiles = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as! [String: [String: Any]]
    for index in 0..<3_000 {
      profiles["profiles"]!["filler-\(index)"] = [
        "consumer_key": "filler-consumer-\(index)", "consumer_secret": String(repeating: "s", count: 50),
        "access_token": VerifiedSandbox.accessToken, "access_token_secret": VerifiedSandbox.accessTokenSecret, "username": "filler\(index)",
        "user_id": String(index),
      ]
    }
    try JSONSerialization.data(withJSONObject: profiles).write(to: file)

    // The kills block (sleeps, waits for processes) for many seconds: on a thread of their
    // own, not one that other tests share. Findings come back as text and are checked here.
    let suite = self
    let (kills, landed, microseconds, problems) = try await onOwnThread { () throws -> (Int, Int, Int, [String]) in
      // How long one login takes here, to spread the kills over its whole life.
      let clock = ContinuousClock()
      let start = clock.now
      let probe = suite.login(tweets, profile: "probe")
      try probe.runOneAtATime()
      let probeExit = ChildExit.wait(probe, until: .distantFuture)
      var problems = probeExit?.code == 0 ? [] : ["the probe login failed"]
      let lifetime = clock.now - start
      let microseconds = max(1_000, Int(lifetime.components.seconds * 1_000_000 + lifetime.components.attoseconds / 1_000_000_000_000))

      // Each attempt saves one more profile: after a kill the file must hold every profile
      // saved before, plus at most the one being saved, complete.
      var generator = SystemRandomNumberGenerator()
      var saved = Set(try suite.read(file).profiles.keys)
      var landed = 0
      let kills = 200
      for index in 0..<kills {
        let name = "kill-\(index)"
        let process = suite.login(tweets, profile: name)
        try process.runOneAtATime()
        usleep(UInt32(Int.random(in: 0...microseconds, using: &generator)))
        kill(process.processIdentifier, SIGKILL)
        _ = ChildExit.wait(process, until: .distantFuture)

        let profiles = try suite.read(file).profiles  // throws, failing the test, if the file is truncated or empty
        if !saved.isSubset(of: profiles.keys) { problems.append("kill \(index): lost \(saved.subtracting(profiles.keys))") }
        if !Set(profiles.keys).subtracting(saved).subtracting([name]).isEmpty { problems.append("kill \(index): unexpected profiles") }
        if !profiles.values.allSatisfy({
          $0.access_token == VerifiedSandbox.accessToken && $0.access_token_secret == VerifiedSandbox.accessTokenSecret
        }) {
          problems.append("kill \(index): a profile changed")
        }
        if try suite.mode(file) != 0o600 { problems.append("kill \(index): mode \(String(try suite.mode(file), radix: 8))") }
        if profiles[name] != nil {
          saved.insert(name)
          landed += 1
        }
      }
      return (kills, landed, microseconds, problems)
    }
    #expect(problems.isEmpty, "\(problems)")
    // The next normal login cleans up what the killed ones left.
    let result = try await tweets.run(
      ["login", "--profile", "final", "--access-token", VerifiedSandbox.accessToken, "--access-token-secret", VerifiedSandbox.accessTokenSecret]
        + tweets.consumer)
    #expect(result.status == 0, "\(result.stderr)")
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: tweets.configDirectory.path).filter { $0.hasSuffix(".tmp") }
    #expect(leftovers.isEmpty, "\(leftovers)")
    print(
      "[durability] \(kills) logins killed at random within their \(microseconds / 1000) ms lifetime: the file was complete, 0600 and lost nothing every time; \(landed) kills came after the save, \(kills - landed) before or during it"
    )
  }

  @Test func concurrentLoginsToDifferentProfilesAllLand() async throws {
    let tweets = try TweetsRunner(server: try await VerifiedSandbox.start())
    let processes = (0..<8).map { login(tweets, profile: "p\($0)") }
    for process in processes { try process.runOneAtATime() }
    var exits: [ChildExit.Status] = []
    for process in processes { exits.append(try await process.exited()) }
    #expect(exits.allSatisfy { $0.code == 0 && $0.signal == nil }, "\(exits)")
    let profiles = try read(tweets.credentialsFile).profiles
    #expect(profiles.keys.sorted() == (0..<8).map { "p\($0)" })
    #expect(try mode(tweets.credentialsFile) == 0o600)
  }
}
