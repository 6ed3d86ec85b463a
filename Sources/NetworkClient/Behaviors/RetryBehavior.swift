import Foundation

/// Retries a request that failed for a reason that may pass: a transport failure or a status
/// of 429, 502, 503 or 504.
///
/// It waits as long as the server asks (`Retry-After` in seconds or as an HTTP date, else
/// `x-rate-limit-reset`), otherwise backs off exponentially with jitter, and gives up after
/// `maxAttempts` or when the next wait would pass `maxTotalWait`, with the last error. Only
/// idempotent requests are retried unless `retryNonIdempotent` is set, except after a 429,
/// which says the server did not act on the request. Every retry goes
/// through the whole behavior chain again, so a signer signs it afresh.
///
/// ```swift
/// let retry = RetryBehavior(maxAttempts: 4, maxTotalWait: 120)
/// ```
public struct RetryBehavior: RequestBehavior {
  public var maxAttempts: Int
  /// The longest the behavior waits in all, in seconds.
  public var maxTotalWait: TimeInterval
  /// The first backoff; each further one doubles, up to `maxBackoff`.
  public var baseDelay: TimeInterval
  public var maxBackoff: TimeInterval
  public var retryableStatuses: Set<Int>
  public var retryNonIdempotent: Bool
  public var sleeper: any Sleeper
  /// The current time, for HTTP-date and reset headers.
  public var now: @Sendable () -> Date
  /// A number in 0..<1 for jitter.
  public var jitter: @Sendable () -> Double
  /// Told before every wait, so a program can say what it is waiting for (on stderr, say).
  public var onWait: (@Sendable (RetryWait) -> Void)?

  public init(
    maxAttempts: Int = 3,
    maxTotalWait: TimeInterval = 60,
    baseDelay: TimeInterval = 0.5,
    maxBackoff: TimeInterval = 30,
    retryableStatuses: Set<Int> = [429, 502, 503, 504],
    retryNonIdempotent: Bool = false,
    sleeper: any Sleeper = TaskSleeper(),
    now: @escaping @Sendable () -> Date = { Date() },
    jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
    onWait: (@Sendable (RetryWait) -> Void)? = nil
  ) {
    self.maxAttempts = max(1, maxAttempts)
    self.maxTotalWait = maxTotalWait
    self.baseDelay = baseDelay
    self.maxBackoff = maxBackoff
    self.retryableStatuses = retryableStatuses
    self.retryNonIdempotent = retryNonIdempotent
    self.sleeper = sleeper
    self.now = now
    self.jitter = jitter
    self.onWait = onWait
  }

  public func around(_ request: HTTPRequest, send: @Sendable (HTTPRequest) async throws -> HTTPResponse) async throws -> HTTPResponse {
    var waited: TimeInterval = 0
    var attempt = 1
    while true {
      do {
        return try await send(request)
      } catch let error as NetworkError {
        // A 429 means the server did not act on the request, so even a POST may be sent again.
        let mayResend = request.isIdempotent || retryNonIdempotent || error.statusCode == 429
        guard attempt < maxAttempts, mayResend, let delay = delay(after: error, attempt: attempt),
              waited + delay <= maxTotalWait else {
          throw error
        }
        onWait?(RetryWait(requestLine: request.requestLine, attempt: attempt, seconds: delay, until: now().addingTimeInterval(delay), error: error))
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

  /// How long to wait before the next attempt, or `nil` when `error` is not worth a retry.
  public func delay(after error: NetworkError, attempt: Int) -> TimeInterval? {
    switch error {
    case .transport:
      return backoff(attempt: attempt)
    case .httpStatus(let failure) where retryableStatuses.contains(failure.statusCode):
      if let asked = RetryAfter.delay(in: failure.headers, now: now()) { return asked }
      return backoff(attempt: attempt)
    default:
      return nil
    }
  }

  /// `baseDelay * 2^(attempt-1)`, capped, with up to 50 % random jitter added.
  func backoff(attempt: Int) -> TimeInterval {
    let exponential = min(maxBackoff, baseDelay * pow(2, Double(attempt - 1)))
    return exponential * (1 + 0.5 * jitter())
  }
}

/// A wait before a retry: what failed, and until when the behavior waits.
public struct RetryWait: Sendable {
  public let requestLine: String
  /// The attempt that failed (1 for the first).
  public let attempt: Int
  public let seconds: TimeInterval
  public let until: Date
  public let error: NetworkError

  /// Whether the wait is for a rate limit (HTTP 429).
  public var isRateLimit: Bool { error.statusCode == 429 }
}
