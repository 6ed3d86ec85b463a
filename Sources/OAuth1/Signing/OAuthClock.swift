import Foundation

/// Where the signer reads the time, so that tests and replays can fix it.
///
/// ```swift
/// struct FixedClock: OAuthClock { func secondsSince1970() -> Int64 { 1318622958 } }
/// ```
public protocol OAuthClock: Sendable {
  /// Whole seconds since 1970-01-01T00:00:00Z.
  func secondsSince1970() -> Int64
}

/// The system's wall clock.
public struct SystemClock: OAuthClock {
  public init() {}
  public func secondsSince1970() -> Int64 {
    Int64(Date().timeIntervalSince1970.rounded(.down))
  }
}
