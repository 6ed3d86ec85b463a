import Foundation
import Testing

@testable import TweetsCore

/// Progress goes where it is wanted: a status line on standard error, rewritten in place,
/// whenever standard error is a terminal, whatever standard output is; nothing otherwise.
@Suite("Progress on standard error")
struct ProgressTests {
  @Test func aStatusLineWhenStandardErrorIsATerminal() async throws {
    let result = await InProcessTweets.run(["timeline", "--all", "--format", "jsonl"], errorIsInteractive: true)
    #expect(result.status == 0, "\(result.err)")
    let lines = result.out.split(separator: "\n")
    #expect(lines.count == 180 && lines.allSatisfy { $0.hasPrefix("{") && !$0.contains("\u{1B}") }, "standard output stays clean")
    #expect(result.err.contains("\r\u{1B}[K… 100 tweets, 1 page, "), "\(result.err.debugDescription)")
    #expect(result.err.contains("tweets/s, "))
    #expect(result.err.contains("\r\u{1B}[Kdone: 180 tweets, 2 pages, "), "\(result.err.debugDescription)")
    #expect(result.err.hasSuffix(" s\n"), "the last status stays as a line")
  }

  @Test func nothingWhenStandardErrorIsNotATerminal() async throws {
    let result = await InProcessTweets.run(["timeline", "--all", "--format", "jsonl"], errorIsInteractive: false)
    #expect(result.status == 0)
    #expect(result.err.isEmpty, "\(result.err.debugDescription)")
  }

  @Test func aRateLimitWaitCountsDown() async throws {
    let err = Captured()
    let terminal = Terminal(
      writeOut: { _ in }, writeError: err.append, readLine: { nil }, isInteractive: false, useColor: false, errorIsInteractive: true)
    try await CountdownSleeper(terminal: terminal).sleep(seconds: 1.5)
    #expect(
      err.value == "\r\u{1B}[Kwaiting 2 s … (Ctrl-C to stop)\r\u{1B}[Kwaiting 1 s … (Ctrl-C to stop)\r\u{1B}[K", "\(err.value.debugDescription)")
  }
}
