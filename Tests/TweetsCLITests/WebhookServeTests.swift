import Foundation
import TestSupport
import Testing

/// `tweets webhook serve` as a real process, fed by an independent sender
/// (`Tests/Peers/webhook_sender.py`, Python's own hmac, hashlib and base64 on X's documented
/// formulas): its CRC answers for random tokens, its signed events written, and what is not
/// signed, wrongly signed, oversized or truncated refused with nothing written and no body logged.
@Suite("tweets webhook serve with an independent sender", .tags(.processes), .tier(.processes))
struct WebhookServeTests {
  /// The receiver, its stderr in a file (which the test reads), its events in `output`.
  final class Receiver {
    let server: LoopbackServer
    let folder: URL
    let output: URL
    let stderr: URL
    let secret = "consumer-secret-" + UUID().uuidString

    /// Starts it with the arguments `extra` makes from its folder, the secret in `variable`
    /// (and another in X_CONSUMER_SECRET when that is not the one).
    init(secretIn variable: String = "X_CONSUMER_SECRET", _ extra: (_ folder: URL) -> [String]) async throws {
      folder = FileManager.default.temporaryDirectory.appendingPathComponent("webhook-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      output = folder.appendingPathComponent("events.jsonl")
      stderr = folder.appendingPathComponent("stderr.txt")
      server = try await LoopbackServer.start(
        executable: URL(fileURLWithPath: "/bin/sh"),
        arguments: [
          "-c", #"exec "$0" "$@" 2>"$WEBHOOK_TEST_STDERR""#, PackagePaths.executable("tweets").path, "webhook", "serve", "--port", "0",
          "--config-dir", folder.path, "--output", output.path,
        ] + extra(folder),
        environment: ["X_CONSUMER_SECRET": "not-the-secret", "WEBHOOK_TEST_STDERR": stderr.path].merging([variable: secret]) { _, new in new })
    }

    /// Stops it (SIGTERM), waits for its exit (its summary line is written then), and returns
    /// its lines and its stderr.
    func stop() async throws -> (lines: [[String: Any]], stderr: String) {
      await server.stopAndWait()
      let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
      let lines = try text.split(separator: "\n").map { line in
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      }
      return (lines, (try? String(contentsOf: stderr, encoding: .utf8)) ?? "")
    }

    deinit {
      server.stop()
      try? FileManager.default.removeItem(at: folder)
    }
  }

  static func python(_ script: String, _ arguments: [String], stdin: Data = Data()) async throws -> [String: Any] {
    let result = try await ProcessRunner.run(
      URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-s", PackagePaths.peers.appendingPathComponent(script).path] + arguments, stdin: stdin,
      environment: ["PYTHONDONTWRITEBYTECODE": "1", "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"], timeout: 120)
    try #require(result.status == 0, "\(script): \(result.stderr)")
    return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
  }

  static func same(_ a: Any?, _ b: Any?) -> Bool {
    // Both read by JSONSerialization: written back with sorted keys, equal values are equal bytes.
    guard let a, let b else { return false }
    let write = { (value: Any) in try? JSONSerialization.data(withJSONObject: [value], options: [.sortedKeys]) }
    return write(a) != nil && write(a) == write(b)
  }

