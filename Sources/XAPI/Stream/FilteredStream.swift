import Foundation
import NetworkClient

/// What happens to a filtered stream's connection, for a program to report: the stream itself
/// only delivers posts.
///
/// ```swift
/// app.v2.filteredStream { event in
///   if case .waiting(let seconds, let failure, _, let reason) = event { print("\(failure): \(reason); waiting \(seconds) s") }
/// }
/// ```
public enum FilteredStreamEvent: Sendable {
  /// Connection attempt `attempt` (1 for the first) was answered 200: posts follow.
  case connected(attempt: Int)
  /// An established connection ended (closed, reset, or silent too long): the stream
  /// reconnects at once.
  case dropped(reason: String)
  /// A connection attempt failed (`consecutive` failures of this kind in a row): the stream
  /// waits `seconds` before the next, as its ``StreamReconnectPolicy`` says.
  case waiting(seconds: TimeInterval, failure: StreamReconnectPolicy.Failure, consecutive: Int, reason: String)
  /// A blank keep-alive line arrived.
  case keepAlive
  /// A line held X's words instead of a post (such as `operational-disconnect` before X closes
  /// the stream), or could not be read.
  case message(String)
}

/// The filtered stream (`GET /2/tweets/search/stream`) as an `AsyncSequence` of posts that
/// reconnects by itself, by a ``StreamReconnectPolicy`` (X's by default), for as long as it is
/// iterated. It throws an ``XError`` only for what reconnecting cannot mend (a refused token,
/// no rules: HTTP 4xx other than 429) or after ``StreamReconnectPolicy/maxConsecutiveFailures``.
/// Stop by leaving the loop or cancelling the task.
///
/// X serves it app-only: the client must use ``XAuthentication/bearer(_:)`` (the token goes in
/// the `Authorization` header and nowhere else), and its transport must be an
/// `HTTPStreamingTransport` (`URLSessionTransport` is).
///
/// ```swift
/// let app = XClient(authentication: .bearer(token))
/// for try await item in app.v2.filteredStream(onEvent: { print($0) }) {
///   print(item.tweet.author?.username ?? "?", item.tweet.text)
/// }
/// ```
public struct FilteredStream: AsyncSequence, Sendable {
  public typealias Element = StreamedTweet

  let client: XClient
  let query: [QueryItem]
  /// When to give up on a silent connection and how long to wait before the next attempt.
  public var policy: StreamReconnectPolicy
  /// How the stream waits (between attempts, and for silence): `TaskSleeper` unless a test
  /// passes its own.
  public var sleeper: any Sleeper
  /// A monotonic clock in seconds, for silence.
  public var clock: @Sendable () -> TimeInterval
  /// Told of each connection, drop, wait and keep-alive.
  public var onEvent: @Sendable (FilteredStreamEvent) -> Void

  /// The longest line (one post with its expansions, or X's words) read before the connection is
  /// dropped as broken: 1 MiB, far above any post X sends, so that a server that never sends a
  /// newline cannot grow memory without bound.
  public static let maxLineBytes = 1 << 20

  public func makeAsyncIterator() -> Iterator {
    let (items, continuation) = AsyncThrowingStream<StreamedTweet, any Error>.makeStream()
    let pacer = StreamPacer()
    let driver = Task { await drive(continuation, pacer: pacer) }
    continuation.onTermination = { _ in
      pacer.cancel()
      driver.cancel()
    }
    return Iterator(items: items.makeAsyncIterator(), pacer: pacer)
  }

  /// Delivers the posts the connections bring, in order, and no faster than they are taken.
  public struct Iterator: AsyncIteratorProtocol {
    var items: AsyncThrowingStream<StreamedTweet, any Error>.AsyncIterator
    let pacer: StreamPacer

    /// The next post: waits through reconnects; throws an ``XError`` when the stream cannot go on.
    public mutating func next() async throws -> StreamedTweet? {
      let item = try await items.next()
      if item != nil { pacer.taken() }
      return item
    }
  }

  /// How one connection ended.
  enum Outcome {
    case cancelled
    case fatal(XError)
    case failed(StreamReconnectPolicy.Failure, reason: String)
  }

