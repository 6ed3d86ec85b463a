import Foundation

/// Sends a request again after a failure that may pass, by one written policy:
///
/// | answer | retried | for | the wait |
/// |---|---|---|---|
/// | 429 | yes | every method: the server did not act on it | `Retry-After`, else `x-rate-limit-reset`, else backoff |
/// | 500, 502, 503, 504 | yes | idempotent methods | `Retry-After`, else the reset when `x-rate-limit-remaining` is 0, else backoff |
/// | connection refused | yes | every method: nothing was sent | backoff |
/// | timed out, connection lost or reset | yes | idempotent methods | backoff |
/// | host not found, TLS failure | no | | |
/// | any other status, a decoding failure, a refused redirect | no | | |
/// | an answer ``isFinal`` marks (X's monthly cap) | no | | |
///
/// Idempotent methods are GET, HEAD, PUT, DELETE, OPTIONS and TRACE, or any request whose
/// ``HTTPRequest/isIdempotent`` says so; ``retryNonIdempotent`` extends the 5xx and
/// interrupted-connection rows to every method. Backoff is `baseDelay × 2^(attempt − 1)` with
/// up to 50 % jitter, never more than ``maxBackoff``: a few seconds, so a failing server costs
/// seconds, not minutes. A rate-limit reset means something only when the limit is used up
/// (a 429, or `remaining` 0): X sends its rate-limit headers on every answer, and on a 503 the
/// reset is just the end of the current window.
///
/// It gives up, with the last error and the number of attempts in it
/// (``NetworkError/attempts``), after ``maxAttempts`` attempts, or when the next wait would pass
/// ``maxTotalWait`` or the whole exchange would pass ``deadline``. Each attempt is bounded by
/// the request's timeout, so against a server that never answers the exchange ends within
/// about `maxAttempts × timeout` plus the capped waits. Every retry goes through the whole
/// behavior chain again, so a signer signs it afresh.
///
/// ```swift
/// let retry = RetryBehavior(maxAttempts: 4, maxTotalWait: 120)
/// ```
public struct RetryBehavior: RequestBehavior {
  /// The most times one request is sent (at least 1).
  public var maxAttempts: Int
  /// The longest the behavior waits between attempts, in all, in seconds. A server that asks
  /// for a longer wait (a rate-limit reset in an hour) gets an immediate failure instead.
  public var maxTotalWait: TimeInterval
  /// The longest the whole exchange may take, attempts and waits, from the first attempt; no
  /// retry starts a wait that would end after it. `nil`: bounded by attempts and waits only.
  public var deadline: TimeInterval?
  /// The first backoff; each further one doubles, up to ``maxBackoff``.
  public var baseDelay: TimeInterval
  /// The longest single backoff wait (waits the server asks for are not capped by it).
  public var maxBackoff: TimeInterval
  /// The statuses that may be retried; take 429 out to fail at once on a rate limit.
  public var retryableStatuses: Set<Int>
  /// Answers the server marks as final although their status is retryable: X's 429
  /// `usage-capped` is the monthly cap, not a rate limit, and no wait lifts it. Not retried.
  public var isFinal: @Sendable (HTTPStatusFailure) -> Bool
  /// Whether non-idempotent requests (POST, PATCH) are retried after a 5xx or a lost connection,
  /// which may apply them twice.
  public var retryNonIdempotent: Bool
  /// How the behavior waits between attempts: a ``TaskSleeper`` by default; a test passes `RecordingSleeper`
  /// (in `NetworkClientTesting`) to retry without waiting. A wait that throws ends the exchange with ``NetworkError/cancelled``.
  public var sleeper: any Sleeper
  /// The current time, for HTTP-date and reset headers and the deadline.
  public var now: @Sendable () -> Date
  /// A number in 0..<1 for jitter.
  public var jitter: @Sendable () -> Double
  /// Told before every wait, so a program can say what it is waiting for (on stderr, say).
  public var onWait: (@Sendable (RetryWait) -> Void)?

