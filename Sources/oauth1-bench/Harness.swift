import Foundation

/// Times workloads: each is run in batches for `repetitions` rounds, and the median time per
/// operation is reported with its ratio to the workload named as the baseline of its group,
/// measured in the same run.
struct Harness {
  struct Result {
    let name: String
    let nanosecondsPerOperation: Double
    let baseline: String?
    let ratio: Double?
  }

  var repetitions = 7
  /// Roughly how long one repetition runs, in seconds.
  var targetSeconds = 0.2
  private(set) var results: [Result] = []

  /// Measures `operation`, which performs one unit of work per call.
  mutating func measure(_ name: String, baseline: String? = nil, _ operation: () async throws -> Void) async rethrows {
    // Calibrate: how many calls fill `targetSeconds`?
    var iterations = 1
    while true {
      let elapsed = try await time(iterations, operation)
      if elapsed >= targetSeconds * 0.5e9 || iterations >= 1 << 26 { break }
      iterations *= 2
    }
    var samples: [Double] = []
    for _ in 0..<repetitions {
      samples.append(try await time(iterations, operation) / Double(iterations))
    }
    samples.sort()
    let median = samples[samples.count / 2]
    let reference = baseline.flatMap { name in results.first { $0.name == name } }
    let result = Result(name: name, nanosecondsPerOperation: median, baseline: baseline,
                        ratio: reference.map { median / $0.nanosecondsPerOperation })
    results.append(result)
    print(Self.format(result))
  }

  private func time(_ iterations: Int, _ operation: () async throws -> Void) async rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<iterations { try await operation() }
    return Double(DispatchTime.now().uptimeNanoseconds - start)
  }

  static func format(_ result: Result) -> String {
    let time = result.nanosecondsPerOperation >= 10_000
      ? String(format: "%10.1f µs/op", result.nanosecondsPerOperation / 1000)
      : String(format: "%10.0f ns/op", result.nanosecondsPerOperation)
    let ratio = result.ratio.map { String(format: "  %7.2fx %@", $0, result.baseline ?? "") } ?? "  (baseline)"
    return result.name.padding(toLength: 44, withPad: " ", startingAt: 0) + time + ratio
  }
}
