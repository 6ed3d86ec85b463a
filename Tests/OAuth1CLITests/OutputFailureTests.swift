import Foundation
import TestSupport
import Testing

/// Every write is checked: `oauth1 sign --example twitter > /dev/full` said nothing and exited
/// 0 (`print` lost the error in C's buffer); a reader that went away ends it quietly, killed by
/// SIGPIPE as a Unix tool is, even when the parent ignored SIGPIPE.
@Suite("oauth1: output that cannot be written", .tags(.processes), .tier(.processes))
struct OutputFailureTests {
  /// Runs `oauth1` with its standard output `output`; with `shell`, through `/bin/sh -c`, whose
  /// command (`trap '' PIPE`, `2>/dev/full`) comes before the `exec` of `oauth1`.
  func run(_ arguments: [String], to output: ChildOutput, shell: String? = nil) async throws -> ProcessResult {
    let oauth1 = PackagePaths.executable("oauth1")
    let (executable, words) =
      shell.map { (URL(fileURLWithPath: "/bin/sh"), ["-c", $0, oauth1.path] + arguments) } ?? (oauth1, arguments)
    return try await ProcessRunner.run(executable, words, standardOutput: output, timeout: 60)
  }

  @Test(arguments: [["sign", "--example", "twitter"], ["sign", "--example", "twitter", "--json"], ["--help"], ["sign", "--version"]])
  func aFullDiskIsAnError(arguments: [String]) async throws {
    let result = try await run(arguments, to: .file("/dev/full"))
    #expect(result.signal == nil && result.status == 1, "\(result.status) \(result.stderr)")
    #expect(result.stderr == "oauth1: error: cannot write to standard output: No space left on device\n")
  }

  /// `oauth1 sign --example twitter | head -1`, with SIGPIPE's default action or ignored by the
  /// parent (a shell's `trap '' PIPE`, inherited through exec).
  @Test(arguments: [#"exec "$0" "$@""#, #"trap '' PIPE; exec "$0" "$@""#])
  func closedPipeIsQuiet(shell: String) async throws {
    let result = try await run(["sign", "--example", "twitter"], to: .closedPipe, shell: shell)
    #expect(result.signal == SIGPIPE, "\(result.status) \(result.stderr)")
    #expect(result.stderr == "")
  }

  /// Standard error refusing a write loses the message, not the exit status.
  @Test func aFullStandardErrorIsDropped() async throws {
    let result = try await run(["sign", "--no-such-option"], to: .captured, shell: #"exec "$0" "$@" 2>/dev/full"#)
    #expect(result.signal == nil && result.status == 2, "\(result.status)")
  }
}
