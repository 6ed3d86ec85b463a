import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `tweets login --oauth2`, `migrate`, renewals and `logout` as processes against the sandbox over
/// loopback: the authorize page, the token endpoint (PKCE checked against the challenge,
/// single-use refresh tokens) and revoke are the sandbox's, as X documents them.
@Suite("tweets: OAuth 2.0", .sandboxChecks, .serialized, .tags(.peers, .processes), .tier(.peers, .processes))
struct OAuth2CommandTests {
  static let exchange = "urn:ietf:params:oauth:grant-type:token-exchange"

  /// The profile's OAuth 2.0 tokens, read from the credentials file.
  static func tokens(_ tweets: TweetsRunner, profile: String = "default") throws -> (access: String, refresh: String?) {
    let file = try JSONSerialization.jsonObject(with: Data(contentsOf: tweets.credentialsFile)) as? [String: Any]
    let oauth2 = ((file?["profiles"] as? [String: Any])?[profile] as? [String: Any])?["oauth2"] as? [String: Any]
    let token = try #require(oauth2?["token"] as? [String: Any])
    return (try #require(token["accessToken"] as? String), token["refreshToken"] as? String)
  }

  func bearer(_ server: VerifiedSandbox, _ token: String) async throws -> Int {
    var request = URLRequest(url: server.baseURL.appendingPathComponent("2/users/me"))
    request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
    let (_, response) = try await URLSession.tests.data(for: request)
    return (response as? HTTPURLResponse)?.statusCode ?? 0
  }

  @Test func loginWithABrowserOnTheLoopbackRedirect() async throws {
    let server = try await VerifiedSandbox.start(tweetsPerUser: 20)
    let tweets = try TweetsRunner(server: server)
    let port = try LoopbackServer.freePort()
    let browser = "python3 '\(PackagePaths.peers.appendingPathComponent("browser.py").path)'"
    let arguments = [
      "login", "--oauth2", "--client-id", "sandbox-client-id", "--redirect-uri", "http://127.0.0.1:\(port)/callback",
      "--authorize-url", server.baseURL.appendingPathComponent("i/oauth2/authorize").absoluteString,
    ]
    let login = try await tweets.run(arguments, environment: ["BROWSER": browser])
    #expect(login.status == 0 && login.stdout.hasPrefix("Logged in as @sandbox_user with OAuth 2.0"), "\(login.stderr)")
    #expect(login.stderr.contains("code_challenge_method=S256"), "the authorize URL is printed")
    let whoami = try await tweets.run(["whoami"])
    #expect(whoami.stdout == "@sandbox_user (Sandbox User), id 1001, signed in with OAuth 2.0\n", "\(whoami.stderr)")
    let stats = try await server.stats()
    #expect(stats.oauth2Grants["authorization_code"] == 1)
    let tokens = try Self.tokens(tweets)
    let refresh = try #require(tokens.refresh)
    #expect(!tweets.everything.contains(tokens.access) && !tweets.everything.contains(refresh))

    // Another local process requests the redirect URI first, with a forged state and code: it
    // gets a 400 and the login goes on waiting, then completes with the browser's redirect.
    let other = try TweetsRunner(server: server)
    let raced = try await other.run(arguments, environment: ["BROWSER": browser, "FORGE_FIRST": "1"])
    #expect(raced.status == 0 && raced.stdout.hasPrefix("Logged in as @sandbox_user with OAuth 2.0"), "\(raced.stderr)")
    #expect(try await server.stats().oauth2Grants["authorization_code"] == 2, "the forged code was never exchanged")
    #expect(!raced.stderr.contains("attacker-code"))
  }

  @Test func migrateKeepsTheOAuth1TokenAndOnlyTheNewestPairWorks() async throws {
    let server = try await VerifiedSandbox.start(tweetsPerUser: 20)
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()
    let first = try await tweets.run(["migrate", "--client-id", "sandbox-client-id", "--scopes", "tweet.read users.read offline.access"])
    #expect(first.status == 0 && first.stdout.contains("X granted: tweet.read users.read offline.access"), "\(first.stderr)")
    let old = try Self.tokens(tweets)
    #expect(try await tweets.run(["whoami"]).stdout.hasSuffix("signed in with OAuth 2.0\n"))
    #expect(try await tweets.run(["whoami", "--api", "1.1"]).stdout.hasSuffix("signed in with OAuth 1.0a\n"), "v1.1 keeps OAuth 1.0a")

    #expect(try await tweets.run(["migrate", "--client-id", "sandbox-client-id"]).status == 0)
    let new = try Self.tokens(tweets)
    let oldStatus = try await bearer(server, old.access), newStatus = try await bearer(server, new.access)
    #expect(oldStatus == 401 && newStatus == 200)
    let stats = try await server.stats()
    #expect(stats.oauth2Grants[Self.exchange] == 2)

    // invalid_grant (a wrong 1.0a secret) exits 3 and leaves the profile as it was.
    let before = try Data(contentsOf: tweets.credentialsFile)
    let broken = String(decoding: before, as: UTF8.self).replacingOccurrences(of: "sandbox-access-token-secret", with: "not-the-secret")
    try Data(broken.utf8).write(to: tweets.credentialsFile)
    let refused = try await tweets.run(["migrate", "--client-id", "sandbox-client-id"])
    #expect(
      refused.status == 3 && refused.stderr.contains("invalid_grant") && refused.stderr.contains("The profile is unchanged"), "\(refused.stderr)")
    #expect(try Data(contentsOf: tweets.credentialsFile) == Data(broken.utf8))
  }

