import CCurl
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A transport on the system's libcurl, driven directly: the default on Linux, where
/// FoundationNetworking's `URLSession` (itself a wrapper around libcurl) keeps memory for every
/// request it sends, in proportion to the URL's length, for as long as the process lives.
///
/// Requests run as transfers on one curl multi handle with a thread of its own (the process's
/// shared one for the default configuration, or the transport's own for another): connections
/// are reused per origin, HTTP/2 is used where a TLS server offers it, and the pool is bounded. Like ``URLSessionTransport`` it follows no redirect (the client's
/// ``RedirectPolicy`` does), keeps no cookie and no cache, verifies TLS against the system's
/// trust store (`SSL_CERT_FILE`, `SSL_CERT_DIR` and `CURL_CA_BUNDLE` honoured), takes proxies
/// from the environment as curl reads them (`https_proxy`, `no_proxy` ...), hands response
/// headers over as received (repeated ones kept), streams a body file from disk, and ends a
/// transfer silent for longer than the request's timeout. Cancelling the task cancels the
/// transfer. Failures are `URLError`s with curl's own message, which the client sorts into
/// ``TransportFailure`` kinds.
///
/// ```swift
/// let client = NetworkClient(baseURL: api, transport: CurlTransport())
/// ```
public struct CurlTransport: HTTPTransport, HTTPStreamingTransport {
  /// How the transfers run: timeouts, the connection pool, trust.
  public struct Configuration: Sendable, Hashable {
    /// Seconds to wait for a connection (and TLS) before failing; the request's timeout when shorter.
    public var connectTimeout: TimeInterval = 30
    /// Seconds a whole transfer may take; `nil` (the default): no limit, only the stall timeout
    /// (the request's timeout: seconds without a byte in or out).
    public var totalTimeout: TimeInterval?
    /// Open connections kept for reuse, across origins.
    public var maxConnections = 64
    /// Connections at once to one origin; more transfers wait for one (HTTP/2 multiplexes over one).
    public var maxConnectionsPerHost = 32
    /// A PEM file of the certificates to trust instead of the system's; from `SSL_CERT_FILE`
    /// (or `CURL_CA_BUNDLE`) when set.
    public var caFile: String?
    /// A folder of hashed certificates to trust; from `SSL_CERT_DIR` when set.
    public var caDirectory: String?
    /// The most bytes of one whole answer (``send(_:)``), counted after decoding (curl asks for
    /// gzip, deflate, brotli and zstd): 64 MiB by default, far above any answer of X's API
    /// (a page of 100 posts with every expansion is under 1 MB), so that a small compressed
    /// answer cannot decode into gigabytes of memory (a 261 KB gzip answer is 437 MB). Past it
    /// the transfer fails. Streamed answers (``open(_:)``) are bounded by ``StreamBuffer``.
    public var maxResponseBytes = CurlTransport.defaultMaxResponseBytes

    /// The defaults, with trust from the environment.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
      caFile = environment["SSL_CERT_FILE"] ?? environment["CURL_CA_BUNDLE"]
      caDirectory = environment["SSL_CERT_DIR"]
    }
  }

  /// The default ``Configuration/maxResponseBytes``: 64 MiB.
  public static let defaultMaxResponseBytes = 64 << 20

  /// The configuration its transfers run with.
  public let configuration: Configuration
  private let engine: CurlEngine?

  /// The process's shared engine for the default configuration: one thread and one connection
  /// pool however many clients are made.
  private static let sharedEngine = CurlEngine(configuration: Configuration())

  /// A transport on the process's shared engine (default configuration), or, given a
  /// `configuration`, on an engine of its own (its thread and pool end when the last copy of
  /// the transport is gone).
  public init(configuration: Configuration? = nil) {
    if let configuration {
      self.configuration = configuration
      engine = CurlEngine(configuration: configuration)
    } else {
      self.configuration = Configuration()
      engine = Self.sharedEngine
    }
  }

  /// Sends `request` and returns the whole response.
  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    try await start(request) { continuation, _ in CurlTransfer(request: request, delivery: .whole(continuation), stallTimeout: request.timeout) }
  }

  /// Sends `request` and returns when its status and headers are in; the body follows as it
  /// arrives, with no total timeout (a stream's reader watches for silence itself, and so does
  /// the transfer, after the request's timeout).
  public func open(_ request: HTTPRequest) async throws -> HTTPStreamingResponse {
    try await start(request) { head, box in
      // The reader's pace reaches the transfer: curl pauses it while the buffer is full.
      let body = StreamBuffer(onResume: { box.resume() }, onCancel: { box.cancel() })
      let transfer = CurlTransfer(request: request, delivery: .stream(head: head, body: body), stallTimeout: request.timeout)
      transfer.cancelStream = { box.cancel() }
      return transfer
    }
  }

  /// Hands the engine the transfer `make` builds around the continuation it resumes, and waits
  /// for it: the one path of `send` and `open`, with the task's cancellation passed on to the
  /// transfer and reported as ``NetworkError/cancelled``.
  private func start<Response: Sendable>(
    _ request: HTTPRequest, _ make: (CheckedContinuation<Response, any Error>, TransferBox) -> CurlTransfer
  ) async throws -> Response {
    try Task.checkCancellation()
    if let reason = request.headers.invalidFieldReason { throw NetworkError.invalidRequest(reason: reason) }
    let engine = try usableEngine()
    let box = TransferBox()
    do {
      return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Response, any Error>) in
          let transfer = make(continuation, box)
          box.set(transfer, engine: engine)
          engine.post(.add(transfer))
        }
      } onCancel: {
        box.cancel()
      }
    } catch let error as URLError where error.code == .cancelled {
      throw NetworkError.cancelled
    }
  }

  private func usableEngine() throws -> CurlEngine {
    guard let engine else { throw URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: "libcurl could not be initialized"]) }
    return engine
  }
}

/// Where a cancellation handler finds the transfer it cancels (it may run before the transfer
/// exists, then the transfer is cancelled as soon as it does).
private final class TransferBox: Sendable {
  private let state = Locked<(transfer: CurlTransfer?, engine: CurlEngine?, cancelled: Bool)>((nil, nil, false))

  func set(_ transfer: CurlTransfer, engine: CurlEngine) {
    let cancelled = state.withLock { state in
      state.transfer = transfer
      state.engine = engine
      return state.cancelled
    }
    if cancelled { engine.post(.cancel(transfer, URLError(.cancelled))) }
  }

  func cancel() {
    let found = state.withLock { state in
      state.cancelled = true
      return (state.transfer, state.engine)
    }
    if let transfer = found.0, let engine = found.1 { engine.post(.cancel(transfer, URLError(.cancelled))) }
  }

  /// Lets a transfer paused for its reader go on.
  func resume() {
    let found = state.withLock { ($0.transfer, $0.engine) }
    if let transfer = found.0, let engine = found.1 { engine.post(.resume(transfer)) }
  }
}
