import Foundation
import TestSupport
import Testing

/// `tweets --sandbox`: the README's first command, on a fresh machine with nothing stored.
@Suite("tweets --sandbox", .sandboxChecks, .tags(.processes), .tier(.processes))
struct SandboxCommandTests {
  func run(_ arguments: [String], config: URL, stdin: String = "") async throws -> ProcessResult {
    var environment = ProcessInfo.processInfo.environment
    for key in environment.keys where key.hasPrefix("X_") || key.hasPrefix("TWITTER_") || key.hasPrefix("TWEETS_") {
      environment.removeValue(forKey: key)
    }
    environment["TWEETS_CONFIG_DIR"] = config.path
    return try await ProcessRunner.run(
      PackagePaths.executable("tweets"), arguments, stdin: Data(stdin.utf8), environment: environment, timeout: TweetsRunner.hangTimeout)
  }

  func freshConfig() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("tweets-sandbox-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// `tweets timeline --all > out.jsonl` on a terminal: the progress shows on standard error (a
  /// real pseudo-terminal, through util-linux's `script`) while the file gets only JSON lines.
  @Test func progressShowsOnATerminalWhileOutputGoesToAFile() async throws {
    let scriptTool = URL(fileURLWithPath: "/usr/bin/script")
    guard FileManager.default.isExecutableFile(atPath: scriptTool.path) else { return }
    let config = try freshConfig()
    defer { try? FileManager.default.removeItem(at: config) }
    let output = config.appendingPathComponent("out.jsonl")
    var environment = ProcessInfo.processInfo.environment
    environment["TWEETS_CONFIG_DIR"] = config.path
    environment["TERM"] = "xterm"
    let command = "'\(PackagePaths.executable("tweets").path)' --sandbox timeline --all --format jsonl > '\(output.path)'"
    let terminal = try await ProcessRunner.run(
      scriptTool, ["-qec", command, "/dev/null"], environment: environment, timeout: TweetsRunner.hangTimeout)
    #expect(terminal.status == 0, "\(terminal.stdout) \(terminal.stderr)")
    #expect(terminal.stdout.contains("\u{1B}[K… 100 tweets, 1 page, "), "\(terminal.stdout.debugDescription)")
    #expect(terminal.stdout.contains("done: 180 tweets, 2 pages, "))
    let lines = try String(contentsOf: output, encoding: .utf8).split(separator: "\n")
    #expect(lines.count == 180 && lines.allSatisfy { $0.hasPrefix("{\"") }, "the file has only the tweets")
  }

  @Test func everyCommandWorksAtOnce() async throws {
    let config = try freshConfig()
    defer { try? FileManager.default.removeItem(at: config) }
    let timeline = try await run(["--sandbox", "timeline"], config: config)
    #expect(timeline.status == 0, "\(timeline.stderr)")
    #expect(timeline.stdout.components(separatedBy: "\n\n").count == 20, "the default limit is 20")
    #expect(timeline.stdout.contains("@sandbox_user") && timeline.stdout.contains("@swift_lang"))
    #expect(try await run(["--sandbox", "whoami"], config: config).stdout == "@sandbox_user (Sandbox User), id 1001, signed in with OAuth 1.0a\n")
    #expect(try await run(["--sandbox", "search", "from:oauth_fan", "--all", "--format", "jsonl"], config: config).status == 0)
    #expect(try await run(["--sandbox", "post", "hi", "--api", "1.1"], config: config).status == 0)
    #expect(try await run(["--sandbox", "api", "GET", "/2/users/me"], config: config).stdout.contains("sandbox_user"))
    // Nothing was stored: the demo credentials are not written anywhere.
    #expect(!FileManager.default.fileExists(atPath: config.appendingPathComponent("credentials.json").path))
    // A wrong secret is rejected by the sandbox's verifier, as X would.
    let wrong = try await run(["--sandbox", "timeline", "--consumer-secret", "not-the-secret"], config: config)
    #expect(wrong.status == 3 && wrong.stderr.contains("HTTP 401") && wrong.stderr.contains("--verbose"), "\(wrong.stderr)")
  }

  @Test func theSandboxPinFlow() async throws {
    let config = try freshConfig()
    defer { try? FileManager.default.removeItem(at: config) }
    var environment = ProcessInfo.processInfo.environment
    environment["TWEETS_CONFIG_DIR"] = config.path
    let login = try InteractiveProcess(PackagePaths.executable("tweets"), ["--sandbox", "login"], environment: environment)
    #expect(await login.waitForError(containing: "PIN: "))
    let pin = try #require(login.stderr.firstMatch(of: /the PIN (\d{7})/)?.1)
    login.send(String(pin))
    let result = await login.wait()
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("Logged in as @sandbox_user (profile \"sandbox\""))
    // The new token is stored and used.
    #expect(try await run(["--sandbox", "whoami"], config: config).stdout == "@sandbox_user (Sandbox User), id 1001, signed in with OAuth 1.0a\n")
    let stored = try String(contentsOf: config.appendingPathComponent("credentials.json"), encoding: .utf8)
    #expect(stored.contains("\"sandbox\"") && !stored.contains("1001-sandbox-access-token"), "the PIN flow's own token is stored")
  }

  /// `tweets sandbox serve` as a user starts it: a whoami signed by another `tweets` process
  /// with the demo app and token, over HTTP; and its usage errors.
  @Test func sandboxServeAnswersAnotherProcess() async throws {
    let config = try freshConfig()
    defer { try? FileManager.default.removeItem(at: config) }
    let server = try await SandboxProcess.start(["--tweets-per-user", "5"])
    defer { server.stop() }
    let base = ["--base-url", server.baseURL.absoluteString]
    let login = try await run(
      [
        "login", "--consumer-key", "sandbox-consumer-key", "--consumer-secret", "sandbox-consumer-secret", "--access-token",
        "1001-sandbox-access-token", "--access-token-secret", "sandbox-access-token-secret",
      ] + base, config: config)
    #expect(login.status == 0 && login.stdout.hasPrefix("Logged in as @sandbox_user"), "\(login.stderr)")
    let timeline = try await run(["timeline", "sandbox_user", "--all", "--format", "jsonl"] + base, config: config)
    #expect(timeline.status == 0 && timeline.stdout.split(separator: "\n").count == 5, "\(timeline.stderr)")

    let noAction = try await run(["sandbox", "start"], config: config)
    #expect(noAction.status == 2 && noAction.stderr.contains("one action, serve: tweets sandbox serve"), "\(noAction.stderr)")
    let badPort = try await run(["sandbox", "serve", "--port", "70000"], config: config)
    #expect(badPort.status == 2 && badPort.stderr.contains("--port takes a port number"), "\(badPort.stderr)")
    let badSpelling = try await run(["sandbox", "serve", "--port", "0", "--spelling", "tweets"], config: config)
    #expect(badSpelling.status == 2 && badSpelling.stderr.contains("--spelling takes tweet or post, not tweets"), "\(badSpelling.stderr)")
    let nowhere = config.appendingPathComponent("no-such-folder/answers.jsonl").path
    let badLog = try await run(["sandbox", "serve", "--port", "0", "--record-exchanges", nowhere], config: config)
    #expect(badLog.status == 1 && badLog.stderr.contains("--record-exchanges cannot write to \(nowhere)"), "\(badLog.stderr)")
  }
}