  /// - Parameters:
  ///   - maxAttempts: sends at most this many times; clamped to at least 1.
  ///   - maxTotalWait: seconds of waiting between attempts, in all.
  ///   - deadline: seconds the whole exchange may take; `nil` for no bound beyond the others.
  ///   - baseDelay: the first backoff, doubled on each retry.
  ///   - maxBackoff: the cap of one backoff wait.
  ///   - retryableStatuses: the statuses the table above retries; remove 429 to fail on rate
  ///     limits at once.
  ///   - retryNonIdempotent: retry POST and PATCH after a 5xx or a lost connection too.
  ///   - isFinal: answers not to retry although their status is retryable (a body that says
  ///     no wait will help); none by default.
  ///   - sleeper: how to wait; a test passes `RecordingSleeper` (in `NetworkClientTesting`) to
  ///     retry without waiting.
  ///   - now: the clock that turns a `Retry-After` date or a rate-limit reset into a wait.
  ///   - jitter: a number in 0..<1 that spreads the backoff (up to 50 % more); fixed in tests.
  ///   - onWait: told before each wait.
  public init(
    maxAttempts: Int = 3,
    maxTotalWait: TimeInterval = 60,
    deadline: TimeInterval? = nil,
    baseDelay: TimeInterval = 0.5,
    maxBackoff: TimeInterval = 5,
    retryableStatuses: Set<Int> = [429, 500, 502, 503, 504],
    retryNonIdempotent: Bool = false,
    isFinal: @escaping @Sendable (HTTPStatusFailure) -> Bool = { _ in false },
    sleeper: any Sleeper = TaskSleeper(),
    now: @escaping @Sendable () -> Date = { Date() },
    jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
    onWait: (@Sendable (RetryWait) -> Void)? = nil
  ) {
    self.maxAttempts = max(1, maxAttempts)
    self.maxTotalWait = maxTotalWait
    self.deadline = deadline
    self.baseDelay = baseDelay
    self.maxBackoff = maxBackoff
    self.retryableStatuses = retryableStatuses
    self.retryNonIdempotent = retryNonIdempotent
    self.isFinal = isFinal
    self.sleeper = sleeper
    self.now = now
    self.jitter = jitter
    self.onWait = onWait
  }

  public func around(_ request: HTTPRequest, send: @Sendable (HTTPRequest) async throws -> HTTPResponse) async throws -> HTTPResponse {
    let start = now()
    var waited: TimeInterval = 0
    var attempt = 1
    while true {
      do {
        return try await send(request)
      } catch let error as NetworkError {
        guard attempt < maxAttempts, let delay = delay(after: error, attempt: attempt, request: request),
          waited + delay <= maxTotalWait,
          deadline.map({ now().timeIntervalSince(start) + delay <= $0 }) ?? true
        else {
          throw error.after(attempts: attempt)
        }
        onWait?(
          RetryWait(
            requestLine: request.requestLine, attempt: attempt, maxAttempts: maxAttempts, seconds: delay,
            until: now().addingTimeInterval(delay), error: error))
        do {
          try await sleeper.sleep(seconds: delay)
        } catch {
          throw NetworkError.cancelled
        }
        waited += delay
        attempt += 1
      }
    }
  }

  /// How long to wait before sending `request` again after `error` on attempt number
  /// `attempt`, or `nil` when the policy does not retry it.
  public func delay(after error: NetworkError, attempt: Int, request: HTTPRequest) -> TimeInterval? {
    let mayRepeat = request.isIdempotent || retryNonIdempotent
    switch error {
    case .transport(let failure) where failure.passedTotalDeadline:
      return nil
    case .transport(let failure):
      switch failure.kind {
      case .refused: return backoff(attempt: attempt)
      case .timedOut, .interrupted, .other: return mayRepeat ? backoff(attempt: attempt) : nil
      case .hostNotFound, .tls, .tooLarge: return nil
      }
    case .httpStatus(let failure) where retryableStatuses.contains(failure.statusCode) && !isFinal(failure):
      guard failure.statusCode == 429 || mayRepeat else { return nil }
      return RetryAfter.delay(in: failure.headers, statusCode: failure.statusCode, now: now()) ?? backoff(attempt: attempt)
    default:
      return nil
    }
  }

  /// `baseDelay × 2^(attempt − 1)` with up to 50 % random jitter added, at most `maxBackoff`.
  func backoff(attempt: Int) -> TimeInterval {
    min(maxBackoff, baseDelay * pow(2, Double(attempt - 1)) * (1 + 0.5 * jitter()))
  }
}

/// A wait before a retry: what failed, on which attempt, and until when the behavior waits.
public struct RetryWait: Sendable {
  /// The request being retried, as `GET https://api.example.com/items`, secrets redacted.
  public let requestLine: String
  /// The attempt that failed (1 for the first).
  public let attempt: Int
  /// The most attempts the behavior makes.
  public let maxAttempts: Int
  /// How long the behavior waits before the next attempt, in seconds: what the server asked for (`Retry-After`
  /// or a rate-limit reset), else the backoff.
  public let seconds: TimeInterval
  /// When the wait ends, by the behavior's `now` clock.
  public let until: Date
  /// The failure of the attempt that is retried.
  public let error: NetworkError

  /// Whether the wait is for a rate limit (HTTP 429).
  public var isRateLimit: Bool { error.statusCode == 429 }

  /// What failed, shortly: `HTTP 503`, `timed out after 1 s`, `connection refused`.
  public var failure: String {
    switch error {
    case .httpStatus(let failure): return "HTTP \(failure.statusCode)"
    case .transport(let failure): return failure.summary
    default: return "\(error)"
    }
  }
}
