import Dispatch
import Foundation

// oauth1-bench: prints, for each workload, the median time per operation over several
// repetitions and its ratio to a baseline measured in the same run. Build in release mode:
//
//   swift run -c release oauth1-bench            the table
//   swift run -c release oauth1-bench --quick    fewer, shorter repetitions
//   swift run -c release oauth1-bench --callgrind   instructions per operation (valgrind)
//   swift run -c release oauth1-bench --peers-protocol   lines for ../shared/bench/peers/run.sh
//
// BENCH_ONLY=substring selects workloads; BENCH_ITERS=N runs each exactly N times once (for
// callgrind). The main program is synchronous on purpose: valgrind 3.19 cannot run a binary
// whose entry point starts the Swift concurrency runtime, so only the client workloads, which
// need it, start it.

if CommandLine.arguments.contains("--peers-protocol") {
  do { try PeersProtocol.run(environment: ProcessInfo.processInfo.environment) } catch {
    try? FileHandle.standardError.write(contentsOf: Data("oauth1-bench: \(error)\n".utf8))
    exit(1)
  }
  exit(0)
}
if CommandLine.arguments.contains("--callgrind") {
  InstructionCounts.run()
  exit(0)
}

var harness = Harness()
let arguments = CommandLine.arguments
let environment = ProcessInfo.processInfo.environment
if arguments.contains("--quick") {
  harness.repetitions = 3
  harness.targetSeconds = 0.02
}
harness.only = environment["BENCH_ONLY"]
harness.fixedIterations = environment["BENCH_ITERS"].flatMap { Int($0) }
if harness.fixedIterations == nil {
  print("oauth1-bench: median of \(harness.repetitions) repetitions of ~\(harness.targetSeconds) s each")
}
do {
  try SigningWorkloads.run(&harness)
  try ScalingWorkloads.run(&harness)
} catch {
  try? FileHandle.standardError.write(contentsOf: Data("oauth1-bench: \(error)\n".utf8))
  exit(1)
}
if (ClientWorkloads.names + VerificationWorkloads.names).contains(where: harness.selected) {
  let done = DispatchSemaphore(value: 0)
  let box = HarnessBox(harness)
  Task.detached {
    do {
      try await VerificationWorkloads.run(&box.harness)
      try await ClientWorkloads.run(&box.harness)
    } catch {
      try? FileHandle.standardError.write(contentsOf: Data("oauth1-bench: \(error)\n".utf8))
    }
    done.signal()
  }
  done.wait()
}

/// Lets the async client workloads use the harness the synchronous part filled.
final class HarnessBox: @unchecked Sendable {
  var harness: Harness
  init(_ harness: Harness) { self.harness = harness }
}
