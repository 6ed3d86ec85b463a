/// Counts requests: how many are in flight now, and how many started, succeeded and failed.
/// The server-side cousin of a network activity indicator, for health pages and metrics.
///
/// ```swift
/// let metrics = MetricsBehavior()
/// let client = NetworkClient(baseURL: api, behavior: metrics)
/// metrics.snapshot.inFlight  // 0 when idle
/// ```
public struct MetricsBehavior: RequestBehavior {
  public struct Snapshot: Sendable, Hashable {
    public var inFlight = 0
    public var started = 0
    public var succeeded = 0
    public var failed = 0
    /// Attempts, retries included.
    public var attempts = 0

    public init(inFlight: Int = 0, started: Int = 0, succeeded: Int = 0, failed: Int = 0, attempts: Int = 0) {
      self.inFlight = inFlight
      self.started = started
      self.succeeded = succeeded
      self.failed = failed
      self.attempts = attempts
    }
  }

  private let state = Locked(Snapshot())

  public init() {}

  public var snapshot: Snapshot { state.withLock { $0 } }

  public func beforeSend(_ request: HTTPRequest) async {
    state.withLock { $0.attempts += 1 }
  }

  public func around(_ request: HTTPRequest, send: @Sendable (HTTPRequest) async throws -> HTTPResponse) async throws -> HTTPResponse {
    state.withLock {
      $0.inFlight += 1
      $0.started += 1
    }
    do {
      let response = try await send(request)
      state.withLock {
        $0.inFlight -= 1
        $0.succeeded += 1
      }
      return response
    } catch {
      state.withLock {
        $0.inFlight -= 1
        $0.failed += 1
      }
      throw error
    }
  }
}
