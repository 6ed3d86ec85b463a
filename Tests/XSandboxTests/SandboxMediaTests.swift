import Foundation
import NetworkClient
import NetworkClientTesting
import OAuth1
import OAuth2
import Testing
import XAPI
import XSandbox

/// `XClient.v2.uploadMedia` against the sandbox's v2 media endpoints, in process: segments that
/// add up byte for byte, one segment re-sent alone after a 503, processing polled as X says,
/// failures named, files refused before any byte is sent, and posts with media, replies,
/// quotes and deletes.
@Suite("Media upload against the sandbox")
struct SandboxMediaTests {
  static func file(_ name: String, bytes: Int) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("media-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let url = folder.appendingPathComponent(name)
    var generator = SystemRandomNumberGenerator()
    try Data((0..<bytes).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: url)
    return url
  }

  static func control(_ sandbox: XSandbox, _ name: String, query: String = "", json: [String: Any]? = nil) async throws -> [String: Any] {
    var request = HTTPRequest(method: json == nil ? .get : .post, url: URL(string: "https://api.x.com/_control/\(name)\(query)")!)
    if let json {
      request.body = try JSONSerialization.data(withJSONObject: json)
      request.headers["Content-Type"] = "application/json"
    }
    return try JSONSerialization.jsonObject(with: try await sandbox.send(request).body) as? [String: Any] ?? [:]
  }

  static func digest(_ url: URL) throws -> String {
    try OAuthBodyHash.compute(body: Array(try Data(contentsOf: url)), algorithm: .sha256)
  }

  @Test func anImageWithAltTextInAPost() async throws {
    let sandbox = XSandbox(controlAPI: true)
    let client = sandbox.client()
    let image = try Self.file("fish.jpg", bytes: 300_000)
    let media = try await client.v2.uploadMedia(image, altText: "Fish and chips")
    #expect(media.kind.category == "tweet_image" && media.mediaKey == "3_\(media.id)")
    let received = try await Self.control(sandbox, "media", query: "?id=\(media.id)")
    let expected = try Self.digest(image)
    #expect(received["bytes"] as? Int == 300_000 && received["sha256_base64"] as? String == expected)
    #expect(received["segments"] as? Int == 1 && received["alt_text"] as? String == "Fish and chips")
    let posted = try await client.v2.post(text: "Lunch 🐟", mediaIDs: [media.id])
    let shown = try await client.v2.tweet(id: posted.id)
    #expect(shown.media?.first?.altText == "Fish and chips")
  }

  @Test func aVideoInSegmentsOneResentAloneAfterA503ThenPendingForThreePolls() async throws {
    let sandbox = XSandbox(controlAPI: true)
    _ = try await Self.control(sandbox, "media", json: ["pending_polls": 3])
    _ = try await Self.control(
      sandbox, "script", json: ["path_prefix": "/2/media/upload/1880000000000000001/append", "responses": [["status": 503]]])
    let sleeper = RecordingSleeper()
    let client = XClient(
      authentication: .oauth1(consumer: XSandbox.demoConsumer, token: XSandbox.demoAccessToken), transport: sandbox,
      retry: RetryBehavior(maxAttempts: 3, baseDelay: 0.01, sleeper: sleeper))
    let video = try Self.file("clip.mp4", bytes: 10_000_000)
    let seen = Locked<[MediaUploadProgress]>([])
    let media = try await client.v2.uploadMedia(video, sleeper: sleeper) { progress in seen.withLock { $0.append(progress) } }
    #expect(media.id == "1880000000000000001" && media.kind.category == "tweet_video")
    let received = try await Self.control(sandbox, "media", query: "?id=\(media.id)")
    let expected = try Self.digest(video)
    #expect(received["segments"] as? Int == 3 && received["sha256_base64"] as? String == expected, "\(received)")
    let requests = try await Self.control(sandbox, "stats")["requests"] as? [[String: Any]] ?? []
    let appends = requests.filter { ($0["path"] as? String)?.hasSuffix("/append") == true }.map { $0["status"] as? Int }
    #expect(appends == [503, 200, 200, 200], "the failed segment alone was sent again")
    let statuses = requests.filter { $0["path"] as? String == "/2/media/upload" }
    #expect(statuses.count == 3, "three status polls")
    let progress = seen.withLock { $0 }
    #expect(progress.filter { $0.processing == nil }.map(\.bytesSent) == [4_194_304, 8_388_608, 10_000_000])
    #expect(progress.compactMap { $0.processing?.state }.first == "pending")
  }

