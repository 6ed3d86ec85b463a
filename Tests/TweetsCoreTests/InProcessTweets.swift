import Foundation
import XSandbox
import tweets

@testable import TweetsCore

/// Text written through a ``Terminal``, kept for a test to read. Safe to share.
final class Captured: @unchecked Sendable {
  private let lock = NSLock()
  private var text = ""
  func append(_ more: String) { lock.withLock { text += more } }
  var value: String { lock.withLock { text } }
}

/// Lines a test feeds to standard input, one per `readLine`. Safe to share.
final class InputLines: @unchecked Sendable {
  private let lock = NSLock()
  private var lines: [String]
  init(_ lines: [String]) { self.lines = lines }
  func next() -> String? { lock.withLock { lines.isEmpty ? nil : lines.removeFirst() } }
}

/// `tweets` run in this process against the built-in sandbox (XSandbox, handed in as the
/// `tweets` executable hands it, whose conformance this imports), with a fresh configuration folder
/// and a terminal double: what it wrote to each stream, and its exit status.
enum InProcessTweets {
  static func run(
    _ arguments: [String], stdin: [String] = [], errorIsInteractive: Bool = false
  ) async -> (status: Int32, out: String, err: String) {
    let out = Captured(), err = Captured(), input = InputLines(stdin)
    let terminal = Terminal(
      writeOut: out.append, writeError: err.append, readLine: input.next, isInteractive: false, useColor: false,
      errorIsInteractive: errorIsInteractive)
    let config = FileManager.default.temporaryDirectory.appendingPathComponent("tweets-test-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: config) }
    let status = await TweetsCLI.run(
      arguments + ["--sandbox", "--config-dir", config.path], environment: [:], terminal: terminal, sandbox: XSandbox.self)
    return (status, out.value, err.value)
  }

  /// The JSON values of JSON Lines output (lines that do not parse are skipped).
  static func objects(_ jsonl: String) -> [[String: Any]] {
    jsonl.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
  }
}