  func drive(_ out: AsyncThrowingStream<StreamedTweet, any Error>.Continuation, pacer: StreamPacer = StreamPacer()) async {
    guard case .bearer(let token) = client.authentication else {
      return out.finish(
        throwing: XError.unauthorized(message: "X serves the filtered stream app-only: use XAuthentication.bearer with the app's bearer token"))
    }
    guard let transport = client.streamingTransport else {
      return out.finish(
        throwing: XError.network(.invalidRequest(reason: "the client's transport cannot stream (it is not an HTTPStreamingTransport)")))
    }
    var inARow: [String: Int] = [:]
    var failures = 0
    var attempt = 0
    while !Task.isCancelled {
      attempt += 1
      switch await connect(attempt: attempt, token: token, transport: transport, out: out, pacer: pacer, established: { inARow = [:] }) {
      case .cancelled:
        return out.finish()
      case .fatal(let error):
        return out.finish(throwing: error)
      case .failed(.dropped, let reason):
        failures = 0
        inARow = [:]
        onEvent(.dropped(reason: reason))
      case .failed(let failure, let reason):
        failures += 1
        if let most = policy.maxConsecutiveFailures, failures > most {
          return out.finish(
            throwing: XError.network(.invalidRequest(reason: "the filtered stream failed \(failures) times in a row; the last: \(reason)")))
        }
        let kind = Self.kind(failure)
        inARow[kind, default: 0] += 1
        let seconds = policy.delay(after: failure, consecutive: inARow[kind]!)
        onEvent(.waiting(seconds: seconds, failure: failure, consecutive: inARow[kind]!, reason: reason))
        do { try await sleeper.sleep(seconds: seconds) } catch { return out.finish() }
      }
    }
    out.finish()
  }

  static func kind(_ failure: StreamReconnectPolicy.Failure) -> String {
    switch failure {
    case .dropped: "dropped"
    case .network: "network"
    case .http: "http"
    case .rateLimited: "rate"
    }
  }

  /// One connection: open it, read its lines until it ends, and say how it ended.
  func connect(
    attempt: Int, token: String, transport: any HTTPStreamingTransport, out: AsyncThrowingStream<StreamedTweet, any Error>.Continuation,
    pacer: StreamPacer,
    established: () -> Void
  ) async -> Outcome {
    var components = URLComponents(url: client.baseURL.appendingPathComponent(XEndpoint.streamPosts.filled()), resolvingAgainstBaseURL: false)
    if !query.isEmpty { components?.queryItems = query.map { URLQueryItem(name: $0.name, value: $0.value) } }
    guard let url = components?.url else { return .fatal(.network(.invalidRequest(reason: "cannot make the stream's URL from \(client.baseURL)"))) }
    let request = HTTPRequest(
      method: .get, url: url, headers: ["Authorization": "Bearer \(token)", "User-Agent": "XAPI-swift filtered-stream"],
      // A backstop for an answer that never comes; once it has, the watchdog below decides.
      timeout: Swift.max(1, policy.silenceLimit) * 2 + 1)
    let response: HTTPStreamingResponse
    do {
      response = try await transport.open(request)
    } catch {
      if Task.isCancelled || error is CancellationError { return .cancelled }
      if case NetworkError.cancelled = error { return .cancelled }
      // A request that cannot be sent (a bearer token with a line break) fails the same way again.
      if let invalid = error as? NetworkError, case .invalidRequest = invalid { return .fatal(XError(invalid)) }
      return .failed(.network, reason: Self.words(error))
    }
    guard response.statusCode == 200 else {
      let body = (try? await response.collect(limit: 65_536)) ?? Data()
      let answer = HTTPResponse(statusCode: response.statusCode, headers: response.headers, body: body, request: request)
      let error = XError(NetworkError.httpStatus(HTTPStatusFailure(response: answer)))
      let words = Self.words(body: body, status: response.statusCode)
      // X's billing refusals (the monthly cap's 429, a 402) are final: reconnecting lifts neither.
      if XError.isBillingRefusal(HTTPStatusFailure(response: answer)) { return .fatal(error) }
      switch response.statusCode {
      case 429: return .failed(.rateLimited, reason: words)
      case 500...599, 420: return .failed(.http(status: response.statusCode), reason: words)
      default: return .fatal(error)
      }
    }
    onEvent(.connected(attempt: attempt))
    return await read(response, out: out, pacer: pacer, established: established)
  }

