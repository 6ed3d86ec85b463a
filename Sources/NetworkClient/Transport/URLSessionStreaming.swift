import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension URLSessionTransport: HTTPStreamingTransport {
  /// Opens `request` on a session of its own whose delegate passes each chunk on as it arrives
  /// (`URLSession.bytes(for:)` is missing from FoundationNetworking), with no redirect followed
  /// and no idle timeout shorter than `request`'s (a stream's reader watches for silence itself).
  ///
  /// ```swift
  /// let response = try await URLSessionTransport().open(request)
  /// ```
  public func open(_ request: HTTPRequest) async throws -> HTTPStreamingResponse {
    try Task.checkCancellation()
    if let reason = request.headers.invalidFieldReason { throw NetworkError.invalidRequest(reason: reason) }
    let configuration = URLSessionConfiguration.ephemeral
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.httpCookieStorage = nil
    configuration.httpShouldSetCookies = false
    configuration.timeoutIntervalForRequest = request.timeout ?? 3600
    configuration.timeoutIntervalForResource = .greatestFiniteMagnitude
    let relay = StreamRelay(request: request)
    let session = URLSession(configuration: configuration, delegate: relay, delegateQueue: nil)
    let task = session.dataTask(with: request.urlRequest)
    relay.attach(task: task, session: session)
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        relay.start(continuation)
      }
    } onCancel: {
      relay.cancel()
    }
  }
}

/// Hands a data task's response head to the waiting ``URLSessionTransport/open(_:)`` and its
/// body chunks to the response's stream.
private final class StreamRelay: NSObject, URLSessionDataDelegate, Sendable {
  private let request: HTTPRequest
  private let state = Locked(State())

  /// What the relay holds between the delegate's calls.
  private struct State {
    /// The waiting `open`, until the head arrives.
    var head: CheckedContinuation<HTTPStreamingResponse, any Error>?
    /// The body's buffer, once the head arrived.
    var chunks: StreamBuffer?
    var task: URLSessionDataTask?
    var session: URLSession?
    var cancelled = false
  }

  init(request: HTTPRequest) {
    self.request = request
  }

  func attach(task: URLSessionDataTask, session: URLSession) {
    state.withLock { state in
      state.task = task
      state.session = session
    }
  }

  func start(_ continuation: CheckedContinuation<HTTPStreamingResponse, any Error>) {
    let task = state.withLock { state -> URLSessionDataTask? in
      state.head = continuation
      return state.task
    }
    task?.resume()
  }

  /// Hangs up: the task is cancelled and the body ends with an error.
  ///
  /// FoundationNetworking stops the process ("Trying to access a behaviour for a task that in
  /// not in the registry") when a cancel races the task's own completion: `cancel()` checks the
  /// task's state in one step on the session's work queue and reports the cancellation in a
  /// later one, and a completion delivered on the delegate queue in between removes the task from
  /// the registry that the later step reads (swift-corelibs-foundation #3296; seen here once in
  /// three runs of the suite on a busy machine). So the cancel is made on the delegate queue,
  /// which is serial and where the completion is delivered, only while the task has not
  /// completed, and `suspend()`, which waits on the work queue (where it finds the task
  /// cancelling and does nothing else), holds the delegate queue until the cancel's first step has
  /// run: a completion can then only come after the cancel's last step.
  func cancel() {
    let (task, session) = state.withLock { state -> (URLSessionDataTask?, URLSession?) in
      state.cancelled = true
      return (state.task, state.session)
    }
    guard let task, let session else { return }
    session.delegateQueue.addOperation { [self] in
      guard state.withLock({ $0.task != nil }) else { return }  // completed meanwhile
      task.cancel()
      task.suspend()
    }
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    let http = response as? HTTPURLResponse
    var headers = HTTPHeaders()
    for (name, value) in http?.allHeaderFields ?? [:] {
      headers.add(name: String(describing: name), value: String(describing: value))
    }
    // FoundationNetworking's suspend and resume of a running data task cannot pace it: measured
    // here, the suspension took effect 30 to 200 MB late, and one resume never restarted the
    // transfer (the reader then waited for its timeout). So nothing pauses: a reader that falls
    // behind by more than the buffer's hard limit ends the stream (StreamBuffer.ReaderTooSlow),
    // and memory stays bounded. CurlTransport, the default on Linux, pauses instead.
    let buffer = StreamBuffer(onResume: {}, onCancel: { [weak self] in self?.cancel() })
    let waiting = state.withLock { state -> CheckedContinuation<HTTPStreamingResponse, any Error>? in
      state.chunks = buffer
      defer { state.head = nil }
      return state.head
    }
    completionHandler(.allow)
    waiting?.resume(
      returning: HTTPStreamingResponse(statusCode: http?.statusCode ?? 0, headers: headers, body: buffer.stream) { [weak self] in self?.cancel() })
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    let chunks = state.withLock { $0.chunks }
    chunks?.push(data)
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    let (waiting, chunks, cancelled) = state.withLock { state in
      // The task is over: let go of all but whether it was cancelled.
      defer { state = State(cancelled: state.cancelled) }
      return (state.head, state.chunks, state.cancelled)
    }
    session.finishTasksAndInvalidate()
    let failure: (any Error)? = error.map { error in
      if cancelled || (error as? URLError)?.code == .cancelled { return NetworkError.cancelled }
      return NetworkError.transport(TransportFailure(request: request, underlying: error))
    }
    if let waiting {
      waiting.resume(throwing: failure ?? NetworkError.transport(TransportFailure(request: request, underlying: URLError(.badServerResponse))))
    }
    chunks?.finish(throwing: failure)
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
    completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    completionHandler(nil)
  }
}
