import Foundation
import Loopback
import NetworkClient
import Testing
import XAPI

@testable import XSandbox

/// The sandbox playing X's side of webhooks and the X Activity API, in process: its CRC to a
/// receiver the package's ``XWebhookReceiver`` answers on a loopback server of this process, a
/// new post's signed `post.create` POSTed there and written on the activity stream, and what it
/// refuses: a receiver that answers the CRC wrongly, and any URL that is not loopback (refused
/// before a connection: ``SandboxWebhookCaller/loopbackURL(_:)``).
@Suite("Sandbox: webhooks and the activity events it delivers")
struct SandboxWebhookTests {
  /// A receiver on loopback (``XWebhookReceiver`` with `secret`) that keeps what it received.
  final class Receiver: Sendable {
    let server: LoopbackHTTPServer
    let received: Locked<[XWebhookEvent]>
    let challenges: Locked<Int>
    /// Deliveries being answered now, and the most seen at once.
    let inFlight: Locked<(now: Int, most: Int)>

    /// `holding` delays each delivery's answer by that many seconds (a slow receiver).
    init(secret: String, holding: Double = 0) throws {
      let receiver = XWebhookReceiver(consumerSecret: secret)
      let received = Locked<[XWebhookEvent]>([]), challenges = Locked(0), inFlight = Locked((now: 0, most: 0))
      self.inFlight = inFlight
      self.received = received
      self.challenges = challenges
      server = try LoopbackHTTPServer(answering: { request in
        let answer = receiver.handle(.init(method: request.method, target: request.target, headers: request.headers, body: request.body))
        switch answer.outcome {
        case .challenge: challenges.withLock { $0 += 1 }
        case .delivery(let delivery):
          inFlight.withLock { $0 = (now: $0.now + 1, most: max($0.most, $0.now + 1)) }
          if holding > 0 { Thread.sleep(forTimeInterval: holding) }
          received.withLock { $0 += delivery.events }
          inFlight.withLock { $0.now -= 1 }
        case .refused: break
        }
        return .init(status: answer.response.status, headers: answer.response.headers.map { ($0.name, $0.value) }, body: answer.response.body)
      })
    }

    var url: String { server.baseURL.absoluteString + "/webhook" }
    deinit { server.stop() }

    /// Waits (at most 30 s, a generous bound) until `count` events are in.
    func events(_ count: Int) async throws -> [XWebhookEvent] {
      let deadline = Date().addingTimeInterval(30)
      while received.withLock({ $0.count }) < count, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
      return received.withLock { $0 }
    }
  }

  static func app(_ sandbox: XSandbox) -> XClient {
    XClient(authentication: .bearer(XSandbox.demoBearerToken), transport: sandbox, retry: nil)
  }

  @Test("only IP literals of loopback are taken, and nothing that names another host or hides one")
  func loopbackOnly() {
    for url in ["http://127.0.0.1:8978/webhook", "http://127.0.0.1/w?x=1", "http://127.9.8.7:1/", "http://[::1]:8080/webhook", "https://127.0.0.1/w"]
    {
      #expect(SandboxWebhookCaller.loopbackURL(url) != nil, "\(url)")
    }
    for url in [
      "https://example.com/webhook", "http://localhost:8978/webhook", "http://127.1/", "http://0x7f.0.0.1/", "http://2130706433/",
      "http://[::ffff:127.0.0.1]/", "http://169.254.169.254/latest", "http://10.0.0.1/", "http://127.0.0.1@example.com/",
      "http://user:password@127.0.0.1/", "ftp://127.0.0.1/", "file:///etc/passwd", "http://127.0.0.1.example.com/", "http:///w",
      "http://127.0.0.1/" + String(repeating: "a", count: 200),
    ] {
      #expect(SandboxWebhookCaller.loopbackURL(url) == nil, "\(url)")
    }
  }

  @Test("the CRC's response token and an event's signature are X's formula: HMAC-SHA256 as Python's hmac computes it")
  func xsFormula() {
    // python3 -c 'import hmac,hashlib,base64; print(base64.b64encode(hmac.new(b"s", b"abc", hashlib.sha256).digest()))'
    #expect(SandboxWebhookCaller.signature(of: Array("abc".utf8), secret: "s") == "sha256=R9kg7ZB4TcXq5jW/0IJPYS0F8J+aR/YDkN6HOtN+VGs=")
  }

