import Foundation
import NetworkClient

/// Waits like ``NetworkClient/TaskSleeper`` and, meanwhile, counts down on the terminal's status
/// line (standard error, when it is a terminal): "waiting 37 s …", once a second, cleared when the
/// wait ends. Cancellation still ends the wait at once.
struct CountdownSleeper: Sleeper {
  let terminal: Terminal

  func sleep(seconds: TimeInterval) async throws {
    defer { terminal.status("") }
    var left = seconds
    while left > 0 {
      terminal.status("waiting \(Int(left.rounded(.up))) s … (Ctrl-C to stop)")
      let step = min(left, 1)
      try await Task.sleep(nanoseconds: UInt64(step * 1_000_000_000))
      left -= step
    }
  }
}
