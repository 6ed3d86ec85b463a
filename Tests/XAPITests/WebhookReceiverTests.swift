import Foundation
import Testing
import XAPI

/// ``XWebhookReceiver`` and ``XWebhookEvent`` against X's documented formulas and hostile
/// requests: the CRC answer, the signature check before the body is read, its limits, and the
/// events of each shape, none dropped.
@Suite("Webhooks: CRC, signature verification, events")
struct WebhookReceiverTests {
  static let secret = "s3cret-consumer-secret"
  static let receiver = XWebhookReceiver(consumerSecret: secret, maxBodyBytes: 4096)
  /// The header X sends, computed apart from the receiver (RFC 4231's HMAC-SHA256 is checked below).
  static func signed(_ body: Data) -> [(name: String, value: String)] {
    [(name: "X-Twitter-Webhooks-Signature", value: receiver.signature(of: body))]
  }

  static func post(_ body: Data, headers: [(name: String, value: String)]) -> XWebhookReceiver.Answer {
    receiver.handle(.init(method: "POST", target: "/webhook", headers: headers, body: body))
  }

  static func status(_ answer: XWebhookReceiver.Answer) -> Int { answer.response.status }

  @Test("The CRC's response_token is sha256= and the base64 of HMAC-SHA256(secret, token) (RFC 4231 case 2)")
  func crcFormula() throws {
    let rfc = XWebhookReceiver(consumerSecret: "Jefe")
    let answer = rfc.handle(.init(method: "GET", target: "/webhook?crc_token=what%20do%20ya%20want%20for%20nothing%3F"))
    #expect(answer.response.status == 200)
    #expect(answer.response.headers.contains { $0.name == "Content-Type" && $0.value == "application/json" })
    let object = try #require(try JSONSerialization.jsonObject(with: answer.response.body) as? [String: String])
    #expect(object == ["response_token": "sha256=W9zBRr9gdU5qBCQmCJV1x1oAPwidJzmDnexYuWTsOEM="])
    guard case .challenge = answer.outcome else {
      Issue.record("not a challenge: \(answer.outcome)")
      return
    }
    // The form X's own example computes, with a whole URL as the target.
    let other = XWebhookReceiver(consumerSecret: "s3cret").handle(.init(method: "GET", target: "https://example.com/webhook?a=1&crc_token=abc"))
    #expect(String(decoding: other.response.body, as: UTF8.self) == #"{"response_token":"sha256=Ty8wqvSle9YKtHPI6cLN/vwYZyPUcn7W8x8ENTyROJo="}"#)
  }

  @Test("A GET without exactly one non-empty, bounded, well-encoded crc_token is 400")
  func badChallenges() {
    let long = String(repeating: "a", count: XWebhookReceiver.maxCRCTokenBytes + 1)
    for target in [
      "/webhook", "/webhook?", "/webhook?crc_token=", "/webhook?crc_token", "/webhook?crc_token=a&crc_token=b", "/webhook?crc_token=%zz",
      "/webhook?crc_token=\(long)", "/webhook?CRC_TOKEN=a",
    ] {
      let answer = Self.receiver.handle(.init(method: "GET", target: target))
      #expect(answer.response.status == 400, "\(target)")
      guard case .refused(.badChallenge) = answer.outcome else {
        Issue.record("\(target): \(answer.outcome)")
        return
      }
    }
    let longest = String(repeating: "a", count: XWebhookReceiver.maxCRCTokenBytes)
    #expect(Self.receiver.handle(.init(method: "GET", target: "/webhook?crc_token=\(longest)")).response.status == 200)
  }

