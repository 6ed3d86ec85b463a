import Foundation

/// How much slower than usual the tests may run: `TEST_TIME_SCALE` (default 1). `.ci/sanitizers`
/// sets it, since ThreadSanitizer and AddressSanitizer make everything many times slower and a
/// time bound that proves "bounded" on a plain build would fail there for no fault of the code.
public enum TestTiming {
  public static let scale: Double = {
    guard let text = ProcessInfo.processInfo.environment["TEST_TIME_SCALE"], let value = Double(text), value >= 1 else { return 1 }
    return value
  }()

  /// `seconds` stretched by ``scale``.
  public static func seconds(_ seconds: Double) -> Double { seconds * scale }
}
