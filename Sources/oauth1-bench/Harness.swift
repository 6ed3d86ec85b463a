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
  /// Run exactly this many iterations once, with no calibration (for callgrind).
  var fixedIterations: Int?
  /// Only workloads whose name contains this.
  var only: String?
  /// Print the peers protocol (`NAME\tns\t...`) instead of the table.
  var peersProtocol = false
  private(set) var results: [Result] = []

  func selected(_ name: String) -> Bool {
    guard let only, !only.isEmpty else { return true }
    return name.contains(only)
  }

  /// Measures a synchronous `operation` (no `await` in the loop, so the figure is the work's own).
  mutating func measureSync(_ name: String, baseline: String? = nil, _ operation: () throws -> Void) rethrows {
    guard selected(name) else { return }
    if let fixedIterations {
      let start = DispatchTime.now().uptimeNanoseconds
      for _ in 0..<fixedIterations { try operation() }
      let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / Double(max(fixedIterations, 1))
      print("\(name)\tns\t\(elapsed)")
      return
    }
    var iterations = 1
    while true {
      let elapsed = try timeSync(iterations, operation)
      if elapsed >= targetSeconds * 0.5e9 || iterations >= 1 << 26 { break }
      iterations *= 2
    }
    var samples: [Double] = []
    for _ in 0..<repetitions {
      samples.append(try timeSync(iterations, operation) / Double(iterations))
    }
    record(name, baseline: baseline, samples: samples)
  }

  private func timeSync(_ iterations: Int, _ operation: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<iterations { try operation() }
    return Double(DispatchTime.now().uptimeNanoseconds - start)
  }

  private mutating func record(_ name: String, baseline: String?, samples: [Double]) {
    let sorted = samples.sorted()
    let median = sorted[sorted.count / 2]
    let reference = baseline.flatMap { name in results.first { $0.name == name } }
    let result = Result(
      name: name, nanosecondsPerOperation: median, baseline: baseline,
      ratio: reference.map { median / $0.nanosecondsPerOperation })
    results.append(result)
    if peersProtocol {
      print("\(name)\tns\t" + samples.map { String(format: "%.1f", $0) }.joined(separator: " "))
    } else {
      print(Self.format(result))
    }
  }

  /// The median of a workload measured earlier in this run.
  func median(_ name: String) -> Double? { results.first { $0.name == name }?.nanosecondsPerOperation }

  /// Measures `operation`, which performs one unit of work per call.
  mutating func measure(_ name: String, baseline: String? = nil, _ operation: () async throws -> Void) async rethrows {
    guard selected(name) else { return }
    if let fixedIterations {
      let elapsed = try await time(fixedIterations, operation) / Double(max(fixedIterations, 1))
      print("\(name)\tns\t\(elapsed)")
      return
    }
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
    record(name, baseline: baseline, samples: samples)
  }

  private func time(_ iterations: Int, _ operation: () async throws -> Void) async rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<iterations { try await operation() }
    return Double(DispatchTime.now().uptimeNanoseconds - start)
  }

  static func format(_ result: Result) -> String {
    let time =
      result.nanosecondsPerOperation >= 10_000
      ? String(format: "%10.1f µs/op", result.nanosecondsPerOperation / 1000)
      : String(format: "%10.0f ns/op", result.nanosecondsPerOperation)
    let ratio = result.ratio.map { String(format: "  %7.2fx %@", $0, result.baseline ?? "") } ?? "  (baseline)"
    return result.name.padding(toLength: 56, withPad: " ", startingAt: 0) + time + ratio
  }
}
