import Foundation
import NetworkClient
import TestSupport
import Testing
import XAPI

/// The reconnect policy as a value, and ``FilteredStream`` against a scripted transport: which
/// failure waits how long, what is delivered, what ends the stream.
@Suite("Filtered stream: reconnect policy and sequence")
struct FilteredStreamTests {
  @Test("X's policy: at once after a drop; 250 ms steps to 16 s; 5 s doubling to 320 s; 60 s doubling for 429")
  func xPolicy() {
    let policy = StreamReconnectPolicy.x
    #expect(policy.stallTimeout == 20)
    #expect(policy.delay(after: .dropped, consecutive: 3) == 0)
    #expect((1...4).map { policy.delay(after: .network, consecutive: $0) } == [0.25, 0.5, 0.75, 1.0])
    #expect(policy.delay(after: .network, consecutive: 64) == 16)
    #expect(policy.delay(after: .network, consecutive: 1000) == 16)
    #expect((1...7).map { policy.delay(after: .http(status: 503), consecutive: $0) } == [5, 10, 20, 40, 80, 160, 320])
    #expect(policy.delay(after: .http(status: 500), consecutive: 20) == 320)
    #expect((1...3).map { policy.delay(after: .rateLimited, consecutive: $0) } == [60, 120, 240])
    #expect(policy.delay(after: .rateLimited, consecutive: 200) == policy.rateLimitMax)
  }

  @Test("scaled(by:) multiplies every duration and nothing else")
  func scaled() {
    var policy = StreamReconnectPolicy.x
    policy.maxConsecutiveFailures = 7
    let fast = policy.scaled(by: 0.01)
    #expect(abs(fast.stallTimeout - 0.2) < 1e-9)
    #expect(abs(fast.delay(after: .rateLimited, consecutive: 1) - 0.6) < 1e-9)
    #expect(abs(fast.delay(after: .network, consecutive: 2) - 0.005) < 1e-9)
    #expect(fast.maxConsecutiveFailures == 7)
    #expect(fast.stallGrace == policy.stallGrace)
  }

  /// Answers each `open` with the next scripted outcome.
  final class ScriptedTransport: HTTPTransport, HTTPStreamingTransport, @unchecked Sendable {
    enum Answer {
      case refused
      case status(Int, String)
      /// Lines, then a reset (`true`), the end (`false`), or nothing more until cancelled (`nil`).
      case lines([String], thenReset: Bool?)
    }
    private let lock = NSLock()
    private var answers: [Answer]
    private(set) var requests: [HTTPRequest] = []

    init(_ answers: [Answer]) { self.answers = answers }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
      throw NetworkError.invalidRequest(reason: "the stream only opens")
    }

    func open(_ request: HTTPRequest) async throws -> HTTPStreamingResponse {
      let answer = lock.withLock { () -> Answer? in
        requests.append(request)
        return answers.isEmpty ? nil : answers.removeFirst()
      }
      let (body, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
      switch answer {
      case nil, .refused:
        throw NetworkError.transport(TransportFailure(request: request, underlying: URLError(.cannotConnectToHost)))
      case .status(let status, let text):
        continuation.yield(Data(text.utf8))
        continuation.finish()
        return HTTPStreamingResponse(statusCode: status, headers: [:], body: body, cancel: {})
      case .lines(let lines, let thenReset):
        // Split across chunks on purpose: a line may arrive in pieces.
        let all = Data(lines.map { $0 + "\r\n" }.joined().utf8)
        continuation.yield(all.prefix(all.count / 2))
        continuation.yield(all.dropFirst(all.count / 2))
        switch thenReset {
        case true?: continuation.finish(throwing: URLError(.networkConnectionLost))
        case false?: continuation.finish()
        case nil: break
        }
        return HTTPStreamingResponse(statusCode: 200, headers: [:], body: body, cancel: { continuation.finish() })
      }
    }
  }

