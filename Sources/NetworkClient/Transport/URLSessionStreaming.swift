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
      task.cancel()
    }
  }
}

/// Hands a data task's response head to the waiting ``URLSessionTransport/open(_:)`` and its
/// body chunks to the response's stream.
private final class StreamRelay: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  private let lock = NSLock()
  private let request: HTTPRequest
  private var head: CheckedContinuation<HTTPStreamingResponse, any Error>?
  private var chunks: AsyncThrowingStream<Data, any Error>.Continuation?
  private var task: URLSessionDataTask?
  private var session: URLSession?
  private var cancelled = false

  init(request: HTTPRequest) {
    self.request = request
  }

  func attach(task: URLSessionDataTask, session: URLSession) {
    lock.withLock {
      self.task = task
      self.session = session
    }
  }

  func start(_ continuation: CheckedContinuation<HTTPStreamingResponse, any Error>) {
    let task = lock.withLock { () -> URLSessionDataTask? in
      head = continuation
      return self.task
    }
    task?.resume()
  }

  /// Hangs up: the task is cancelled and the body ends with an error.
  func cancel() {
    let task = lock.withLock { () -> URLSessionDataTask? in
      cancelled = true
      return self.task
    }
    task?.cancel()
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
    let (stream, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
    continuation.onTermination = { [weak self] termination in
      if case .cancelled = termination { self?.cancel() }
    }
    let waiting = lock.withLock { () -> CheckedContinuation<HTTPStreamingResponse, any Error>? in
      chunks = continuation
      defer { head = nil }
      return head
    }
    completionHandler(.allow)
    waiting?.resume(
      returning: HTTPStreamingResponse(statusCode: http?.statusCode ?? 0, headers: headers, body: stream) { [weak self] in self?.cancel() })
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    let chunks = lock.withLock { self.chunks }
    chunks?.yield(data)
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    let (waiting, chunks, cancelled) = lock.withLock {
      () -> (CheckedContinuation<HTTPStreamingResponse, any Error>?, AsyncThrowingStream<Data, any Error>.Continuation?, Bool) in
      defer {
        head = nil
        self.chunks = nil
        self.task = nil
        self.session = nil
      }
      return (head, self.chunks, self.cancelled)
    }
    session.finishTasksAndInvalidate()
    let failure: (any Error)? = error.map { error in
      if cancelled || (error as? URLError)?.code == .cancelled { return NetworkError.cancelled }
      return NetworkError.transport(TransportFailure(request: request, underlying: error))
    }
    if let waiting {
      waiting.resume(throwing: failure ?? NetworkError.transport(TransportFailure(request: request, underlying: URLError(.badServerResponse))))
    }
    if let failure { chunks?.finish(throwing: failure) } else { chunks?.finish() }
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
    completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    completionHandler(nil)
  }
}
