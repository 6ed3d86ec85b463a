import Foundation
import Loopback
import NetworkClient

/// The filtered stream, `GET /2/tweets/search/stream`, written once for both ways the sandbox is
/// reached: over loopback HTTP (``SandboxServer``, a chunked body written over time) and in
/// process (``open(_:)``, for `tweets --sandbox stream`).
///
/// Like X (`x-api/posts/filtered-stream/quickstart.mdx`, `x-api/fundamentals/handling-disconnections.mdx`):
/// one JSON object per line (`data`, `includes`, `matching_rules`) ending in `\r\n`, a blank
/// `\r\n` line after 20 s without one, one connection at a time (a new one while one is held
/// gets 429 `TooManyConnections`; `DELETE /2/connections/all` ends the held one). The posts are the sandbox's data, oldest first, round and round,
/// each checked against the rules with the search matcher: one post of the data every half
/// second. When the sandbox bills, each post delivered is charged, and the stream ends with the
/// problem once credits are spent or the post cap is reached. ``XSandbox/init(clock:tweetsPerUser:controlAPI:requestLogLimit:oauth2Lifetime:rateWindow:streamTimeScale:streamRules:credits:postCap:)``'s
/// `streamTimeScale` shortens both intervals for tests.
///
/// The X Activity API's stream, `GET /2/activity/stream`, is served by the same machinery (its
/// connections kept apart, in ``SandboxState/activityStream``): one connection at a time, the
/// same keep-alives, its lines the events of subscriptions without a webhook
/// (``SandboxState/activityStreamStep(serial:now:)``).
///
/// ```swift
/// let response = try await XSandbox().open(HTTPRequest(method: .get, url: streamURL, headers: ["Authorization": "Bearer sandbox-bearer-token"]))
/// for try await chunk in response.body { print(String(decoding: chunk, as: UTF8.self)) }
/// ```
extension XSandbox: HTTPStreamingTransport {
  /// The stream's path.
  static let streamPath = "/2/tweets/search/stream"
  /// The X Activity API's stream (``SandboxState/activityStreamStep(serial:now:)``): served by
  /// the same machinery, one connection at a time, keep-alives alike.
  static let activityStreamPath = "/2/activity/stream"

  /// Which stream's state a path's connections are kept in.
  typealias StreamPart = WritableKeyPath<SandboxState, SandboxStreamState> & Sendable

  /// The state of the stream served at `path`; `nil` for a path that is no stream.
  static func streamPart(for path: String) -> StreamPart? {
    if path == streamPath { return \SandboxState.stream }
    if path == activityStreamPath { return \SandboxState.activityStream }
    return nil
  }
  /// X's keep-alive period, in seconds.
  static let keepAlive = 20.0
  /// How often the firehose takes the next post of the data, in seconds.
  static let firehoseTick = 0.5