  /// Records each wait asked for and sleeps a thousandth of it.
  final class ShortSleeper: Sleeper, @unchecked Sendable {
    private let lock = NSLock()
    private var asked: [TimeInterval] = []
    var waits: [TimeInterval] { lock.withLock { asked } }
    func sleep(seconds: TimeInterval) async throws {
      lock.withLock { asked.append(seconds) }
      try await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000))
    }
  }

  static let post =
    #"{"data":{"id":"20","text":"hello","author_id":"12","edit_history_tweet_ids":["20"]},"includes":{"users":[{"id":"12","name":"Jack","username":"jack"}]},"matching_rules":[{"id":"1930000000000000001","tag":"greetings"}]}"#

  @Test("waits by X's policy per failure, delivers decoded posts with includes, rules and the raw line")
  func reconnects() async throws {
    let transport = ScriptedTransport([
      .refused, .refused, .status(503, #"{"title":"Service Unavailable"}"#),
      .status(429, #"{"title":"ConnectionException","connection_issue":"TooManyConnections"}"#),
      .lines([Self.post, ""], thenReset: true), .lines(["", Self.post], thenReset: nil),
    ])
    let client = XClient(authentication: .bearer("app-token"), baseURL: URL(string: "https://api.example")!, transport: transport)
    let events = EventLog()
    var stream = client.v2.filteredStream(onEvent: { events.append($0) })
    let sleeper = ShortSleeper()
    stream.sleeper = sleeper
    var items: [StreamedTweet] = []
    for try await item in stream {
      items.append(item)
      if items.count == 2 { break }
    }
    #expect(items.map(\.tweet.id) == ["20", "20"])
    #expect(items[0].tweet.author?.username == "jack")
    #expect(items[0].includes.users.map(\.username) == ["jack"])
    #expect(items[0].matchingRules == [MatchingRule(id: "1930000000000000001", tag: "greetings")])
    #expect(String(decoding: items[0].line, as: UTF8.self) == Self.post)
    let waits = events.waits
    #expect(waits.map(\.seconds) == [0.25, 0.5, 5, 60], "\(waits)")
    #expect(waits.last?.reason.contains("TooManyConnections") == true)
    #expect(events.count { if case .dropped = $0 { return true } else { return false } } == 1)
    #expect(transport.requests.allSatisfy { $0.headers["Authorization"] == "Bearer app-token" })
    #expect(transport.requests.first?.url.path == "/2/tweets/search/stream")
  }

  @Test("a 4xx other than 429 (a refused token, no rules) ends the stream with an XError")
  func fatal() async throws {
    let transport = ScriptedTransport([.status(401, #"{"title":"Unauthorized","type":"about:blank","status":401,"detail":"Unauthorized"}"#)])
    let client = XClient(authentication: .bearer("bad"), baseURL: URL(string: "https://api.example")!, transport: transport)
    await #expect(throws: XError.self) {
      for try await _ in client.v2.filteredStream() {}
    }
    #expect(transport.requests.count == 1)
  }

  @Test("X's monthly cap (429 usage-capped) and empty credits (402) end the stream: no reconnect lifts them")
  func billingRefusalsAreFinal() async throws {
    let capped =
      #"{"title":"UsageCapExceeded","detail":"Usage cap exceeded: Monthly product cap","type":"https://api.twitter.com/2/problems/usage-capped"}"#
    let credits = #"{"title":"CreditsDepleted","detail":"No credits","type":"https://api.twitter.com/2/problems/credits"}"#
    for (status, body) in [(429, capped), (402, credits)] {
      let transport = ScriptedTransport([.status(status, body)])
      let client = XClient(authentication: .bearer("app-token"), baseURL: URL(string: "https://api.example")!, transport: transport)
      await #expect {
        for try await _ in client.v2.filteredStream() {}
      } throws: { error in
        guard case .creditsDepleted = error as? XError else { return false }
        return true
      }
      #expect(transport.requests.count == 1, "HTTP \(status) is sent once")
    }
  }

  @Test("a user-context client is refused before any request: X serves the stream app-only")
  func appOnly() async throws {
    let transport = ScriptedTransport([])
    let client = XClient(
      authentication: .oauth1(consumer: .init(key: "k", secret: "s"), token: nil), baseURL: URL(string: "https://api.example")!,
      transport: transport)
    await #expect(throws: XError.self) {
      for try await _ in client.v2.filteredStream() {}
    }
    #expect(transport.requests.isEmpty)
  }

  @Test("maxConsecutiveFailures gives up after that many failed attempts in a row")
  func givesUp() async throws {
    let transport = ScriptedTransport([])
    let client = XClient(authentication: .bearer("t"), baseURL: URL(string: "https://api.example")!, transport: transport)
    var policy = StreamReconnectPolicy.x
    policy.maxConsecutiveFailures = 3
    var stream = client.v2.filteredStream(policy: policy)
    stream.sleeper = ShortSleeper()
    await #expect(throws: XError.self) {
      for try await _ in stream {}
    }
    #expect(transport.requests.count == 4)
  }
}