  @Test("A signed POST is accepted and read; the header's name is matched in any case, its value trimmed")
  func signedPost() throws {
    let body = Data(
      #"{"for_user_id":"42","favorite_events":[{"id":"a","favorited_status":{"id_str":"7","text":"hi"},"user":{"id_str":"9","screen_name":"n","name":"N"}}]}"#
        .utf8)
    let signature = Self.receiver.signature(of: body)
    for headers in [Self.signed(body), [(name: "x-twitter-webhooks-signature", value: "  \(signature)\t")]] {
      let answer = Self.post(body, headers: headers)
      #expect(answer.response.status == 200)
      guard case .delivery(let delivery) = answer.outcome else {
        Issue.record("\(answer.outcome)")
        return
      }
      #expect(delivery.body == body)
      let event = try #require(delivery.events.first)
      #expect(delivery.events.count == 1)
      #expect(event.kind == .liked && event.type == "favorite_events" && event.forUserID == "42")
      #expect(event.tweets.map(\.id) == ["7"] && event.users.map(\.username) == ["n"])
    }
  }

  @Test("Unsigned is 401; a wrong, malformed or repeated signature is 403; nothing is read")
  func refusedSignatures() {
    let body = Data(#"{"tweet_create_events":[{"id_str":"1","text":"forged"}]}"#.utf8)
    let good = Self.receiver.signature(of: body)
    let mac = Data(base64Encoded: String(good.dropFirst(7)))!
    #expect(Self.status(Self.post(body, headers: [])) == 401)
    #expect(Self.status(Self.post(body, headers: [(name: "X-Twitter-Webhooks-Signature-OAuth2", value: good)])) == 401)
    let cases: [(String, XWebhookReceiver.Refusal)] = [
      (XWebhookReceiver(consumerSecret: "other").signature(of: body), .wrongSignature),
      (Self.receiver.signature(of: body + Data(" ".utf8)), .wrongSignature),
      ("sha256=" + Data(mac.reversed()).base64EncodedString(), .wrongSignature),
      ("", .malformedSignature), ("sha256=", .malformedSignature), ("sha256=!!!!", .malformedSignature),
      ("SHA256=" + good.dropFirst(7), .malformedSignature), (String(good.dropFirst(7)), .malformedSignature),
      ("sha1=" + good.dropFirst(7), .malformedSignature), ("sha256=" + mac.prefix(31).base64EncodedString(), .malformedSignature),
      ("sha256=" + (mac + mac).base64EncodedString(), .malformedSignature),
      ("sha256=" + mac.map { String(format: "%02x", $0) }.joined(), .malformedSignature),
      (good + String(repeating: "A", count: 100_000), .malformedSignature),
    ]
    for (value, refusal) in cases {
      let answer = Self.post(body, headers: [(name: "X-Twitter-Webhooks-Signature", value: value)])
      #expect(answer.response.status == 403, "\(value.prefix(80))")
      guard case .refused(let why) = answer.outcome else {
        Issue.record("\(value.prefix(80)): accepted")
        return
      }
      #expect(why == refusal, "\(value.prefix(80))")
    }
    // Two headers, even two good ones: which one counts is not the sender's to pick.
    let repeated = Self.post(body, headers: Self.signed(body) + Self.signed(body))
    #expect(repeated.response.status == 403)
    guard case .refused(.repeatedSignature) = repeated.outcome else {
      Issue.record("\(repeated.outcome)")
      return
    }
    let mixed = Self.post(body, headers: [(name: "x-twitter-webhooks-signature", value: "sha256=AAAA")] + Self.signed(body))
    #expect(mixed.response.status == 403)
  }

  @Test("Past the body limit is 413 whatever the signature; an empty body is signed like any other")
  func sizesAndEmptyBody() throws {
    let huge = Data(repeating: 0x7B, count: 4097)
    let answer = Self.post(huge, headers: Self.signed(huge))
    #expect(answer.response.status == 413)
    guard case .refused(.bodyTooLarge(limit: 4096)) = answer.outcome else {
      Issue.record("\(answer.outcome)")
      return
    }
    #expect(Self.status(Self.post(huge, headers: [])) == 413)
    let atLimit = Data(repeating: 0x20, count: 4096)
    #expect(Self.status(Self.post(atLimit, headers: Self.signed(atLimit))) == 200)
    #expect(Self.status(Self.post(Data(), headers: [])) == 401)
    #expect(Self.status(Self.post(Data(), headers: Self.signed(Data("{}".utf8)))) == 403)
    let empty = Self.post(Data(), headers: Self.signed(Data()))
    guard case .delivery(let delivery) = empty.outcome else {
      Issue.record("\(empty.outcome)")
      return
    }
    // Kept whole, as an event of no known shape.
    #expect(delivery.events.map(\.kind) == [.unknown] && delivery.events[0].json.isEmpty)
  }

  @Test("Neither the secret nor a body is in a description, a refusal or a response")
  func noSecretsInWords() {
    let body = Data(#"{"text":"BODY-MARKER"}"#.utf8)
    #expect(!"\(Self.receiver)".contains(Self.secret))
    for headers in [[], [(name: "X-Twitter-Webhooks-Signature", value: "sha256=AAAA")]] {
      let answer = Self.post(body, headers: headers)
      let text = String(decoding: answer.response.body, as: UTF8.self) + "\(answer.outcome)"
      #expect(!text.contains("BODY-MARKER") && !text.contains(Self.secret))
    }
  }

  @Test("Other methods are 405 with Allow; HEAD is a CRC like GET")
  func methods() {
    for method in ["PUT", "DELETE", "PATCH", "OPTIONS", "\u{1B}[31mX"] {
      let answer = Self.receiver.handle(.init(method: method, target: "/webhook?crc_token=a"))
      #expect(answer.response.status == 405)
      #expect(answer.response.headers.contains { $0.name == "Allow" && $0.value == "GET, POST" })
      #expect(!String(describing: answer.outcome).contains("\u{1B}"))
    }
    #expect(Self.receiver.handle(.init(method: "HEAD", target: "/?crc_token=a")).response.status == 200)
  }

  @Test("The OAuth 2.0 client secret's scheme reads its own header only")
  func oauth2Scheme() {
    let receiver = XWebhookReceiver(secret: "client-secret", scheme: .oauth2ClientSecret)
    let body = Data("{}".utf8)
    let signature = receiver.signature(of: body)
    let ok = receiver.handle(
      .init(method: "POST", target: "/", headers: [(name: "X-Twitter-Webhooks-Signature-OAuth2", value: signature)], body: body))
    #expect(ok.response.status == 200)
    let legacy = receiver.handle(.init(method: "POST", target: "/", headers: [(name: "X-Twitter-Webhooks-Signature", value: signature)], body: body))
    #expect(legacy.response.status == 401)
  }

  @Test("Account Activity families: each item an event, unknown families kept, users and posts read")
  func accountActivityEvents() throws {
    let body = Data(
      #"""
      {"for_user_id":"2244994945","users":{"3":{"id":"3","screen_name":"u3","name":"U3"},"2244994945":{"id":"2244994945","screen_name":"me","name":"Me"}},
       "tweet_create_events":[{"id_str":"1","text":"a","user":{"id_str":"3","screen_name":"u3","name":"U3"}},{"id_str":"2","text":"b"}],
       "follow_events":[{"type":"unfollow","source":{"id_str":"3","screen_name":"u3","name":"U3"},"target":{"id_str":"2244994945","screen_name":"me","name":"Me"}}],
       "direct_message_events":[{"type":"message_create","id":"9","message_create":{"target":{"recipient_id":"2244994945"},"sender_id":"3","message_data":{"text":"hi"}}}],
       "user_event":{"revoke":{"date_time":"2018-05-24T09:48:12+00:00","target":{"app_id":"13090192"},"source":{"user_id":"63046977"}}},
       "a_new_family":[{"x":1}],
       "tweet_delete_events":[{"status":{"id":"1","user_id":"3"},"timestamp_ms":"1"}]}
      """#.utf8)
    let events = XWebhookDelivery(body: body).events
    let pairs = events.map { "\($0.type):\($0.kind.rawValue)" }
    #expect(
      pairs == [
        "a_new_family:other", "direct_message_events:direct_message", "follow_events:unfollowed", "tweet_create_events:post_created",
        "tweet_create_events:post_created", "tweet_delete_events:post_deleted", "user_event:revoked",
      ])
    #expect(events.allSatisfy { $0.source == .accountActivity && $0.forUserID == "2244994945" })
    let created = events.filter { $0.kind == .postCreated }
    #expect(created.flatMap(\.tweets).map(\.text) == ["a", "b"])
    #expect(created[0].users.map(\.id) == ["3"])
    #expect(events.first { $0.kind == .unfollowed }?.users.map(\.username) == ["u3", "me"])
    let message = try #require(events.first { $0.kind == .directMessage })
    #expect(message.users.map(\.username) == ["u3", "me"])
    // The users map is kept beside every event of the body, whole.
    let context = try #require(message.context.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] })
    #expect((context["users"] as? [String: Any])?.keys.sorted() == ["2244994945", "3"])
    let unknown = try #require(events.first { $0.type == "a_new_family" })
    #expect(try JSONSerialization.jsonObject(with: unknown.json) as? [String: Int] == ["x": 1])
  }

  @Test("X Activity API events by their dotted type; an unknown type kept, its users read from either includes form")
  func activityEvents() throws {
    func event(_ type: String, payload: String, includes: String = "{}") -> XWebhookEvent? {
      let body =
        #"{"data":{"event_uuid":"1","filter":{"user_id":"11"},"event_type":"\#(type)","tag":"t","payload":\#(payload),"includes":\#(includes)}}"#
      let events = XWebhookDelivery(body: Data(body.utf8)).events
      #expect(events.count == 1)
      return events.first
    }
    let post = try #require(
      event("post.create", payload: #"{"id":"5","text":"hello","author_id":"11"}"#, includes: #"{"users":[{"id":"11","username":"me","name":"Me"}]}"#)
    )
    #expect(post.source == .activity && post.kind == .postCreated && post.forUserID == "11" && post.type == "post.create")
    #expect(post.tweets.map(\.text) == ["hello"] && post.users.map(\.username) == ["me"])
    let deleted = try #require(
      event("post.delete", payload: #"{"id":"5","author_id":"11"}"#, includes: #"{"users":[{"data":{"id":"11","username":"me","name":"Me"}}]}"#))
    #expect(deleted.kind == .postDeleted && deleted.tweets.isEmpty && deleted.users.map(\.id) == ["11"])
    let kinds = [
      "follow.follow": XWebhookEvent.Kind.followed, "follow.unfollow": .unfollowed, "like.create": .liked, "profile.update.bio": .profile,
      "dm.received": .directMessage, "chat.sent": .directMessage, "oauth.revoke": .revoked, "spaces.start": .other, "news.new": .other,
    ]
    for (type, kind) in kinds { #expect(event(type, payload: "{}")?.kind == kind, "\(type)") }
    let kept = try #require(event("something.new", payload: #"{"a":[1,{"b":null}]}"#))
    let object = try #require(try JSONSerialization.jsonObject(with: kept.json) as? [String: Any])
    #expect(object["event_type"] as? String == "something.new" && object["payload"] != nil)
  }

  @Test("Bodies of no known shape are one unknown event holding the body unchanged; hostile JSON does not crash")
  func hostileBodies() {
    let bodies = [
      Data("not json".utf8), Data("[1,2]".utf8), Data("\"text\"".utf8), Data("{}".utf8), Data(#"{"for_user_id":"1"}"#.utf8),
      Data([0xFF, 0xFE, 0x00]), Data(String(repeating: "[", count: 100_000).utf8), Data(#"{"data":{"event_type":7}}"#.utf8),
      Data(("{\"tweet_create_events\":" + String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000) + "}").utf8),
    ]
    for body in bodies {
      let events = XWebhookDelivery(body: body).events
      #expect(!events.isEmpty, "\(body.prefix(40))")
      if events.count == 1, events[0].kind == .unknown { #expect(events[0].json == body) }
    }
  }
}
