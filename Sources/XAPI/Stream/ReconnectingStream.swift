import Foundation
import NetworkClient

/// The connection behind ``FilteredStream`` and ``ActivityStream``: one app-only `GET` of a
/// streaming endpoint whose lines are read as they come, reconnected by a
/// ``StreamReconnectPolicy`` (X's rules for its streams: at once after a drop, backing off after
/// failures, a connection given up after its silence), until a failure reconnecting cannot
/// mend. Each stream says how a line becomes an element or X's words.
struct ReconnectingStream<Element: Sendable>: Sendable {
  /// What one line is: an element, or words for ``FilteredStreamEvent/message(_:)``.
  enum Decoded {
    case item(Element)
    case message(String)
  }

  let client: XClient
  let endpoint: XEndpoint
  let query: [QueryItem]
  /// The stream's name in errors: "the filtered stream".
  let name: String
  let userAgent: String
  let maxLineBytes: Int
  /// Where ``maxLineBytes`` is said: "FilteredStream.maxLineBytes".
  let maxLineBytesName: String
  let policy: StreamReconnectPolicy
  let sleeper: any Sleeper
  let clock: @Sendable () -> TimeInterval
  let onEvent: @Sendable (FilteredStreamEvent) -> Void
  let decode: @Sendable (Data) -> Decoded

  /// How one connection ended.
  enum Outcome {
    case cancelled
    case fatal(XError)
    case failed(StreamReconnectPolicy.Failure, reason: String)
  }

  func drive(_ out: AsyncThrowingStream<Element, any Error>.Continuation, pacer: StreamPacer = StreamPacer()) async {
    guard case .bearer(let token) = client.authentication else {
      return out.finish(
        throwing: XError.unauthorized(message: "X serves \(name) app-only: use XAuthentication.bearer with the app's bearer token"))
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
            throwing: XError.network(.invalidRequest(reason: "\(name) failed \(failures) times in a row; the last: \(reason)")))
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
    attempt: Int, token: String, transport: any HTTPStreamingTransport, out: AsyncThrowingStream<Element, any Error>.Continuation,
    pacer: StreamPacer,
    established: () -> Void
  ) async -> Outcome {
    var components = URLComponents(url: client.baseURL.appendingPathComponent(endpoint.filled()), resolvingAgainstBaseURL: false)
    if !query.isEmpty { components?.queryItems = query.map { URLQueryItem(name: $0.name, value: $0.value) } }
    guard let url = components?.url else { return .fatal(.network(.invalidRequest(reason: "cannot make the stream's URL from \(client.baseURL)"))) }
    let request = HTTPRequest(
      method: .get, url: url, headers: ["Authorization": "Bearer \(token)", "User-Agent": userAgent],
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
    _ response: HTTPStreamingResponse, out: AsyncThrowingStream<Element, any Error>.Continuation, pacer: StreamPacer = StreamPacer(),
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
          if buffer.count > maxLineBytes {
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
    if tooLong { return .failed(.dropped, reason: "a line longer than \(maxLineBytes) bytes (\(maxLineBytesName))") }
    return .failed(received ? .dropped : .network, reason: "the server closed the stream")
  }

  func deliver(_ line: Data, to out: AsyncThrowingStream<Element, any Error>.Continuation, pacer: StreamPacer) async {
    guard line.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) else { return onEvent(.keepAlive) }
    switch decode(line) {
    case .item(let item):
      out.yield(item)
      await pacer.handedOver()
    case .message(let words): onEvent(.message(words))
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