/// The events a stream reported, in order.
final class EventLog: @unchecked Sendable {
  private let lock = NSLock()
  private var events: [FilteredStreamEvent] = []

  func append(_ event: FilteredStreamEvent) { lock.withLock { events.append(event) } }

  var waits: [(seconds: TimeInterval, reason: String)] {
    lock.withLock {
      events.compactMap { event in
        if case .waiting(let seconds, _, _, let reason) = event { return (seconds, reason) }
        return nil
      }
    }
  }

  func count(where test: (FilteredStreamEvent) -> Bool) -> Int { lock.withLock { events.filter(test).count } }
}

/// The filtered stream against a real server on loopback that sends posts as fast as they are
/// taken (Tests/Peers/loopback_server.py): a consumer slower than the stream holds the server
/// back through every layer (StreamPacer, StreamBuffer, curl's pause, TCP), instead of the posts
/// piling up in memory (they did, at 10 MB a second, before the pacer).
@Suite("The filtered stream's backpressure", .tags(.peers), .tier(.peers))
struct FilteredStreamBackpressureTests {
  @Test("a slow consumer holds the server back: it writes no more than what was taken plus the buffers")
  func slowConsumer() async throws {
    let server = try await LoopbackServer.start(script: "loopback_server.py", lifetime: 300)
    defer { server.stop() }
    let client = XClient(authentication: .bearer("token"), baseURL: server.baseURL, transport: CurlTransport(), retry: nil)
    // 200 posts taken 20 ms apart (4 s at least): however busy the machine, the server had
    // that long to run ahead.
    var taken = 0
    for try await _ in client.v2.filteredStream() {
      taken += 1
      try await Task.sleep(for: .milliseconds(20))
      if taken == 200 { break }
    }
    let answer = try await NetworkClient(baseURL: server.baseURL, transport: CurlTransport())
      .send(Request<[String: Int]>(method: .get, path: "/written", query: [("id", "posts")]))
    let written = try #require(answer["written"])
    let postBytes = 349
    print("[backpressure] filtered stream: \(taken) posts taken, 20 ms apart (\(taken * postBytes) bytes); the server could write \(written)")
    // Unbounded, the server writes as fast as loopback takes it (hundreds of MB in 4 s); held
    // back, what was taken, the pacer's 64 posts, the transport's 1 MiB and the kernel's buffers.
    #expect(written - taken * postBytes < 16 << 20, "the server wrote \(written) bytes for \(taken) posts taken")
  }

  @Test("a line that never ends is dropped at FilteredStream.maxLineBytes (1 MiB), not held whole")
  func endlessLine() async throws {
    let server = try await LoopbackServer.start(script: "loopback_server.py", lifetime: 300)
    defer { server.stop() }
    let base = server.baseURL.appendingPathComponent("noline")
    let client = XClient(authentication: .bearer("token"), baseURL: base, transport: CurlTransport(), retry: nil)
    let drops = Locked<[String]>([])
    let reader = Task {
      for try await _ in client.v2.filteredStream(onEvent: { event in
        if case .dropped(let reason) = event { drops.withLock { $0.append(reason) } }
      }) {}
    }
    let clock = ContinuousClock()
    let started = clock.now
    while drops.withLock({ $0.isEmpty }) && clock.now - started < .seconds(TestTiming.seconds(240)) { try await Task.sleep(for: .milliseconds(20)) }
    reader.cancel()
    let first = try #require(drops.withLock { $0.first })
    #expect(first == "a line longer than \(FilteredStream.maxLineBytes) bytes (FilteredStream.maxLineBytes)")
  }
}
