import Foundation
import TestSupport
import Testing

/// X's push end to end, every party a real process on loopback: the sandbox plays X (behind its
/// spec check: ``VerifiedSandbox``), `tweets webhook serve` receives, `tweets webhook register`,
/// `tweets activity subscribe` and `tweets activity stream` manage and read, `tweets post` posts.
/// The sandbox sends the registered URL a CRC, and a new post of a subscribed account reaches the
/// receiver (signed) and the activity stream, billed in both ledgers. Receivers that fail the
/// CRC (a wrong answer, none within X's 10 s, a huge one) and URLs that are not loopback are
/// refused as X refuses them (`Tests/Peers/webhook_misbehaving.py` misbehaves on purpose).
@Suite("X's webhooks and activity stream, played by the sandbox", .sandboxChecks, .tags(.peers, .processes), .tier(.peers, .processes))
struct WebhookSandboxTests {
  static let bearer = ["X_BEARER_TOKEN": VerifiedSandbox.bearerToken]

  /// `tweets` with the app's bearer token, straight to the sandbox (no OAuth 1.0a to check).
  static func app(_ runner: TweetsRunner, _ arguments: [String]) async throws -> ProcessResult {
    try await runner.run(arguments, environment: bearer, baseURL: runner.server.directURL.absoluteString)
  }

  /// The lines of a JSON-lines file written so far (whole lines only).
  static func lines(_ file: URL) -> [[String: Any]] {
    let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
    return text.split(separator: "\n", omittingEmptySubsequences: true).compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
  }

  /// `tweets activity stream --format jsonl --output FILE` with the app's bearer token, as a
  /// real process, once the sandbox holds its connection (it carries only what happens after).
  static func activityStream(_ runner: TweetsRunner, to file: URL) async throws -> InteractiveProcess {
    var environment = runner.environment.merging(Self.bearer) { $1 }
    environment["TWEETS_STREAM_TIME_SCALE"] = "0.05"
    let stream = try InteractiveProcess(
      PackagePaths.executable("tweets"),
      ["activity", "stream", "--format", "jsonl", "--output", file.path] + runner.common(baseURL: runner.server.directURL.absoluteString),
      environment: environment)
    let connected = try await TestTiming.until {
      let connections = try await runner.server.activity()["connections"] as? [[String: Any]] ?? []
      return connections.contains { $0["status"] as? Int == 200 && $0["closed"] is NSNull }
    }
    #expect(connected, "the activity stream did not connect: \(stream.stderr)")
    return stream
  }

  @Test("a follow and a bio change the sandbox makes reach tweets activity stream typed and spec-checked; the follow is billed, the bio not")
  func followAndProfileOnTheStream() async throws {
    let server = try await VerifiedSandbox.start(tweetsPerUser: 5, streamTimeScale: 0.05, credits: "10.00")
    let runner = try TweetsRunner(server: server)
    let streamed = runner.configDirectory.appendingPathComponent("stream.jsonl")
    for (events, direction) in [("follow.follow", "inbound"), ("profile.update.bio", nil)] {
      let options = direction.map { ["--direction", $0] } ?? []
      let made = try await Self.app(runner, ["activity", "subscribe", "--user", "1001", "--events", events] + options)
      #expect(made.status == 0, "\(made.stderr)")
    }
    let stream = try await Self.activityStream(runner, to: streamed)
    // @swift_lang follows @sandbox_user (inbound for 1001); @sandbox_user follows @swift_lang
    // (outbound: not subscribed); @sandbox_user's bio changes.
    _ = try await server.activity(["event_type": "follow.follow", "source_user_id": "1002", "target_user_id": "1001"])
    _ = try await server.activity(["event_type": "follow.follow", "source_user_id": "1001", "target_user_id": "1002"])
    _ = try await server.activity(["event_type": "profile.update.bio", "user_id": "1001", "before": "old", "after": "new"])
    let arrived = try await TestTiming.until { Self.lines(streamed).count >= 2 }
    kill(stream.pid, SIGTERM)
    let streamEnd = await stream.wait(timeout: TestTiming.seconds(60))
    #expect(arrived && streamEnd.status == 0, "\(Self.lines(streamed)) \(streamEnd.stderr)")

    let lines = Self.lines(streamed)
    #expect(lines.map { $0["type"] as? String } == ["follow.follow", "profile.update.bio"], "\(lines)")
    #expect(lines.map { $0["kind"] as? String } == ["followed", "profile"], "\(lines)")
    let payload = (lines.first?["event"] as? [String: Any])?["payload"] as? [String: Any]
    #expect((payload?["source"] as? [String: Any])?["username"] as? String == "swift_lang", "\(lines)")
    #expect((payload?["target"] as? [String: Any])?["username"] as? String == "sandbox_user", "\(lines)")
    // Billed by the sandbox and in the client's ledger: the follow at $0.010, the bio change free.
    #expect(try await server.billing().charges["follow"]?.count == 1)
    let usage = try await runner.run(["usage", "--format", "json"])
    let rows = ((try usage.json() as? [String: Any])?["spent"] as? [[String: Any]] ?? []).filter { $0["command"] as? String == "activity" }
    #expect(rows.map { $0["items"] as? Int } == [1] && rows.first.flatMap { ($0["amount"] as? String).flatMap(Double.init) } == 0.01, "\(rows)")
  }