  /// With the consumer secret (X-Twitter-Webhooks-Signature), and with the OAuth 2.0 client
  /// secret (X-Twitter-Webhooks-Signature-OAuth2, X_CLIENT_SECRET) while X_CONSUMER_SECRET holds another.
  @Test(arguments: ["consumer-secret", "oauth2-client-secret"])
  func theSendersCRCsAreAnsweredItsEventsWrittenAndEverythingElseRefused(signedWith: String) async throws {
    let maxBody = 4096
    let oauth2 = signedWith == "oauth2-client-secret"
    let receiver = try await Receiver(secretIn: oauth2 ? "X_CLIENT_SECRET" : "X_CONSUMER_SECRET") { _ in
      ["--max-body", String(maxBody), "--signed-with", signedWith]
    }
    let report = try await Self.python(
      "webhook_sender.py",
      [
        "--url", receiver.server.baseURL.absoluteString + "/webhook", "--secret", receiver.secret, "--max-body", String(maxBody), "--tokens", "40",
        "--header", oauth2 ? "X-Twitter-Webhooks-Signature-OAuth2" : "X-Twitter-Webhooks-Signature",
      ])
    let (lines, stderr) = try await receiver.stop()

    // CRC: 40 random tokens (with + / = % & ? # and spaces), each answered as Python computes it.
    #expect(report["crc_checked"] as? Int == 40)
    #expect((report["wrong_crc"] as? [Any])?.isEmpty == true, "\(report["wrong_crc"] ?? "")")

    let statuses = try #require(report["statuses"] as? [String: Any])
    for name in ["signed_0", "signed_1", "signed_2", "signed_3"] { #expect(statuses[name] as? Int == 200, "\(name)") }
    #expect(statuses["unsigned"] as? Int == 401)
    for name in ["other_secret", "other_body", "hex_not_base64", "no_prefix", "repeated", "empty_signed_as_other", "cut_short"] {
      #expect(statuses[name] as? Int == 403, "\(name): \(statuses[name] ?? "")")
    }
    #expect(statuses["oversized"] as? Int == 413)
    // The body never arrived whole: no answer at all, and certainly no 200.
    #expect(statuses["truncated"] is NSNull, "\(statuses["truncated"] ?? "")")

    // The signed events, one line each, in order, each as the sender sent it.
    let sent = try #require(report["sent"] as? [[String: Any]])
    let aaa = try #require(sent[0]["tweet_create_events"] as? [Any])
    let expected: [(type: String, kind: String, event: Any?)] = [
      ("tweet_create_events", "post_created", aaa[0]), ("tweet_create_events", "post_created", aaa[1]),
      ("post.create", "post_created", sent[1]["data"]), ("follow_events", "followed", (sent[2]["follow_events"] as? [Any])?.first),
      ("a_family_not_known_yet", "other", sent[3]["a_family_not_known_yet"]),
    ]
    #expect(lines.count == expected.count, "\(lines)")
    for (line, want) in zip(lines, expected) {
      #expect(line["type"] as? String == want.type)
      #expect(line["kind"] as? String == want.kind)
      #expect(Self.same(line["event"], want.event), "\(line)")
      #expect(line["received_at"] is String)
    }
    #expect(lines.prefix(2).allSatisfy { $0["for_user_id"] as? String == "2244994945" && $0["source"] as? String == "account_activity" })
    #expect(lines[2]["for_user_id"] as? String == "1111111111111111111" && lines[2]["source"] as? String == "activity")

    // Nothing refused was written or logged; each refusal is one line on stderr; no secret anywhere.
    let marker = try #require(report["marker"] as? String)
    let written = try String(contentsOf: receiver.output, encoding: .utf8)
    #expect(!written.contains(marker) && !stderr.contains(marker))
    #expect(!written.contains(receiver.secret) && !stderr.contains(receiver.secret) && !receiver.server.output.contains(receiver.secret))
    let refusals = stderr.split(separator: "\n").filter { $0.hasPrefix("tweets: refused") }
    #expect(refusals.count == 9, "\(stderr)")
    #expect(refusals.filter { $0.contains(" 401: ") }.count == 1 && refusals.filter { $0.contains(" 413: ") }.count == 1)
    #expect(stderr.contains("5 events written, 9 requests refused."), "\(stderr)")
    #expect(receiver.server.output.contains("Receiving X webhooks at http://127.0.0.1:"))
  }

  @Test func withoutTheSecretItDoesNotStart() async throws {
    var environment = ProcessInfo.processInfo.environment
    for key in environment.keys where key.hasPrefix("X_") || key.hasPrefix("TWITTER_") { environment.removeValue(forKey: key) }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webhook-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    for (arguments, words) in [([], "No consumer secret"), (["--signed-with", "oauth2-client-secret"], "No OAuth 2.0 client secret")] {
      let result = try await ProcessRunner.run(
        PackagePaths.executable("tweets"), ["webhook", "serve", "--port", "0", "--config-dir", folder.path] + arguments, environment: environment,
        timeout: 60)
      #expect(result.status == 3 && result.stderr.contains(words), "\(result.status) \(result.stderr)")
    }
    let usage = try await ProcessRunner.run(PackagePaths.executable("tweets"), ["webhook", "listen"], environment: environment, timeout: 60)
    #expect(usage.status == 2 && usage.stderr.contains("tweets webhook serve|register URL|list"), "\(usage.stderr)")
  }

  @Test func withDbThePostsAndUsersOfSignedEventsAreArchived() async throws {
    let receiver = try await Receiver { folder in ["--db", folder.appendingPathComponent("archive.db").path, "--max-body", "4096"] }
    let database = receiver.folder.appendingPathComponent("archive.db")
    let report = try await Self.python(
      "webhook_sender.py",
      ["--url", receiver.server.baseURL.absoluteString + "/webhook", "--secret", receiver.secret, "--max-body", "4096", "--tokens", "3"])
    let (lines, _) = try await receiver.stop()
    #expect((report["wrong_crc"] as? [Any])?.isEmpty == true)
    #expect(lines.count == 5)
    // Read by Python's own sqlite3: the signed posts and accounts, none of the refused ones.
    let request = try JSONSerialization.data(withJSONObject: [
      "path": database.path, "queries": ["users": "SELECT id, username FROM users ORDER BY id"],
    ])
    let reading = try await Self.python("archive_reader.py", [], stdin: request)
    #expect(reading["integrity"] as? String == "ok")
    #expect(Set(reading["tweet_ids"] as? [String] ?? []) == ["1001", "1002", "2080761390344937796"])
    let users = ((reading["queries"] as? [String: Any])?["users"] as? [[Any]] ?? []).compactMap { $0.first.map { "\($0)" } }
    #expect(Set(users) == ["1111111111111111111", "2244994945", "3", "6253282"], "\(users)")
  }
}
