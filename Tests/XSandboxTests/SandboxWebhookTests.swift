import Foundation
import Loopback
import NetworkClient
import OAuth1Testing
import TestSupport
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
      _ = try await TestTiming.until(30) { received.withLock { $0.count } >= count }
      return received.withLock { $0 }
    }
  }

  /// Waits (30 s at most, scaled: a hang bound) until the sandbox has logged `count` deliveries
  /// and its worker has stopped: it logs one once the receiver's answer is in, which can come
  /// after the receiver kept the event.
  static func settled(_ sandbox: XSandbox, deliveries count: Int) async throws {
    _ = try await TestTiming.until(30) { sandbox.state.withLock { $0.activity.deliveries.count >= count && !$0.activity.delivering } }
  }

  /// A sandbox (billing with `credits` when given), its app's client, a receiver (answering after
  /// `holding` seconds) registered as a webhook, and the app's subscriptions of @sandbox_user's
  /// `events` to it.
  struct Hooked {
    let sandbox: XSandbox
    let app: XClient
    let receiver: Receiver
    let webhook: XWebhookConfig

    init(credits: String? = nil, holding: Double = 0, events: [String] = ["post.create"]) async throws {
      sandbox = credits.map { XSandbox(tweetsPerUser: 3, credits: USD($0)) } ?? XSandbox(tweetsPerUser: 3)
      app = SandboxWebhookTests.app(sandbox)
      receiver = try Receiver(secret: XSandbox.demoConsumer.secret, holding: holding)
      webhook = try await app.v2.registerWebhook(url: receiver.url)
      for type in events { _ = try await app.v2.createActivitySubscription(eventType: type, userID: "1001", webhookID: webhook.id) }
    }

    var pair: (XSandbox, Receiver) { (sandbox, receiver) }
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
    #expect(try await TestTiming.until(30) { sandbox.state.withLock { $0.activityStream.live != nil } })
    let post = try await sandbox.client().v2.post(text: "pushed, not polled \(UUID().uuidString)")

    let events = try await receiver.events(1)
    #expect(events.count == 1)
    #expect(events.first?.type == "post.create" && events.first?.forUserID == "1001")
    #expect(events.first?.tweets.first?.id == post.id && events.first?.tweets.first?.text == post.text)
    // At most 30 s (a hang bound): the stream may be cancelled, never awaited for ever.
    _ = try await TestTiming.until(30) { first.withLock { $0 != nil } }
    let onStream = first.withLock { $0 }
    #expect(onStream?.type == "post.create" && onStream?.tweets.first?.id == post.id)
    let line = try #require(onStream.flatMap { try? JSONSerialization.jsonObject(with: $0.json) as? [String: Any] })
    #expect((line["data"] as? [String: Any])?["tag"] as? String == "on the stream" || line["tag"] as? String == "on the stream", "\(line)")

    // Billed as one post read (once per post and UTC day, whether it went to the webhook or the stream).
    // The sandbox logs a delivery when the receiver's answer is in, which may come after the
    // receiver kept the event: wait for the log (at most 30 s, a hang bound).
    try await Self.settled(sandbox, deliveries: 1)
    let deliveries = sandbox.state.withLock { $0.activity.deliveries }
    #expect(deliveries.map(\.outcome) == ["delivered"] && deliveries.first?.status == 200)
    #expect(sandbox.state.withLock { $0.billing.totals["post"]?.count } == 1)
  }

  @Test("a burst of 30 posts to a slow receiver: one POST at a time (one worker, not a task each), all delivered, in the order posted")
  func burstIsDeliveredOneAtATime() async throws {
    let (sandbox, receiver) = try await Hooked(holding: 0.05).pair
    let user = sandbox.client()
    var posted: [String] = []
    for index in 0..<30 { posted.append(try await user.v2.post(text: "burst \(index)").id) }

    let events = try await receiver.events(30)
    #expect(events.compactMap { $0.tweets.first?.id } == posted)
    #expect(receiver.inFlight.withLock { $0.most } == 1, "\(receiver.inFlight.withLock { $0 })")
    try await Self.settled(sandbox, deliveries: 30)
    #expect(sandbox.state.withLock { $0.activity.deliveries.map(\.outcome) } == Array(repeating: "delivered", count: 30))
    #expect(sandbox.state.withLock { !$0.activity.delivering && $0.activity.outbox.isEmpty })
  }

  @Test("a replay queues the window's events again: delivered a second time, the same event, billed once; an earlier window sends nothing")
  func replayDeliversTheWindowAgain() async throws {
    let hooked = try await Hooked(credits: "10.00")
    let (sandbox, app, receiver, webhook) = (hooked.sandbox, hooked.app, hooked.receiver, hooked.webhook)
    let post = try await sandbox.client().v2.post(text: "said once, heard twice")
    #expect(try await receiver.events(1).count == 1)

    // Replays are by whole minutes (yyyymmddhhmm): a window that ended an hour ago holds nothing.
    _ = try await app.v2.replayWebhookEvents(webhookID: webhook.id, from: Date().addingTimeInterval(-7200), to: Date().addingTimeInterval(-3600))
    _ = try await app.v2.replayWebhookEvents(webhookID: webhook.id, from: Date().addingTimeInterval(-60), to: Date().addingTimeInterval(60))
    let events = try await receiver.events(2)
    try await Self.settled(sandbox, deliveries: 2)
    #expect(events.count == 2 && events.allSatisfy { $0.tweets.first?.id == post.id })
    let uuids = events.compactMap { (try? JSONSerialization.jsonObject(with: $0.json) as? [String: Any])?["event_uuid"] as? String }
    #expect(uuids.count == 2 && uuids[0] == uuids[1], "\(uuids)")
    #expect(sandbox.state.withLock { $0.activity.deliveries.map(\.outcome) } == ["delivered", "delivered"])
    #expect(sandbox.state.withLock { $0.billing.totals["post"]?.count } == 1)
  }

  @Test("the outbox keeps the newest 10,000 events whatever is queued at once (a burst, a replay of a long window)")
  func outboxIsBounded() {
    var activity = SandboxActivityState()
    let events = (0..<(SandboxActivityState.maxEvents + 250)).map {
      SandboxActivityEvent(
        serial: $0, uuid: String($0), type: "post.create", userID: "1001", webhookID: "1", body: Data(), billedID: String($0), created: 0)
    }
    activity.queue(events.prefix(100))
    activity.queue(events.dropFirst(100))
    #expect(activity.outbox.count == SandboxActivityState.maxEvents)
    #expect(activity.outbox.first?.serial == 250 && activity.outbox.last?.serial == SandboxActivityState.maxEvents + 249)
    for event in events.prefix(3) { activity.queue(CollectionOfOne(event)) }
    #expect(activity.outbox.count == SandboxActivityState.maxEvents && activity.outbox.last?.serial == 2)
  }

  @Test(
    "the activity stream's window: backfill_minutes from the last minutes, start_time from a time (in place of a backfill), end_time leaves out what came from it on; an end not after the start is refused"
  )
  func streamWindow() async throws {
    let clock = ManualClock(seconds: mayDay)
    let sandbox = XSandbox(clock: clock, tweetsPerUser: 3, streamTimeScale: 0.01)
    let app = Self.app(sandbox)
    _ = try await app.v2.createActivitySubscription(eventType: "post.create", userID: "1001")
    // Four posts a minute apart, at mayDay + 0, 60, 120 and 180; the stream opens at + 240.
    var posts: [String] = []
    for minute in 0..<4 {
      posts.append(try await sandbox.client(configuration: .init(clock: clock)).v2.post(text: "minute \(minute)").id)
      clock.advance(by: 60)
    }
    func time(_ offset: Int64) -> String { ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(mayDay + offset))) }
    /// The posts a connection with `query` delivers before its first keep-alive line (the
    /// sandbox writes one only when it has no event to write), and the status.
    func streamed(_ query: String) async throws -> (Int, [String]) {
      let request = HTTPRequest(
        method: .get, url: URL(string: "https://api.x.com/2/activity/stream" + query)!,
        headers: ["Authorization": "Bearer \(XSandbox.demoBearerToken)"])
      let response = try await sandbox.open(request)
      defer { response.cancel() }
      var ids: [String] = []
      for try await chunk in response.body {
        guard response.statusCode == 200 else { break }
        guard let line = try? JSONSerialization.jsonObject(with: chunk) as? [String: Any] else { break }  // the keep-alive
        ids.append((((line["data"] as? [String: Any])?["payload"] as? [String: Any])?["id"] as? String) ?? "?")
      }
      return (response.statusCode, ids)
    }
    #expect(try await streamed("") == (200, []))
    #expect(try await streamed("?backfill_minutes=2") == (200, Array(posts[2...])))
    #expect(try await streamed("?start_time=\(time(60))") == (200, Array(posts[1...])))
    #expect(try await streamed("?start_time=\(time(60))&end_time=\(time(180))") == (200, Array(posts[1...2])))
    #expect(try await streamed("?backfill_minutes=5&end_time=\(time(60))") == (200, [posts[0]]))
    #expect(try await streamed("?start_time=\(time(120))&end_time=\(time(120))").0 == 400)
    #expect(try await streamed("?start_time=2024-05-01T00:00:00%2B02:00").0 == 400)
  }

  @Test(
    "follows and profile changes made through the control API reach the subscriptions whose direction takes them, typed with both accounts; follows billed, profile changes free"
  )
  func followsAndProfileChanges() async throws {
    let sandbox = XSandbox(tweetsPerUser: 3, credits: USD("10.00"))
    let app = Self.app(sandbox)
    let receiver = try Receiver(secret: XSandbox.demoConsumer.secret)
    let webhook = try await app.v2.registerWebhook(url: receiver.url)
    // @sandbox_user's follows of others, @swift_lang's new followers, @sandbox_user's bio.
    _ = try await app.v2.createActivitySubscription(eventType: "follow.follow", userID: "1001", direction: .outbound, webhookID: webhook.id)
    _ = try await app.v2.createActivitySubscription(eventType: "follow.follow", userID: "1002", direction: .inbound, webhookID: webhook.id)
    _ = try await app.v2.createActivitySubscription(eventType: "profile.update.bio", userID: "1001", webhookID: webhook.id)
    // X's direction filter is for directional events: a bio change reaches this one too.
    _ = try await app.v2.createActivitySubscription(eventType: "profile.update.bio", userID: "1001", direction: .inbound, webhookID: webhook.id)
    func control(_ body: String) -> SandboxResponse { sandbox.control("activity", query: [:], body: Data(body.utf8)) }

    #expect(control(#"{"event_type": "follow.follow", "source_user_id": "1001", "target_user_id": "1002"}"#).status == 200)
    // The other way round matches neither: 1001 is followed (inbound), 1002 follows (outbound).
    #expect(control(#"{"event_type": "follow.follow", "source_user_id": "1002", "target_user_id": "1001"}"#).status == 200)
    #expect(control(#"{"event_type": "profile.update.bio", "user_id": "1001", "before": "old bio", "after": "new bio"}"#).status == 200)
    for refused in [
      #"{"event_type": "follow.follow", "source_user_id": "1001", "target_user_id": "1001"}"#,
      #"{"event_type": "follow.follow", "source_user_id": "1001", "target_user_id": "999"}"#,
      #"{"event_type": "profile.update.nonsense", "user_id": "1001", "before": "a", "after": "b"}"#,
      #"{"event_type": "profile.update.bio", "user_id": "1001"}"#, #"{"event_type": "post.create"}"#,
      #"{"event_type": "follow.follow", "source_user_id": 1001, "target_user_id": ["1002"]}"#, #"{"event_type": null}"#,
      #"{"event_type": "profile.update.bio", "user_id": "1001", "before": "a", "after": ""#
        + String(repeating: "é", count: SandboxState.maxProfileValue + 1) + #""}"#,
    ] {
      #expect(control(refused).status == 400, "\(refused.prefix(120))")
    }
    // At the limit, it is taken.
    let longest = String(repeating: "é", count: SandboxState.maxProfileValue)
    #expect(control(#"{"event_type": "profile.update.url", "user_id": "1001", "before": "", "after": ""# + longest + #""}"#).status == 200)

    let events = try await receiver.events(4)
    try await Self.settled(sandbox, deliveries: 4)
    #expect(events.map(\.kind) == [.followed, .followed, .profile, .profile])
    #expect(events.map(\.forUserID) == ["1001", "1002", "1001", "1001"])
    #expect(events.prefix(2).allSatisfy { $0.users.map(\.username) == ["sandbox_user", "swift_lang"] }, "\(events.map(\.users))")
    let bio = try #require(events.dropFirst(2).first.flatMap { try? JSONSerialization.jsonObject(with: $0.json) as? [String: Any] })
    #expect(bio["payload"] as? [String: String] == ["before": "old bio", "after": "new bio"])
    #expect(sandbox.state.withLock { $0.activity.deliveries.map(\.outcome) } == Array(repeating: "delivered", count: 4))
    // X bills a follow event at $0.010 under its event_uuid; a profile change is free.
    #expect(sandbox.state.withLock { $0.billing.totals["follow"]?.count } == 2)
    #expect(sandbox.state.withLock { $0.billing.totals.keys.sorted() } == ["follow"])
  }

  @Test("a webhook deleted while its events wait is sent none of the rest: each is checked as it is sent")
  func deletedWhileQueued() async throws {
    let hooked = try await Hooked(holding: 0.5)
    let (sandbox, app, receiver, webhook) = (hooked.sandbox, hooked.app, hooked.receiver, hooked.webhook)
    for index in 0..<5 { _ = try await sandbox.client().v2.post(text: "queued \(index)") }
    _ = try await receiver.events(1)
    #expect(try await app.v2.deleteWebhook(id: webhook.id))
    try await Self.settled(sandbox, deliveries: 5)
    let outcomes = sandbox.state.withLock { $0.activity.deliveries.map(\.outcome) }
    #expect(outcomes.first == "delivered" && outcomes.last == "no such webhook", "\(outcomes)")
    #expect(outcomes.filter { $0 == "delivered" }.count == receiver.received.withLock { $0.count }, "\(outcomes)")
  }

  @Test("with the credits spent, a follow is not sent (billing refused) and a profile change, which is free, is")
  func freeEventsGoOutWithoutCredits() async throws {
    let hooked = try await Hooked(credits: "1.00", events: ["follow.follow", "profile.update.bio"])
    let (sandbox, receiver) = hooked.pair
    #expect(sandbox.billingControl(["credits": "0.00"]).status == 200)
    for body in [
      #"{"event_type": "follow.follow", "source_user_id": "1001", "target_user_id": "1003"}"#,
      #"{"event_type": "profile.update.bio", "user_id": "1001", "before": "a", "after": "b"}"#,
    ] {
      #expect(sandbox.control("activity", query: [:], body: Data(body.utf8)).status == 200)
    }
    try await Self.settled(sandbox, deliveries: 2)
    #expect(sandbox.state.withLock { $0.activity.deliveries.map(\.outcome) } == ["billing refused", "delivered"])
    #expect(receiver.received.withLock { $0.map(\.kind) } == [.profile])
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
    try await Self.settled(sandbox, deliveries: 1)
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