  @Test("register (CRC answered) → subscribe (to the webhook and to the stream) → post: the post on the webhook, on the stream, in the ledger")
  func endToEnd() async throws {
    let server = try await VerifiedSandbox.start(tweetsPerUser: 5, streamTimeScale: 0.05, credits: "10.00")
    let runner = try TweetsRunner(server: server)
    try await runner.loginWithTokens()
    let folder = runner.configDirectory
    let received = folder.appendingPathComponent("webhook.jsonl"), streamed = folder.appendingPathComponent("stream.jsonl")

    // The receiver: `tweets webhook serve`, with the app's consumer secret, as a real process.
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("serve"), withIntermediateDirectories: true)
    let receiver = try await LoopbackServer.start(
      executable: PackagePaths.executable("tweets"),
      arguments: ["webhook", "serve", "--port", "0", "--config-dir", folder.appendingPathComponent("serve").path, "--output", received.path],
      environment: ["X_CONSUMER_SECRET": VerifiedSandbox.consumerSecret])
    defer { receiver.stop() }
    let url = receiver.baseURL.absoluteString + "/webhooks/x"

    let registered = try await Self.app(runner, ["webhook", "register", url])
    #expect(registered.status == 0, "\(registered.stderr)")
    #expect(registered.stdout.contains("it answered X's CRC"), "\(registered.stdout)")
    let id = try #require(registered.stdout.split(separator: " ").dropFirst(2).first.map(String.init), "\(registered.stdout)")
    let listed = try await Self.app(runner, ["webhook", "list", "--format", "jsonl"])
    #expect(listed.stdout.contains(#""valid":true"#) && listed.stdout.contains(id), "\(listed.stdout)\(listed.stderr)")

    let toWebhook = try await Self.app(runner, ["activity", "subscribe", "--user", "1001", "--events", "post.create", "--webhook", id])
    #expect(toWebhook.status == 0, "\(toWebhook.stderr)")
    let toStream = try await Self.app(runner, ["activity", "subscribe", "--user", "1001", "--events", "post.create"])
    #expect(toStream.status == 0, "\(toStream.stderr)")

    // Connected before the post: the stream carries what happens after it connects.
    let stream = try await Self.activityStream(runner, to: streamed)

    let text = "pushed, not polled: \(UUID().uuidString)"
    let posted = try await runner.run(["post", text])
    #expect(posted.status == 0, "\(posted.stderr)")
    let arrived = try await TestTiming.until { Self.lines(received).count >= 1 && Self.lines(streamed).count >= 1 }
    // The sandbox logs the delivery once the receiver's answer is in, which may come after the
    // receiver wrote the event: the receiver stays up until the log has it.
    let logged = try await TestTiming.until { !(try await server.activity()["deliveries"] as? [Any] ?? []).isEmpty }
    #expect(logged, "the sandbox logged no delivery")
    kill(stream.pid, SIGTERM)
    let streamEnd = await stream.wait(timeout: TestTiming.seconds(60))
    await receiver.stopAndWait()
    #expect(arrived, "webhook: \(Self.lines(received)), stream: \(Self.lines(streamed)), \(streamEnd.stderr)")
    #expect(streamEnd.status == 0, "\(streamEnd.stderr)")

    for (name, file) in [("webhook", received), ("stream", streamed)] {
      let lines = Self.lines(file)
      #expect(lines.count == 1, "\(name): \(lines)")
      let line = try #require(lines.first)
      #expect(line["type"] as? String == "post.create" && line["kind"] as? String == "post_created", "\(name): \(line)")
      #expect(line["for_user_id"] as? String == "1001" && line["source"] as? String == "activity", "\(name): \(line)")
      let payload = ((line["event"] as? [String: Any])?["payload"] as? [String: Any]) ?? [:]
      #expect(payload["text"] as? String == text && payload["author_id"] as? String == "1001", "\(name): \(line)")
    }