  /// A token lifetime of 2 s, and a wait past it, both stretched with the sanitizers' time
  /// scale: under ThreadSanitizer four `tweets` processes took longer than 2 s, and the token
  /// expired a second time while they ran.
  static let lifetime = TestTiming.seconds(2)

  @Test func anExpiredTokenIsRenewedOnceAndTheNewPairSaved() async throws {
    let server = try await VerifiedSandbox.start(tweetsPerUser: 20, oauth2Lifetime: Int(Self.lifetime))
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()
    #expect(try await tweets.run(["migrate", "--client-id", "sandbox-client-id"]).status == 0)
    let before = try Self.tokens(tweets)
    try await Task.sleep(nanoseconds: UInt64((Self.lifetime + 1) * 1_000_000_000))
    let timeline = try await tweets.run(["timeline", "--limit", "3", "--format", "jsonl"])
    #expect(timeline.status == 0 && timeline.stdout.split(separator: "\n").count == 3, "\(timeline.stderr)")
    let after = try Self.tokens(tweets)
    #expect(after.access != before.access && after.refresh != before.refresh)
    #expect(try await server.stats().oauth2Grants["refresh_token"] == 1)
  }

  @Test func fourProcessesOnAnExpiredProfileRenewOnce() async throws {
    // Long enough that the renewed token outlives the four runs: with 2 s, a loaded CI run's
    // processes outlived the renewed token too, and a second renewal was right.
    let lifetime = TestTiming.seconds(20)
    let server = try await VerifiedSandbox.start(tweetsPerUser: 20, oauth2Lifetime: Int(lifetime))
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()
    #expect(try await tweets.run(["migrate", "--client-id", "sandbox-client-id"]).status == 0)
    try await Task.sleep(nanoseconds: UInt64((lifetime + 1) * 1_000_000_000))
    let results = try await withThrowingTaskGroup(of: ProcessResult.self) { group in
      for _ in 0..<4 { group.addTask { try await tweets.run(["whoami"]) } }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(results.allSatisfy { $0.status == 0 }, "\(results.map(\.stderr))")
    let stats = try await server.stats()
    // Once, unless a run outlived the renewed token itself; never a spent refresh token.
    let renewals = stats.oauth2Grants["refresh_token"] ?? 0
    let slowest = results.map(\.seconds).max() ?? 0
    #expect(renewals == 1 || (renewals > 1 && slowest > lifetime), "\(stats.oauth2Grants), slowest run \(slowest) s")
    #expect(stats.oauth2Grants["spent_presented"] == nil, "\(stats.oauth2Grants)")
    // The profile ends with a valid pair: one more run succeeds and no spent refresh token was
    // ever presented.
    #expect(try await tweets.run(["whoami"]).status == 0)
    #expect(try await server.stats().oauth2Grants["spent_presented"] == nil)
  }

  @Test func logoutRevokesThenRemovesTheProfile() async throws {
    let server = try await VerifiedSandbox.start(tweetsPerUser: 20)
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()
    #expect(try await tweets.run(["migrate", "--client-id", "sandbox-client-id"]).status == 0)
    let tokens = try Self.tokens(tweets)
    let logout = try await tweets.run(["logout"])
    #expect(logout.status == 0 && logout.stdout.contains("Revoked the OAuth 2.0 tokens at X."), "\(logout.stderr)")
    #expect(try await bearer(server, tokens.access) == 401)
    #expect(try await server.stats().oauth2Grants["revoke"] == 2)
  }

  /// Revokes `token` at the sandbox's revoke endpoint, as the user would in X's settings.
  func revokeAtX(_ server: VerifiedSandbox, _ token: String) async throws {
    var request = URLRequest(url: server.baseURL.appendingPathComponent("2/oauth2/revoke"))
    request.httpMethod = "POST"
    request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
    request.httpBody = Data("token=\(token)&client_id=sandbox-client-id".utf8)
    _ = try await URLSession.tests.data(for: request)
  }

  @Test func a401OnATokenNotYetExpiredRenewsOnceAndReplays() async throws {
    let server = try await VerifiedSandbox.start(tweetsPerUser: 20)
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()
    let migrate = try await tweets.run(["migrate", "--client-id", "sandbox-client-id", "--client-secret", "sandbox-client-secret"])
    #expect(migrate.status == 0, "\(migrate.stderr)")
    try await revokeAtX(server, try Self.tokens(tweets).access)
    let whoami = try await tweets.run(["whoami", "--verbose"])
    #expect(whoami.status == 0 && whoami.stdout.hasSuffix("signed in with OAuth 2.0\n"), "\(whoami.stderr)")
    #expect(whoami.stderr.contains("[verbose] authentication: OAuth 2.0 user context"))
    let stats = try await server.stats()
    #expect(stats.oauth2Grants["refresh_token"] == 1)
    // login's and migrate's own lookups, then whoami: one refusal, one replay.
    #expect(stats.requests.filter { $0.path == "/2/users/me" }.map(\.status) == [200, 200, 401, 200])
    // A refresh token revoked too: the profile's OAuth 1.0a token is exchanged again.
    let tokens = try Self.tokens(tweets)
    try await revokeAtX(server, tokens.access)
    try await revokeAtX(server, try #require(tokens.refresh))
    let recovered = try await tweets.run(["whoami"])
    #expect(recovered.status == 0 && recovered.stderr.contains("exchanging the profile's OAuth 1.0a token for a new pair"), "\(recovered.stderr)")
    #expect(!tweets.everything.contains("sandbox-client-secret"), "the client secret is never printed")
  }

  @Test func killedDuringRenewalsTheProfileIsNeverCorruptAndTheNextRunSucceeds() async throws {
    let server = try await VerifiedSandbox.start(tweetsPerUser: 20, oauth2Lifetime: 1)
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()
    #expect(try await tweets.run(["migrate", "--client-id", "sandbox-client-id"]).status == 0)
    var random = SystemRandomNumberGenerator()
    var kills = 0
    for _ in 0..<12 {
      try await Task.sleep(nanoseconds: 1_200_000_000)  // expired: the next run renews
      let process = Process()
      process.executableURL = PackagePaths.executable("tweets")
      process.arguments = ["whoami"] + tweets.common
      process.environment = tweets.environment
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.runOneAtATime()
      try await Task.sleep(for: .microseconds(Double(UInt32.random(in: 5_000...120_000, using: &random)) * TestTiming.scale))
      if process.isRunning {
        kill(process.processIdentifier, SIGKILL)
        kills += 1
      }
      try await process.exited()
      let file = try Data(contentsOf: tweets.credentialsFile)
      #expect((try? JSONSerialization.jsonObject(with: file)) != nil, "the credentials file is whole JSON after every kill")
      #expect(try Self.tokens(tweets).refresh != nil)
    }
    let last = try await tweets.run(["whoami"])
    #expect(last.status == 0, "after \(kills) kills: \(last.stderr)")
    print("[oauth2] \(kills) of 12 renewing runs killed with SIGKILL; the file stayed whole, and the next run succeeded")
  }

  @Test func noBrowserReadsTheRedirectedURLAndLogoutWithXUnreachableStillRemoves() async throws {
    let server = try await VerifiedSandbox.start(tweetsPerUser: 20)
    let tweets = try TweetsRunner(server: server)
    // The user opens the printed URL elsewhere; here the test follows the sandbox's redirect.
    let interactive = try tweets.interactive([
      "login", "--oauth2", "--no-browser", "--client-id", "sandbox-client-id", "--authorize-url",
      server.baseURL.appendingPathComponent("i/oauth2/authorize").absoluteString,
    ])
    #expect(await interactive.waitForError(containing: "Redirected URL: "))
    let url = try #require(interactive.stderr.split(separator: "\n").first { $0.contains("/i/oauth2/authorize?") })
      .trimmingCharacters(in: .whitespaces)
    let follow = try await ProcessRunner.run(
      URL(fileURLWithPath: "/usr/bin/env"),
      [
        "python3", "-c",
        "import sys, urllib.request as u\nclass N(u.HTTPRedirectHandler):\n  def redirect_request(self, *a): return None\n"
          + "try: u.build_opener(N).open(sys.argv[1])\nexcept Exception as e: print(e.headers['Location'])",
        url,
      ], timeout: 30)
    let location = follow.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(location.hasPrefix("http://127.0.0.1:8976/callback?state="))
    interactive.send(location)
    let login = await interactive.wait()
    tweets.record(login)
    #expect(login.status == 0 && login.stdout.hasPrefix("Logged in as @sandbox_user with OAuth 2.0"), "\(login.stderr)")

    // X unreachable: the tokens cannot be revoked, and the profile is removed all the same.
    await server.stopAndWait()
    let logout = try await tweets.run(["logout", "--timeout", "2", "--max-wait", "1"])
    #expect(logout.status == 0 && logout.stderr.contains("could not revoke the OAuth 2.0 tokens at X"), "\(logout.stderr)")
    #expect(logout.stdout.contains("Logged out: removed profile"))
  }
}
