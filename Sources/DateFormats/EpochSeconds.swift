import Foundation

extension Date {
  /// The date `seconds` after 1970-01-01T00:00:00Z: the sandbox's clock counts whole seconds.
  package init(epochSeconds seconds: Int64) { self.init(timeIntervalSince1970: TimeInterval(seconds)) }

  /// Whole seconds since 1970, rounded down.
  package var epochSeconds: Int64 { Int64(timeIntervalSince1970.rounded(.down)) }
}