    // The sandbox POSTed it once (200 from the receiver) and billed it once (a post, once a day).
    let activity = try await server.activity()
    let deliveries = activity["deliveries"] as? [[String: Any]] ?? []
    #expect(deliveries.map { $0["outcome"] as? String } == ["delivered"] && deliveries.first?["status"] as? Int == 200, "\(deliveries)")
    let charges = try await server.billing().charges
    #expect(charges["post"]?.count == 1, "\(charges)")
    // The client's ledger: the stream's event billed as a post read ($0.005) by `tweets activity`
    // (subscribing by id and managing webhooks are unpriced).
    let usage = try await runner.run(["usage", "--format", "json"])
    let rows = (try usage.json() as? [String: Any])?["spent"] as? [[String: Any]] ?? []
    let streamRows = rows.filter { $0["command"] as? String == "activity" }
    #expect(streamRows.map { $0["items"] as? Int } == [1], "\(rows)")
    #expect(streamRows.first.flatMap { ($0["amount"] as? String).flatMap(Double.init) } == 0.005, "\(rows)")
  }

  @Test("a webhook that answers the first CRC and not the next is marked invalid by tweets webhook check; a wrong first answer registers nothing")
  func wrongCRC() async throws {
    let server = try await VerifiedSandbox.start(tweetsPerUser: 5)
    let runner = try TweetsRunner(server: server)
    let peer = try await LoopbackServer.start(script: "webhook_misbehaving.py", arguments: ["--secret", VerifiedSandbox.consumerSecret])
    defer { peer.stop() }
    let registered = try await Self.app(runner, ["webhook", "register", peer.baseURL.absoluteString + "/right-then-wrong"])
    #expect(registered.status == 0, "\(registered.stderr)")
    let id = try #require(registered.stdout.split(separator: " ").dropFirst(2).first.map(String.init), "\(registered.stdout)")
    let check = try await Self.app(runner, ["webhook", "check", id])
    #expect(check.status != 0 && check.stderr.contains("CrcValidationFailed"), "\(check.stdout)\(check.stderr)")
    let listed = try await Self.app(runner, ["webhook", "list", "--format", "jsonl"])
    #expect(listed.stdout.contains(#""valid":false"#), "\(listed.stdout)\(listed.stderr)")

    let wrong = try await Self.app(runner, ["webhook", "register", peer.baseURL.absoluteString + "/wrong"])
    #expect(wrong.status != 0 && wrong.stderr.contains("CrcValidationFailed"), "\(wrong.stdout)\(wrong.stderr)")
    let webhooks = try await server.activity()["webhooks"] as? [[String: Any]] ?? []
    #expect(webhooks.count == 1, "\(webhooks)")
  }

  @Test("hostile receivers: one that never answers fails within X's bound, a huge answer is not read whole, a URL off loopback is refused unsent")
  func hostileReceivers() async throws {
    let server = try await VerifiedSandbox.start(tweetsPerUser: 5)
    let runner = try TweetsRunner(server: server)
    let peer = try await LoopbackServer.start(script: "webhook_misbehaving.py", arguments: ["--secret", VerifiedSandbox.consumerSecret])
    defer { peer.stop() }
    for path in ["/silent", "/huge"] {
      let result = try await Self.app(runner, ["webhook", "register", peer.baseURL.absoluteString + path])
      #expect(result.status != 0 && result.stderr.contains("CrcValidationFailed"), "\(path): \(result.stdout)\(result.stderr)")
      // A hang bound, not a speed measure: the sandbox gives up after 10 s.
      #expect(result.seconds < TestTiming.seconds(120), "\(path): \(result.seconds) s")
    }
    // Not loopback: refused as X refuses a URL it does not take, before any connection (the
    // sandbox checks the URL's text: SandboxWebhookTests.loopbackOnly).
    for url in ["https://example.com/webhook", "http://192.0.2.1/webhook", "http://localhost:\(peer.port)/wrong"] {
      let result = try await Self.app(runner, ["webhook", "register", url])
      #expect(result.status != 0 && result.stderr.contains("UrlValidationFailed"), "\(url): \(result.stdout)\(result.stderr)")
    }
    #expect((try await server.activity()["webhooks"] as? [Any])?.isEmpty == true)
  }
}