  @Test("register → CRC answered → valid; a post.create of @sandbox_user reaches the webhook signed and the activity stream; both billed once")
  func registerSubscribePost() async throws {
    let sandbox = XSandbox(tweetsPerUser: 3, streamTimeScale: 0.02, credits: USD("10.00"))
    let app = Self.app(sandbox)
    let receiver = try Receiver(secret: XSandbox.demoConsumer.secret)
    let webhook = try await app.v2.registerWebhook(url: receiver.url)
    #expect(webhook.valid && webhook.url == receiver.url)
    #expect(receiver.challenges.withLock { $0 } == 1)
    #expect(try await app.v2.webhooks().map(\.id) == [webhook.id])
    #expect(try await app.v2.recheckWebhook(id: webhook.id))
    #expect(receiver.challenges.withLock { $0 } == 2)

    _ = try await app.v2.createActivitySubscription(eventType: "post.create", userID: "1001", webhookID: webhook.id)
    _ = try await app.v2.createActivitySubscription(eventType: "post.create", userID: "1001", tag: "on the stream")
    // Another account's post matches neither.
    let first = Locked<XWebhookEvent?>(nil)
    let streamed = Task {
      for try await event in app.v2.activityStream(policy: StreamReconnectPolicy.x.scaled(by: 0.02)) {
        first.withLock { $0 = event }
        return
      }
    }
    defer { streamed.cancel() }
    // The stream is live before the post (it delivers what happens after it connects).
    let deadline = Date().addingTimeInterval(30)
    while sandbox.state.withLock({ $0.activityStream.live == nil }), Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
    let post = try await sandbox.client().v2.post(text: "pushed, not polled \(UUID().uuidString)")

    let events = try await receiver.events(1)
    #expect(events.count == 1)
    #expect(events.first?.type == "post.create" && events.first?.forUserID == "1001")
    #expect(events.first?.tweets.first?.id == post.id && events.first?.tweets.first?.text == post.text)
    // At most 30 s (a hang bound): the stream may be cancelled, never awaited for ever.
    let streamDeadline = Date().addingTimeInterval(30)
    while first.withLock({ $0 == nil }), Date() < streamDeadline { try await Task.sleep(for: .milliseconds(20)) }
    let onStream = first.withLock { $0 }
    #expect(onStream?.type == "post.create" && onStream?.tweets.first?.id == post.id)
    let line = try #require(onStream.flatMap { try? JSONSerialization.jsonObject(with: $0.json) as? [String: Any] })
    #expect((line["data"] as? [String: Any])?["tag"] as? String == "on the stream" || line["tag"] as? String == "on the stream", "\(line)")

    // Billed as one post read (once per post and UTC day, whether it went to the webhook or the stream).
    // The sandbox logs a delivery when the receiver's answer is in, which may come after the
    // receiver kept the event: wait for the log (at most 30 s, a hang bound).
    let logDeadline = Date().addingTimeInterval(30)
    while sandbox.state.withLock({ $0.activity.deliveries.isEmpty }), Date() < logDeadline { try await Task.sleep(for: .milliseconds(20)) }
    let deliveries = sandbox.state.withLock { $0.activity.deliveries }
    #expect(deliveries.map(\.outcome) == ["delivered"] && deliveries.first?.status == 200)
    #expect(sandbox.state.withLock { $0.billing.totals["post"]?.count } == 1)
  }

