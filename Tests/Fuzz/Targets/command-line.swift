// Fuzz target: the command-line parser with every `tweets` command's real options. The input
// is split on NUL bytes into arguments. Property: each command parses or throws a UsageError
// (never a crash), and reading the global options from what parsed never crashes.
import CommandLineSupport
import Foundation

@testable import TweetsCore

// libFuzzer's entry point in the fuzz build (.ci/fuzz defines FUZZING); in `swift test` the
// same function runs over the stored corpus (Tests/Fuzz/FuzzPropertyTests.swift).
#if FUZZING
  @_cdecl("LLVMFuzzerTestOneInput")
#endif
public func fuzzCommandLine(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let arguments = UnsafeBufferPointer(start: start, count: count).split(separator: 0, omittingEmptySubsequences: false)
    .map { String(decoding: $0, as: UTF8.self) }
  for command in TweetsCLI.commands {
    guard let parsed = try? command.spec.parse(arguments) else { continue }
    _ = try? GlobalOptions(parsed, environment: [:])
  }
  return 0
}
