import Foundation
import TestSupport
import Testing

/// Every `tweets` command and every error path, normal and `--verbose`, with recognisable
/// secrets in the flags, the environment, the credentials file and the server's answers:
/// none may appear in stdout or stderr, and the credentials file stays 0600 throughout.
@Suite("Secret hygiene: every tweets command and error path", .sandboxChecks, .tags(.peers, .processes), .tier(.peers, .processes))
struct SecretHygieneTests {
  /// Secrets the tool is given or holds, and what derives from them.
  static let givenSecrets = [
    VerifiedSandbox.consumerSecret, VerifiedSandbox.accessTokenSecret, "WRONG-CONSUMER-SECRET-7f3a", "WRONG-TOKEN-SECRET-9c1e",
    "ENV-CONSUMER-SECRET-41d2",
  ]
  /// Shapes that would mean a signature or an Authorization header was printed.
  static let forbiddenShapes = ["oauth_signature=\"", "OAuth oauth_", "oauth_signature%3D", "&oauth_signature="]

  @Test func noSecretInAnyOutput() async throws {
    let server = try await VerifiedSandbox.start()
    let tweets = try TweetsRunner(server: server)
    var runs: [(String, ProcessResult)] = []
    func run(_ label: String, _ arguments: [String], environment: [String: String] = [:], baseURL: String? = nil) async throws {
      let result = try await tweets.run(arguments, environment: environment, baseURL: baseURL)
      runs.append((label, result))
      if !arguments.contains("--verbose") && !arguments.contains("--help") && !label.hasPrefix("usage") {
        let verbose = try await tweets.run(arguments + ["--verbose"], environment: environment, baseURL: baseURL)
        runs.append((label + " --verbose", verbose))
      }
    }

    // The PIN flow: the server issues a token secret the tool must keep to itself.
    let pinLogin = try tweets.interactive(["login", "--verbose"] + tweets.consumer)
    #expect(await pinLogin.waitForError(containing: "PIN: "))
    let authorize = try #require(
      pinLogin.stderr.split(separator: "\n").first { $0.contains("/oauth/authorize?oauth_token=") }.map { $0.trimmingCharacters(in: .whitespaces) })
    let page = try await server.browse(try #require(URL(string: authorize)))
    pinLogin.send(String(try #require(page.firstMatch(of: /<code id="oauth_pin">(\d{7})<\/code>/)?.1)))
    let pinResult = await pinLogin.wait()
    tweets.record(pinResult)
    runs.append(("login (PIN flow) --verbose", pinResult))
    #expect(pinResult.status == 0, "\(pinResult.stderr)")

    try await run(
      "login with tokens",
      ["login", "--access-token", VerifiedSandbox.accessToken, "--access-token-secret", VerifiedSandbox.accessTokenSecret] + tweets.consumer)
    try await run("whoami", ["whoami"])
    try await run("whoami v1.1", ["whoami", "--api", "1.1"])
    try await run("timeline", ["timeline", "--limit", "3"])
    try await run("timeline of a user, json", ["timeline", "sandbox_user", "--limit", "3", "--json"])
    try await run("search", ["search", "swift", "--limit", "3", "--format", "csv"])
    try await run("show", ["show", "1", "--api", "1.1"])
    try await run("post", ["post", "hygiene check"])
    try await run("post v1.1", ["post", "hygiene check v1", "--api", "1.1"])
    try await run("api GET", ["api", "GET", "/2/users/me"])
    try await run("api POST", ["api", "POST", "1.1/statuses/update.json", "-d", "status=api hygiene"])
    try await run("help", ["help", "login"])
    try await run("help flag", ["login", "--help"])

    // Error paths.
    try await run("wrong consumer secret (flag)", ["whoami", "--consumer-secret", "WRONG-CONSUMER-SECRET-7f3a"])
    try await run(
      "wrong consumer secret (environment)", ["timeline", "--api", "1.1"], environment: ["X_CONSUMER_SECRET": "ENV-CONSUMER-SECRET-41d2"])
    try await run(
      "login with a wrong token secret",
      ["login", "--profile", "bad", "--access-token", VerifiedSandbox.accessToken, "--access-token-secret", "WRONG-TOKEN-SECRET-9c1e"]
        + tweets.consumer)
    try await run("wrong PIN", ["login", "--profile", "pin", "--pin", "0000000"] + tweets.consumer)
    try await run("usage error with secrets on the line", ["timeline", "--limit", "0", "--consumer-secret", "WRONG-CONSUMER-SECRET-7f3a"])
    try await run("usage: unknown option after a secret", ["whoami", "--consumer-secret", "WRONG-CONSUMER-SECRET-7f3a", "--frobnicate"])
    try await run("usage: secret as a stray positional", ["whoami", "WRONG-TOKEN-SECRET-9c1e"])
    try await run("missing profile", ["whoami", "--profile", "nobody"])
    try await server.script("/2/users/me", [["status": 429, "reset_in": 3600]])
    try await run("rate limited", ["whoami", "--no-wait"])
    try await server.script("/2/users/me", Array(repeating: ["status": 503], count: 20))
    try await run("server errors", ["whoami", "--max-wait", "1"])
    try await server.reset()
    try await server.script("/2/users/me", [["html": true], ["html": true], ["invalid_json": true], ["invalid_json": true]])
    try await run("HTML and invalid JSON", ["whoami", "--max-wait", "0"])
    try await server.reset()
    try await server.script("/2/users/me", Array(repeating: ["reset_connection": true], count: 20))
    try await run("connection reset", ["whoami", "--max-wait", "0"])
    try await server.reset()
    try await run("connection refused", ["whoami", "--max-wait", "0"], baseURL: "http://127.0.0.1:1")
    try await server.skewClock(by: 7200)
    try await run("clock skew", ["whoami"])
    try await server.reset()
    try await server.revoke(token: VerifiedSandbox.accessToken)
    try await run("revoked token", ["whoami", "--api", "1.1"])
    try await server.reset()
    try await run("logout", ["logout", "--profile", "bad"])

    // The secrets the server issued in the PIN flow are in the file, and nowhere else.
    let file = try JSONSerialization.jsonObject(with: Data(contentsOf: tweets.credentialsFile)) as? [String: [String: [String: String]]]
    let issued = (file?["profiles"] ?? [:]).values.compactMap { $0["access_token_secret"] }
    #expect(!issued.isEmpty)
    let mode = try FileManager.default.attributesOfItem(atPath: tweets.credentialsFile.path)[.posixPermissions] as? NSNumber
    #expect(mode?.intValue == 0o600)

    var checked = 0
    for (label, result) in runs {
      for secret in Self.givenSecrets + issued + Self.forbiddenShapes {
        #expect(!result.stdout.contains(secret) && !result.stderr.contains(secret), "\(label): \"\(secret)\" was printed")
        checked += 1
      }
    }
    let failures = runs.filter { $0.1.status != 0 }.count
    print(
      "[secrets] \(runs.count) runs of tweets (\(failures) of them error paths), \(Self.givenSecrets.count + issued.count) secrets and \(Self.forbiddenShapes.count) header shapes: \(checked) checks, none printed; credentials file mode 0600"
    )
  }
}