  @Test("a burst of 30 posts to a slow receiver: one POST at a time (one worker, not a task each), all delivered, in the order posted")
  func burstIsDeliveredOneAtATime() async throws {
    let sandbox = XSandbox(tweetsPerUser: 3)
    let app = Self.app(sandbox)
    let receiver = try Receiver(secret: XSandbox.demoConsumer.secret, holding: 0.05)
    let webhook = try await app.v2.registerWebhook(url: receiver.url)
    _ = try await app.v2.createActivitySubscription(eventType: "post.create", userID: "1001", webhookID: webhook.id)
    let user = sandbox.client()
    var posted: [String] = []
    for index in 0..<30 { posted.append(try await user.v2.post(text: "burst \(index)").id) }

    let events = try await receiver.events(30)
    #expect(events.compactMap { $0.tweets.first?.id } == posted)
    #expect(receiver.inFlight.withLock { $0.most } == 1, "\(receiver.inFlight.withLock { $0 })")
    let deadline = Date().addingTimeInterval(30)
    while sandbox.state.withLock({ $0.activity.deliveries.count < 30 || $0.activity.delivering }), Date() < deadline {
      try await Task.sleep(for: .milliseconds(20))
    }
    #expect(sandbox.state.withLock { $0.activity.deliveries.map(\.outcome) } == Array(repeating: "delivered", count: 30))
    #expect(sandbox.state.withLock { !$0.activity.delivering && $0.activity.outbox.isEmpty })
  }

  @Test("a receiver with another secret fails the CRC: registering is refused (CrcValidationFailed) and nothing is registered")
  func wrongSecret() async throws {
    let sandbox = XSandbox(tweetsPerUser: 3)
    let app = Self.app(sandbox)
    let receiver = try Receiver(secret: "not-the-apps-secret")
    let error = await xError { _ = try await app.v2.registerWebhook(url: receiver.url) }
    #expect("\(String(describing: error))".contains("CrcValidationFailed"), "\(String(describing: error))")
    #expect(receiver.challenges.withLock { $0 } == 1)
    #expect(try await app.v2.webhooks().isEmpty)
  }

  @Test("a re-check that fails marks the webhook invalid, and an invalid webhook is sent nothing")
  func recheckFails() async throws {
    let sandbox = XSandbox(tweetsPerUser: 3)
    let app = Self.app(sandbox)
    var receiver: Receiver? = try Receiver(secret: XSandbox.demoConsumer.secret)
    let webhook = try await app.v2.registerWebhook(url: try #require(receiver?.url))
    _ = try await app.v2.createActivitySubscription(eventType: "post.create", userID: "1001", webhookID: webhook.id)
    receiver = nil  // stopped: nothing answers at its URL any more
    let error = await xError { _ = try await app.v2.recheckWebhook(id: webhook.id) }
    #expect("\(String(describing: error))".contains("CrcValidationFailed"), "\(String(describing: error))")
    #expect(try await app.v2.webhooks().map(\.valid) == [false])
    _ = try await sandbox.client().v2.post(text: "nobody hears this")
    let deadline = Date().addingTimeInterval(30)
    while sandbox.state.withLock({ $0.activity.deliveries.isEmpty }), Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
    #expect(sandbox.state.withLock { $0.activity.deliveries.map(\.outcome) } == ["webhook invalid"])
  }

  @Test("a URL that is not loopback is refused as UrlValidationFailed; duplicates and unknown ids as X names them; the rest app-only")
  func refusals() async throws {
    let sandbox = XSandbox(tweetsPerUser: 3)
    let app = Self.app(sandbox)
    for url in ["https://example.com/webhook", "http://localhost:1/webhook", "http://169.254.169.254/"] {
      let error = await xError { _ = try await app.v2.registerWebhook(url: url) }
      #expect("\(String(describing: error))".contains("UrlValidationFailed"), "\(url): \(String(describing: error))")
    }
    let receiver = try Receiver(secret: XSandbox.demoConsumer.secret)
    let webhook = try await app.v2.registerWebhook(url: receiver.url)
    let duplicate = await xError { _ = try await app.v2.registerWebhook(url: receiver.url) }
    #expect("\(String(describing: duplicate))".contains("DuplicateUrlFailed"))
    let unknown = await xError { _ = try await app.v2.deleteWebhook(id: "1") }
    #expect("\(String(describing: unknown))".contains("WebhookIdInvalid"))
    let job = try await app.v2.replayWebhookEvents(webhookID: webhook.id, from: Date().addingTimeInterval(-3600), to: Date())
    #expect(!job.id.isEmpty)
    #expect(try await app.v2.deleteWebhook(id: webhook.id))
    #expect(try await app.v2.webhooks().isEmpty)
    let userContext = await xError { _ = try await sandbox.client().v2.webhooks() }
    #expect("\(String(describing: userContext))".contains("forbidden"), "listing webhooks is app-only: \(String(describing: userContext))")
  }
}