  @Test func aFailedProcessingIsNamed() async throws {
    let sandbox = XSandbox(controlAPI: true)
    _ = try await Self.control(sandbox, "media", json: ["fail_processing": true])
    let gif = try Self.file("party.gif", bytes: 100_000)
    await #expect {
      _ = try await sandbox.client().v2.uploadMedia(gif, sleeper: RecordingSleeper())
    } throws: { error in
      guard case .mediaProcessingFailed(let message) = error as? XError else { return false }
      return message.contains("party.gif") && message.contains("InvalidMedia") && message.contains("Unsupported video format")
    }
  }

  @Test func filesXWouldNotTakeAreRefusedBeforeAnyByteIsSent() async throws {
    let sandbox = XSandbox(controlAPI: true)
    let client = sandbox.client()
    let text = try Self.file("notes.txt", bytes: 10)
    await #expect(throws: XError.self) { _ = try await client.v2.uploadMedia(text) }
    let big = try Self.file("huge.png", bytes: 5_000_001)
    do {
      _ = try await client.v2.uploadMedia(big)
      Issue.record("a 5,000,001-byte image was uploaded")
    } catch {
      #expect("\(error)".contains("huge.png is 5.0 MB; X takes images up to 5.0 MB"), "\(error)")
    }
    let requests = try await Self.control(sandbox, "stats")["requests"] as? [[String: Any]] ?? []
    #expect(requests.isEmpty)
  }

  @Test func withOAuth2UserContextToo() async throws {
    let sandbox = XSandbox()
    let endpoint = TokenEndpoint(client: .x(clientID: "sandbox-client-id", apiBaseURL: URL(string: "https://api.x.com")!), transport: sandbox)
    let token = try await endpoint.exchangeOAuth1(
      token: XSandbox.demoAccessToken.key, secret: XSandbox.demoAccessToken.secret,
      scopes: ["tweet.read", "tweet.write", "users.read", "media.write", "offline.access"])
    let client = XClient(authentication: .oauth2(store: InMemoryBearerTokenStore(token), refresher: endpoint), transport: sandbox, retry: nil)
    let media = try await client.v2.uploadMedia(try Self.file("cat.png", bytes: 50_000), altText: "A cat")
    let posted = try await client.v2.post(text: "Posted with OAuth 2.0", mediaIDs: [media.id])
    #expect(try await client.v2.tweet(id: posted.id).media?.first?.altText == "A cat")
  }

  @Test func repliesQuotesAndDeletes() async throws {
    let sandbox = XSandbox()
    let client = sandbox.client()
    let first = try await client.v2.post(text: "A thread, 1/2")
    let reply = try await client.v2.post(text: "A thread, 2/2", inReplyTo: first.id)
    let quote = try await client.v2.post(text: "Quoting myself", quoting: first.id)
    let shownReply = try await client.v2.tweet(id: reply.id)
    #expect((shownReply.referencedTweets ?? []).contains { $0.kind == .repliedTo && $0.id == first.id })
    let shownQuote = try await client.v2.tweet(id: quote.id)
    #expect((shownQuote.referencedTweets ?? []).contains { $0.kind == .quoted && $0.id == first.id })
    #expect(try await client.v2.deleteTweet(id: quote.id))
    await #expect(throws: XError.self) { _ = try await client.v2.tweet(id: quote.id) }
  }
}
