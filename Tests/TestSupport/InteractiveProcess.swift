import Foundation

/// A child process a test talks to while it runs: read what it printed so far, answer on its
/// standard input, then wait for it to finish (for prompts such as a login PIN).
public final class InteractiveProcess: @unchecked Sendable {
  private let process = Process()
  /// When the process was started.
  private let started = Date()
  private let input = Pipe(), output = Pipe(), errors = Pipe()
  private let lock = NSLock()
  private var out = Data(), err = Data()
  private let finished = DispatchGroup()

  public init(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil) throws {
    process.executableURL = executable
    process.arguments = arguments
    if let environment { process.environment = environment }
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    for (pipe, isOutput) in [(output, true), (errors, false)] {
      finished.enter()
      pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
        let data = handle.availableData
        guard let self else { return }
        if data.isEmpty {
          handle.readabilityHandler = nil
          self.finished.leave()
          return
        }
        self.lock.withLock { if isOutput { self.out.append(data) } else { self.err.append(data) } }
      }
    }
    try process.runOneAtATime()
  }

  public var stdout: String { lock.withLock { String(decoding: out, as: UTF8.self) } }
  /// The child's process id, to signal it.
  public var pid: Int32 { process.processIdentifier }
  public var stderr: String { lock.withLock { String(decoding: err, as: UTF8.self) } }

  /// Waits (at most `timeout` seconds) until standard error contains `text`. It polls on a
  /// thread of its own, holding no thread of the concurrency pool: polled from the pool, a
  /// loaded run saw the deadline pass while the pool was busy and the prompt, which had come,
  /// was reported missing. The text is looked for once more at the deadline.
  public func waitForError(containing text: String, timeout: TimeInterval = TestTiming.seconds(120)) async -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    let found = try? await onOwnThread { () -> Bool in
      while Date() < deadline {
        if self.stderr.contains(text) { return true }
        if !self.process.isRunning { break }
        usleep(10_000)
      }
      return self.stderr.contains(text)
    }
    return found ?? stderr.contains(text)
  }

  public func send(_ line: String) {
    input.fileHandleForWriting.write(Data((line + "\n").utf8))
  }

  /// Closes standard input and waits for the exit; kills the process after `timeout` seconds.
  /// The wait blocks a thread of its own, never one of the concurrency pool's.
  public func wait(timeout: TimeInterval = 60) async -> ProcessResult {
    await withCheckedContinuation { continuation in
      Thread { continuation.resume(returning: self.waitBlocking(timeout: timeout)) }.start()
    }
  }

  /// ``wait(timeout:)`` for code that cannot await (it blocks the calling thread).
  public func waitBlocking(timeout: TimeInterval = 60) -> ProcessResult {
    try? input.fileHandleForWriting.close()
    var exit = ChildExit.wait(process, until: Date().addingTimeInterval(timeout))
    if exit == nil {
      process.terminate()
      exit = ChildExit.wait(process, until: Date().addingTimeInterval(10))
      if exit == nil {
        kill(process.processIdentifier, SIGKILL)
        exit = ChildExit.wait(process, until: Date().addingTimeInterval(60))
      }
    }
    _ = finished.wait(timeout: .now() + 5)
    return ProcessResult(
      status: exit?.code ?? SIGKILL, stdout: stdout, stderr: stderr, seconds: Date().timeIntervalSince(started),
      signal: exit?.signal ?? SIGKILL)
  }
}
