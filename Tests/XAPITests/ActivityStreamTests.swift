import Foundation
import NetworkClient
import TestSupport
import Testing
import XAPI

/// ``ActivityStream`` against the filtered stream's scripted transport: the same reconnect
/// policy, the Activity API's lines read as ``XWebhookEvent``s, X's words reported, a 4xx
/// final; and ``XActivityEventPrice``, what each delivered event is billed as.
@Suite("Activity stream: reconnects, events and prices")
struct ActivityStreamTests {
  static func post(_ id: String) -> String {
    #"{"data":{"event_type":"post.create","event_uuid":"77\#(id)","filter":{"user_id":"2244994945"},"#
      + #""payload":{"id":"\#(id)","text":"hello \#(id)","author_id":"2244994945","edit_history_tweet_ids":["\#(id)"]}}}"#
  }
  static let follow =
    #"{"data":{"event_type":"follow.follow","event_uuid":"991","filter":{"user_id":"2244994945","direction":"inbound"},"#
    + #""payload":{"source":{"id":"12","name":"Jack","username":"jack"},"target":{"id":"2244994945","name":"Developers","username":"XDevelopers"}}}}"#
  static let bio =
    #"{"data":{"event_type":"profile.update.bio","event_uuid":"992","filter":{"user_id":"2244994945"},"payload":{"before":"a","after":"b"}}}"#

  @Test("waits by X's policy, reads post, follow and profile events across a drop; X's words are reported, not delivered")
  func reconnectsAndReads() async throws {
    let transport = FilteredStreamTests.ScriptedTransport([
      .refused, .status(503, #"{"title":"Service Unavailable"}"#),
      .lines([Self.post("20"), "", #"{"errors":[{"title":"operational-disconnect","detail":"X restarts"}]}"#], thenReset: true),
      .lines([Self.follow, Self.bio], thenReset: nil),
    ])
    let client = XClient(authentication: .bearer("app-token"), baseURL: URL(string: "https://api.example")!, transport: transport)
    let events = EventLog()
    var stream = client.v2.activityStream(backfillMinutes: 9, onEvent: { events.append($0) })
    stream.sleeper = FilteredStreamTests.ShortSleeper()
    var items: [XWebhookEvent] = []
    for try await item in stream {
      items.append(item)
      if items.count == 3 { break }
    }
    #expect(items.map(\.type) == ["post.create", "follow.follow", "profile.update.bio"])
    #expect(items.map(\.kind) == [.postCreated, .followed, .profile])
    #expect(items[1].users.map(\.username) == ["jack", "XDevelopers"], "a follow's accounts are its payload's source and target")
    #expect(items[0].tweets.map(\.text) == ["hello 20"] && items[0].forUserID == "2244994945")
    #expect(events.waits.map(\.seconds) == [0.25, 5], "\(events.waits)")
    #expect(events.count { if case .message(let text) = $0 { text.contains("operational-disconnect") } else { false } } == 1)
    #expect(transport.requests.allSatisfy { $0.url.path == "/2/activity/stream" && $0.headers["Authorization"] == "Bearer app-token" })
    #expect(transport.requests.first?.url.query == "backfill_minutes=5", "X takes 0 to 5 minutes of backfill")
  }

  @Test("a 4xx other than 429 ends the stream with an XError, once")
  func fatal() async throws {
    let transport = FilteredStreamTests.ScriptedTransport([.status(403, #"{"title":"Forbidden","detail":"not enrolled"}"#)])
    let client = XClient(authentication: .bearer("app-token"), baseURL: URL(string: "https://api.example")!, transport: transport)
    await #expect(throws: XError.self) {
      for try await _ in client.v2.activityStream() {}
    }
    #expect(transport.requests.count == 1)
  }

  @Test("prices: a post event as a post under its id, a follow and a received DM as their kinds under the event's id, the rest free")
  func prices() {
    let post = XWebhookDelivery(body: Data(Self.post("20").utf8)).events[0]
    #expect(XActivityEventPrice(post) == XActivityEventPrice(kind: .post, id: "20"))
    let follow = XWebhookDelivery(body: Data(Self.follow.utf8)).events[0]
    #expect(XActivityEventPrice(follow) == XActivityEventPrice(kind: .follow, id: "991"))
    let bio = XWebhookDelivery(body: Data(Self.bio.utf8)).events[0]
    #expect(XActivityEventPrice(bio).kind == nil)
    #expect(XActivityEventPrice.kind(of: "dm.received") == .dmEvent && XActivityEventPrice.kind(of: "dm.sent") == nil)
    #expect(XActivityEventPrice.kind(of: "post.repost.create") == .post && XActivityEventPrice.kind(of: "like.create") == nil)
  }
}
