import Foundation

/// Where the signer reads the time, so that tests and replays can fix it.
///
/// ```swift
/// let replay = OAuthVerifier(credentials: lookup, options: .init(clock: FixedClock(seconds: 1318622958)))
/// ```
public protocol OAuthClock: Sendable {
  /// Whole seconds since 1970-01-01T00:00:00Z.
  func secondsSince1970() -> Int64
}

/// The system's wall clock.
public struct SystemClock: OAuthClock {
  /// Creates a clock that reads the system time (`Date()`), rounded down to whole seconds.
  public init() {}
  public func secondsSince1970() -> Int64 {
    Int64(Date().timeIntervalSince1970.rounded(.down))
  }
}

/// A clock stopped at one instant: to check a captured request at the time it was sent
/// (`oauth1 verify --now`), to reproduce a documented example, or in tests.
///
/// ```swift
/// let signer = try OAuthSigner(consumer: consumer, configuration: .init(clock: FixedClock(seconds: 1318622958)))
/// ```
public struct FixedClock: OAuthClock, Hashable {
  /// The instant, in whole seconds since 1970-01-01T00:00:00Z.
  public let seconds: Int64

  /// Creates a clock that always reads `seconds` since 1970-01-01T00:00:00Z, for example a captured request's `oauth_timestamp`.
  public init(seconds: Int64) {
    self.seconds = seconds
  }

  public func secondsSince1970() -> Int64 { seconds }
}