  /// Answers `request` like ``send(_:)``, but hands over the body as it is written: the stream
  /// for `GET /2/tweets/search/stream`, any other answer in one piece. A scripted reset throws
  /// a transport failure, as a real connection would.
  package func open(_ request: HTTPRequest) async throws -> HTTPStreamingResponse {
    try Task.checkCancellation()
    let exchange = await self.exchange(request)
    guard exchange.delivery != .reset else {
      throw NetworkError.transport(TransportFailure(request: request, underlying: URLError(.networkConnectionLost)))
    }
    let (body, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
    let writer = InProcessWriter(continuation: continuation, request: request)
    continuation.onTermination = { _ in writer.close() }
    if let stream = exchange.response.stream {
      Thread.detachNewThread {
        stream(writer)
        writer.finish()
      }
    } else {
      _ = writer.write(exchange.response.body)
      if exchange.delivery == .whole { writer.finish() } else { writer.reset() }
    }
    return HTTPStreamingResponse(
      statusCode: exchange.response.status, headers: HTTPHeaders(exchange.response.headers), body: body, cancel: { writer.close() })
  }

  /// Records an attempt to connect to the stream kept in `part` (real time, for the connection log).
  func streamAttempt(_ part: StreamPart) -> Int {
    state.withLock { $0[keyPath: part].attempt(at: Date().timeIntervalSince1970) }
  }

  /// Records how attempt `serial` was answered, and gives a stream answer its producer.
  func streamAnswered(_ serial: Int, part: StreamPart, answer: inout (response: SandboxResponse, delivery: SandboxDelivery)) {
    var query = answer.delivery == .whole && answer.response.status == 200 ? answer.response.streamQuery : nil
    if query != nil && !connectionFree(part) {
      // X allows one connection per app: a second one while one is held is refused.
      answer.response = .v2(429, XBodies.tooManyConnections, headers: answer.response.headers)
      query = nil
    }
    let status = answer.delivery == .reset ? 0 : answer.response.status
    let served = state.withLock { $0[keyPath: part].answered(serial, status: status, streaming: query != nil, at: Date().timeIntervalSince1970) }
    guard served else {
      answer.response = .v2(429, XBodies.tooManyConnections, headers: answer.response.headers)
      return
    }
    guard let query else { return }
    answer.response.body = Data()
    let fields = Fields(query)
    let now = clock.secondsSince1970()
    if part == \SandboxState.activityStream {
      let backfill = Int64(query["backfill_minutes"].flatMap(Int.init) ?? 0) * 60
      let start = query["start_time"].flatMap(TweetWindow.utcSeconds), end = query["end_time"].flatMap(TweetWindow.utcSeconds)
      state.withLock { state in
        // From now on; from `start_time`; or (`backfill_minutes`, 0 to 5) from the first event
        // of the last minutes.
        let since = start ?? (backfill > 0 ? now - backfill : nil)
        let first = since.flatMap { since in state.activity.events.first(where: { $0.created >= since })?.serial }
        state.activity.cursors[serial] = .init(next: first ?? state.activity.nextEvent, start: start, end: end)
      }
    }
    answer.response.stream = { writer in self.serveStream(serial, part: part, fields: fields, writer: writer) }
  }

  /// Whether a new connection may be served: none is held, or the held one's client is gone.
  /// A client that hung up is found by writing keep-alive lines (`\r\n`, harmless to a client
  /// that is there) until a write fails; a stale connection has no client to ask and stays held
  /// until `DELETE /2/connections` ends it.
  func connectionFree(_ part: StreamPart) -> Bool {
    let held = state.withLock { state -> (serial: Int, writer: (any StreamingBodyWriter)?)? in
      guard let live = state[keyPath: part].live else { return nil }
      return (live, state[keyPath: part].writers[live])
    }
    guard let held else { return true }
    guard let writer = held.writer else { return false }
    // A peer that closed takes the first write into the socket's buffer and refuses the next.
    var gone = !writer.write(Data("\r\n".utf8))
    if !gone {
      Thread.sleep(forTimeInterval: 0.05)
      gone = !writer.write(Data("\r\n".utf8))
    }
    guard gone else { return false }
    state.withLock { $0[keyPath: part].closed(held.serial, reason: "client gone", at: Date().timeIntervalSince1970) }
    return true
  }

  /// Writes connection `serial`'s stream until it is terminated, a fault drops
  /// it, or the client is gone; on the thread that serves the connection.
  func serveStream(_ serial: Int, part: StreamPart, fields: Fields, writer: any StreamingBodyWriter) {
    let activity = part == \SandboxState.activityStream
    let tick = Self.firehoseTick * streamTimeScale
    let keepAlive = Self.keepAlive * streamTimeScale
    var lastWrite = Date()
    var reason = "client gone"
    state.withLock { $0[keyPath: part].writers[serial] = writer }
    serving: while true {
      let now = clock.secondsSince1970()
      let step = state.withLock { state in
        activity ? state.activityStreamStep(serial: serial, now: now) : state.streamStep(serial: serial, fields: fields, now: now)
      }
      switch step {
      case .superseded:
        reason = "terminated"
        break serving
      case .fault(.disconnect):
        reason = "disconnect (scripted)"
        // Logged before the reset: the client reconnects at once, and a new connection that
        // found this one still held would end it as "client gone" first (seen on a busy run).
        state.withLock { $0[keyPath: part].closed(serial, reason: reason, at: Date().timeIntervalSince1970) }
        writer.reset()
        break serving
      case .fault(.stall(let seconds)):
        // Silent, but no longer than the connection is the live one.
        let end = Date().addingTimeInterval(seconds)
        while Date() < end, state.withLock({ $0[keyPath: part].live == serial }) { Thread.sleep(forTimeInterval: 0.01) }
        continue serving
      case .line(let line):
        guard writer.write(line) else { break serving }
        lastWrite = Date()
      case .refused(let refusal):
        // X's pages do not say how a stream ends when credits run out: the sandbox writes the
        // problem as a line of the stream (`{"errors": [...]}`, as X writes its
        // `operational-disconnect`) and closes it; a reconnection is then refused with the
        // problem's status (402, or 429 `usage-capped`).
        reason = refusal == .creditsDepleted ? "credits depleted" : "usage capped"
        _ = writer.write(Data(#"{"errors":["#.utf8) + Data(refusal.body.utf8) + Data("]}\r\n".utf8))
        break serving
      case .idle:
        if Date().timeIntervalSince(lastWrite) >= keepAlive {
          guard writer.write(Data("\r\n".utf8)) else { break serving }
          lastWrite = Date()
        }
      }
      Thread.sleep(forTimeInterval: max(0.001, min(tick, lastWrite.addingTimeInterval(keepAlive).timeIntervalSinceNow)))
    }
    state.withLock { state in
      state[keyPath: part].closed(serial, reason: reason, at: Date().timeIntervalSince1970)
      if activity { state.activity.cursors[serial] = nil }
    }
  }

}

/// The in-process end of a stream: chunks go to the response's `AsyncThrowingStream`.
private final class InProcessWriter: StreamingBodyWriter, Sendable {
  private let continuation: AsyncThrowingStream<Data, any Error>.Continuation
  private let request: HTTPRequest
  /// Whether the stream ended; held while yielding, so that no chunk follows the end.
  private let closed = Locked(false)

  init(continuation: AsyncThrowingStream<Data, any Error>.Continuation, request: HTTPRequest) {
    self.continuation = continuation
    self.request = request
  }

  func write(_ data: Data) -> Bool {
    closed.withLock { closed in
      guard !closed else { return false }
      if !data.isEmpty { continuation.yield(data) }
      return true
    }
  }

  func reset() {
    end(throwing: NetworkError.transport(TransportFailure(request: request, underlying: URLError(.networkConnectionLost))))
  }

  func finish() { end(throwing: nil) }

  /// The client hung up: the producer's next write fails.
  func close() { end(throwing: NetworkError.cancelled) }

  private func end(throwing error: (any Error)?) {
    let first = closed.withLock { closed in
      defer { closed = true }
      return !closed
    }
    guard first else { return }
    if let error { continuation.finish(throwing: error) } else { continuation.finish() }
  }
}
