import Foundation

// oauth1-bench: prints, for each workload, the median time per operation over several
// repetitions and its ratio to a baseline measured in the same run. Build in release mode:
//   swift run -c release oauth1-bench [--quick]

@main
struct OAuth1Bench {
  static func main() async throws {
    var harness = Harness()
    if CommandLine.arguments.contains("--quick") {
      harness.repetitions = 3
      harness.targetSeconds = 0.02
    }
    print("oauth1-bench: median of \(harness.repetitions) repetitions of ~\(harness.targetSeconds) s each")
    try await ClientWorkloads.run(&harness)
  }
}
