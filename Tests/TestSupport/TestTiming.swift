import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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

  /// The processor time this thread has used, in seconds: for cost measurements that other
  /// processes on a busy machine must not disturb (wall time counts the moments the thread
  /// waited for a core; this does not).
  public static func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  /// The best of five timings of `small` and of `large`, taken in turns, in seconds of this
  /// thread's processor time: for the tests that compare the cost of n and 4n bytes of input.
  public static func bestCPUSeconds(_ small: () -> Void, _ large: () -> Void) -> (Double, Double) {
    func time(_ work: () -> Void) -> Double {
      let start = threadCPUSeconds()
      work()
      return threadCPUSeconds() - start
    }
    var best = (Double.infinity, Double.infinity)
    for _ in 0..<5 {
      best.0 = min(best.0, time(small))
      best.1 = min(best.1, time(large))
    }
    return best
  }

  /// Waits until `done` is true, asking every 50 ms, for at most `seconds` (stretched by
  /// ``scale``; the default, 120 s, is a bound for a hang, not an expected time): for an effect
  /// that comes after another the test saw (a log written once an answer is in, a held request
  /// taken). Returns whether it came.
  ///
  /// ```swift
  /// #expect(try await TestTiming.until { try await server.stats().requests.count == 2 })
  /// ```
  public static func until(_ seconds: Double = 120, _ done: () async throws -> Bool) async throws -> Bool {
    let deadline = Date().addingTimeInterval(Self.seconds(seconds))
    while Date() < deadline {
      if try await done() { return true }
      try await Task.sleep(for: .milliseconds(50))
    }
    return try await done()
  }
}
