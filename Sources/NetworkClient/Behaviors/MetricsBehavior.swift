/// Counts requests: how many are in flight now, and how many started, succeeded and failed.
/// The server-side cousin of a network activity indicator, for health pages and metrics.
///
/// ```swift
/// let metrics = MetricsBehavior()
/// let client = NetworkClient(baseURL: api, behavior: metrics)
/// metrics.snapshot.inFlight  // 0 when idle
/// ```
public struct MetricsBehavior: RequestBehavior {
  /// The counts at one moment, as ``MetricsBehavior/snapshot`` returns them. All but `attempts` are counted in
  /// `around`: once per call of the client when the behavior comes before a ``RetryBehavior``, once per attempt when it
  /// comes after one.
  public struct Snapshot: Sendable, Hashable {
    /// Exchanges started and not yet finished: 0 when the client is idle.
    public var inFlight = 0
    /// Exchanges started since the behavior was created.
    public var started = 0
    /// Exchanges that ended with a response (one whose body then fails to decode included).
    public var succeeded = 0
    /// Exchanges that ended with an error, cancellation included.
    public var failed = 0
    /// Attempts, retries included.
    public var attempts = 0

    /// Creates a snapshot with the given counts, each 0 by default (to compare with in tests).
    public init(inFlight: Int = 0, started: Int = 0, succeeded: Int = 0, failed: Int = 0, attempts: Int = 0) {
      self.inFlight = inFlight
      self.started = started
      self.succeeded = succeeded
      self.failed = failed
      self.attempts = attempts
    }
  }

  private let state = Locked(Snapshot())

  /// Creates a behavior with every count at 0. Copies share the counts, so keep one to read ``snapshot``.
  public init() {}

  /// The counts now, as a value that does not change afterwards.
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