  /// Reads the lines of an open connection, closing it after too long a silence.
  func read(
    _ response: HTTPStreamingResponse, out: AsyncThrowingStream<StreamedTweet, any Error>.Continuation, pacer: StreamPacer = StreamPacer(),
    established: () -> Void
  ) async -> Outcome {
    let lastActivity = Locked(clock())
    let stalled = Locked(false)
    let (policy, sleeper, clock) = (self.policy, self.sleeper, self.clock)
    let watchdog = Task {
      while !Task.isCancelled {
        // Waiting for the consumer is not the server's silence.
        if pacer.isWaiting { lastActivity.withLock { $0 = clock() } }
        let wait = lastActivity.withLock { $0 } + policy.silenceLimit - clock()
        if wait <= 0 {
          stalled.withLock { $0 = true }
          response.cancel()
          return
        }
        do { try await sleeper.sleep(seconds: wait) } catch { return }
      }
    }
    defer { watchdog.cancel() }
    var buffer = Data()
    var received = false
    var tooLong = false
    do {
      try await withTaskCancellationHandler {
        for try await chunk in response.body {
          lastActivity.withLock { $0 = clock() }
          if !received {
            received = true
            established()
          }
          buffer.append(chunk)
          var start = buffer.startIndex
          while let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
            var line = buffer[start..<newline]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            start = buffer.index(after: newline)
            await deliver(Data(line), to: out, pacer: pacer)
            lastActivity.withLock { $0 = clock() }
          }
          buffer.removeSubrange(buffer.startIndex..<start)
          if buffer.count > Self.maxLineBytes {
            tooLong = true
            response.cancel()
            break
          }
        }
      } onCancel: {
        response.cancel()
      }
    } catch {
      if Task.isCancelled { return .cancelled }
      if stalled.withLock({ $0 }) {
        return .failed(.dropped, reason: String(format: "no post or keep-alive for %.1f s", policy.silenceLimit))
      }
      return .failed(received ? .dropped : .network, reason: Self.words(error))
    }
    if Task.isCancelled { return .cancelled }
    if tooLong { return .failed(.dropped, reason: "a line longer than \(Self.maxLineBytes) bytes (FilteredStream.maxLineBytes)") }
    return .failed(received ? .dropped : .network, reason: "the server closed the stream")
  }

  func deliver(_ line: Data, to out: AsyncThrowingStream<StreamedTweet, any Error>.Continuation, pacer: StreamPacer) async {
    guard line.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) else { return onEvent(.keepAlive) }
    switch StreamLine(line) {
    case .tweet(let item):
      out.yield(item)
      await pacer.handedOver()
    case .problems(let problems): onEvent(.message(problems.map(\.description).joined(separator: "; ")))
    case .unreadable(let excerpt): onEvent(.message("an unreadable line: \(excerpt)"))
    }
  }

  /// A transport failure in a few words (no URL, so no token ever; the URL holds none anyway).
  static func words(_ error: any Error) -> String {
    if case NetworkError.transport(let failure) = error, let underlying = failure.underlying as? URLError {
      return "connection failed (\(underlying.code.rawValue): \(underlying.localizedDescription))"
    }
    if let error = error as? URLError { return "connection failed (\(error.code.rawValue): \(error.localizedDescription))" }
    return Redaction.text("\(error)")
  }

  /// X's words in an error answer: `title: detail (connection_issue)`, or the start of the body.
  static func words(body: Data, status: Int) -> String {
    if let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] {
      let problem = (object["errors"] as? [[String: Any]])?.first ?? object
      let parts = [problem["title"], problem["detail"], problem["connection_issue"]].compactMap { $0 as? String }
      if !parts.isEmpty { return "HTTP \(status): " + parts.joined(separator: ": ") }
    }
    let text = String(decoding: body.prefix(200), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    return "HTTP \(status)" + (text.isEmpty ? "" : ": \(text)")
  }
}

extension XClient.V2 {
  /// The filtered stream: the posts that match the app's rules, as they are posted, with the
  /// fields and expansions of `options` (X's defaults: id, text, edit history). App-only; see
  /// ``FilteredStream``.
  ///
  /// ```swift
  /// var stream = app.v2.filteredStream(onEvent: { event in log(event) })
  /// stream.policy = StreamReconnectPolicy.x.scaled(by: 0.01)  // in a test
  /// for try await item in stream { print(item.tweet.text) }
  /// ```
  public func filteredStream(
    options: TimelineOptions = .init(), policy: StreamReconnectPolicy = .x, onEvent: @escaping @Sendable (FilteredStreamEvent) -> Void = { _ in }
  ) -> FilteredStream {
    FilteredStream(
      client: client, query: options.fieldItems.map { QueryItem($0.0, $0.1) }, policy: policy, sleeper: TaskSleeper(),
      clock: { ProcessInfo.processInfo.systemUptime }, onEvent: onEvent)
  }
}
