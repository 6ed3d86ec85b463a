import Foundation

/// When a filtered-stream client gives up on a silent connection and how long it waits before
/// connecting again, by what went wrong: a value, so a caller can change any part of it.
///
/// The default, ``x``, is X's documented policy (`x-api/fundamentals/handling-disconnections.mdx`):
/// a keep-alive arrives every 20 s, so 20 s of silence means the connection is dead; after an
/// established connection drops, reconnect at once; if that fails, back off linearly by 250 ms
/// up to 16 s for TCP/IP errors (a reset, a refusal: a failed first connection counts too),
/// exponentially from 5 s up to 320 s for HTTP errors, and exponentially from one minute for
/// HTTP 429. Clients that retry faster (twarc2 sleeps `errors**2` seconds) get stuck in
/// `TooManyConnections`. A 429 `TooManyConnections` while no other client of the app is connected
/// means a stale connection X still counts: no back-off cures it sooner than X's timeout, but
/// ``XClient/V2/terminateAllStreamConnections()`` ends it at once.
///
/// ```swift
/// var policy = StreamReconnectPolicy.x
/// policy.maxConsecutiveFailures = 10      // give up after ten failed reconnects in a row
/// let fast = policy.scaled(by: 0.01)      // a test's clock: 20 s of silence become 0.2 s
/// policy.delay(after: .http(status: 503), consecutive: 3)  // 20 s
/// ```
public struct StreamReconnectPolicy: Sendable, Hashable {
  /// What ended a connection or kept one from opening.
  public enum Failure: Sendable, Hashable, CustomStringConvertible {
    /// An established connection ended (closed, reset, or silent past ``stallTimeout``):
    /// reconnect at once. A connection answered 200 that ends before its first byte counts as
    /// a TCP/IP error instead, so that a server that accepts and hangs up is not hammered.
    case dropped
    /// A TCP/IP error before any response: refused, reset, timed out, no route.
    case network
    /// An HTTP error status where reconnecting may help (5xx and the like).
    case http(status: Int)
    /// HTTP 429: too many connections, or too many connection attempts.
    case rateLimited

    /// `dropped`, `TCP/IP error`, `HTTP 503`, `HTTP 429`.
    public var description: String {
      switch self {
      case .dropped: "dropped"
      case .network: "TCP/IP error"
      case .http(let status): "HTTP \(status)"
      case .rateLimited: "HTTP 429"
      }
    }
  }

  /// Seconds without a byte (post or keep-alive) after which the connection is taken for dead
  /// and closed (X: 20).
  public var stallTimeout: TimeInterval
  /// A grace added to ``stallTimeout`` so that a keep-alive due at exactly 20 s is not taken
  /// for silence, as a fraction of it (0.05: one second at 20 s).
  public var stallGrace: Double
  /// The linear step for TCP/IP errors: the n-th failure in a row waits n × this (X: 0.25 s).
  public var networkStep: TimeInterval
  /// The longest wait after TCP/IP errors (X: 16 s).
  public var networkMax: TimeInterval
  /// The first wait after an HTTP error, doubled at each one in a row (X: 5 s).
  public var httpStart: TimeInterval
  /// The longest wait after HTTP errors (X: 320 s).
  public var httpMax: TimeInterval
  /// The first wait after a 429, doubled at each one in a row (X: 60 s).
  public var rateLimitStart: TimeInterval
  /// The longest wait after 429s. X names none; 960 s (16 minutes, past X's 15-minute
  /// rate-limit window) keeps a collector from sleeping for hours.
  public var rateLimitMax: TimeInterval
  /// How many failed connection attempts in a row before the stream gives up and throws;
  /// `nil` (the default) never gives up, as a collector running for days should not.
  public var maxConsecutiveFailures: Int?

  /// A policy from its parts; every default is X's.
  public init(
    stallTimeout: TimeInterval = 20, stallGrace: Double = 0.05, networkStep: TimeInterval = 0.25, networkMax: TimeInterval = 16,
    httpStart: TimeInterval = 5, httpMax: TimeInterval = 320, rateLimitStart: TimeInterval = 60, rateLimitMax: TimeInterval = 960,
    maxConsecutiveFailures: Int? = nil
  ) {
    self.stallTimeout = stallTimeout
    self.stallGrace = stallGrace
    self.networkStep = networkStep
    self.networkMax = networkMax
    self.httpStart = httpStart
    self.httpMax = httpMax
    self.rateLimitStart = rateLimitStart
    self.rateLimitMax = rateLimitMax
    self.maxConsecutiveFailures = maxConsecutiveFailures
  }

  /// X's policy (`x-api/fundamentals/handling-disconnections.mdx`).
  public static let x = StreamReconnectPolicy()

  /// How long to wait before connecting again after the `consecutive`-th failure of this kind
  /// in a row (1 for the first): 0 after a drop; `consecutive` × ``networkStep`` up to
  /// ``networkMax``; ``httpStart`` or ``rateLimitStart`` doubled `consecutive - 1` times, up to
  /// their maximum.
  public func delay(after failure: Failure, consecutive: Int) -> TimeInterval {
    let n = max(1, consecutive)
    func doubling(_ start: TimeInterval, _ maximum: TimeInterval) -> TimeInterval {
      min(maximum, start * pow(2, Double(min(n - 1, 60))))
    }
    switch failure {
    case .dropped: return 0
    case .network: return min(networkMax, networkStep * Double(n))
    case .http: return doubling(httpStart, httpMax)
    case .rateLimited: return doubling(rateLimitStart, rateLimitMax)
    }
  }

  /// Seconds of silence after which a connection is closed: ``stallTimeout`` plus its grace.
  public var silenceLimit: TimeInterval { stallTimeout * (1 + stallGrace) }

  /// The same policy with every duration multiplied by `factor`: a test clock, so that a
  /// 20-second stall or a one-minute wait can be proven in a fraction of the time.
  public func scaled(by factor: Double) -> StreamReconnectPolicy {
    var scaled = self
    scaled.stallTimeout *= factor
    scaled.networkStep *= factor
    scaled.networkMax *= factor
    scaled.httpStart *= factor
    scaled.httpMax *= factor
    scaled.rateLimitStart *= factor
    scaled.rateLimitMax *= factor
    return scaled
  }
}
