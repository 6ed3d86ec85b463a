import Foundation
import NetworkClient

/// SIGINT and SIGTERM as a cancellation: a fetch that stores what it gets stops where it is,
/// records how far it got and closes its files, instead of dying with them open.
///
/// Installed only around such work (a fetch into `--db`, `--output`): elsewhere the signals keep
/// their default action, so Ctrl-C at a prompt ends `tweets` at once.
enum Interruption {
  /// The work was stopped by a signal; the caller exits 128 + its number.
  struct Stopped: Error, CustomStringConvertible {
    let signal: Int32
    var exitCode: ExitCode { signal == SIGTERM ? .terminated : .interrupted }
    var description: String { "stopped by \(signal == SIGTERM ? "SIGTERM" : "SIGINT")" }
  }

  /// Runs `body` in a task that SIGINT or SIGTERM cancels (and the end of `duration` seconds,
  /// when given: `tweets stream --duration`), waits for it to finish (its cleanup included),
  /// then throws ``Stopped`` if a signal came, or returns what `body` did.
  static func cancelling<Result: Sendable>(after duration: Double? = nil, _ body: @escaping @Sendable () async throws -> Result) async throws
    -> Result
  {
    let received = Locked<Int32?>(nil)
    let task = Task { try await body() }
    let timer = duration.map { seconds in
      Task {
        try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
        task.cancel()
      }
    }
    defer { timer?.cancel() }
    let signals = [SIGINT, SIGTERM]
    let sources = signals.map { number in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler {
        received.withLock { $0 = $0 ?? number }
        task.cancel()
      }
      source.resume()
      return source
    }
    defer {
      for source in sources { source.cancel() }
      for number in signals { signal(number, SIG_DFL) }
    }
    let result = await task.result
    if let number = received.withLock({ $0 }) { throw Stopped(signal: number) }
    return try result.get()
  }
}
