import Foundation

/// The outcome of a finished child process.
public struct ProcessResult: Sendable {
  public let status: Int32
  public let stdout: String
  public let stderr: String
  /// How long the process ran, from its start to its exit: what a test that times a process
  /// compares (the wait for a slot among ``ProcessRunner/concurrentProcesses`` is not in it).
  public let seconds: Double
  /// The signal that ended the process (its ``status`` is then the signal's number), or `nil`
  /// when it exited: what tells "exit 13" from "killed by SIGPIPE".
  public let signal: Int32?

  public init(status: Int32, stdout: String, stderr: String, seconds: Double, signal: Int32? = nil) {
    self.status = status
    self.stdout = stdout
    self.stderr = stderr
    self.seconds = seconds
    self.signal = signal
  }

  /// ``seconds`` as a `Duration`.
  public var duration: Duration { .milliseconds(Int64((seconds * 1000).rounded())) }
}

/// Where a child's standard output goes.
public enum ChildOutput: Sendable {
  /// A pipe the runner reads to its end: ``ProcessResult/stdout``.
  case captured
  /// The file at this path, opened for writing as it is (a device such as `/dev/full`, where
  /// every write fails with ENOSPC): ``ProcessResult/stdout`` is empty.
  case file(String)
  /// A pipe whose reading end is closed before the child starts, as `| head -1`'s is once
  /// `head` has its line: every write meets EPIPE, or SIGPIPE where that is not ignored.
  case closedPipe
}

/// Runs programs as real child processes, for end-to-end tests and Python peers.
public enum ProcessRunner {
  public enum Failure: Error, CustomStringConvertible {
    case timedOut(String, seconds: Double)
    /// The file given as a child's standard output could not be opened for writing.
    case cannotOpen(String)
    public var description: String {
      switch self {
      case .timedOut(let command, let seconds): return "\(command) did not finish within \(seconds) s and was killed"
      case .cannotOpen(let path): return "cannot open \(path) for writing"
      }
    }
  }

  /// Runs `executable` with `arguments`, writes `stdin` to it, and waits at most `timeout`
  /// seconds. Output is read while the process runs, so a large output cannot block it.
  ///
  /// The wait happens on a thread of its own (`onOwnThread`): a test awaiting a process
  /// holds none of the concurrency pool's threads, which on a 2-core machine are two, and which
  /// the other tests running meanwhile need to resume (a test blocked in a synchronous wait
  /// held one for the whole run of its process, and timed tests beside it saw delays of tens of
  /// seconds).
  public static func run(
    _ executable: URL,
    _ arguments: [String],
    stdin: Data = Data(),
    environment: [String: String]? = nil,
    standardOutput: ChildOutput = .captured,
    timeout: Double = 120
  ) async throws -> ProcessResult {
    try await onOwnThread {
      slots.wait()
      defer { slots.signal() }
      return try runBlocking(
        executable, arguments, stdin: stdin, environment: environment, standardOutput: standardOutput, timeout: timeout)
    }
  }

  /// How many processes ``run(_:_:stdin:environment:standardOutput:timeout:)`` runs at once: two per core.
  /// Awaiting tests no longer hold the concurrency pool's threads, so without a bound every
  /// process test of the suite would start its process at once on a machine of two cores.
  public static let concurrentProcesses = 2 * ProcessInfo.processInfo.activeProcessorCount
  private static let slots = DispatchSemaphore(value: concurrentProcesses)

  /// ``run(_:_:stdin:environment:standardOutput:timeout:)`` for code that cannot await (it
  /// blocks the calling thread until the process ends).
  public static func runBlocking(
    _ executable: URL,
    _ arguments: [String],
    stdin: Data = Data(),
    environment: [String: String]? = nil,
    standardOutput: ChildOutput = .captured,
    timeout: Double = 120
  ) throws -> ProcessResult {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let environment { process.environment = environment }
    let input = Pipe(), output = Pipe(), errors = Pipe()
    process.standardInput = input
    process.standardError = errors
    var read = [(errors, false)]
    // The child's copy of a file or of a pipe's writing end; the parent's is closed once it runs.
    var given: FileHandle?
    switch standardOutput {
    case .captured:
      process.standardOutput = output
      read.append((output, true))
    case .file(let path):
      guard let handle = FileHandle(forWritingAtPath: path) else { throw Failure.cannotOpen(path) }
      process.standardOutput = handle
      given = handle
    case .closedPipe:
      try output.fileHandleForReading.close()
      process.standardOutput = output.fileHandleForWriting
      given = output.fileHandleForWriting
    }

    let collected = Collected()
    let group = DispatchGroup()
    // The reads and the write block until the process closes its end: each on a thread of its
    // own, never on Dispatch's global queue, whose few threads a dozen blocked reads starve
    // (and with them the queue that tells Foundation's Process that a child has exited: a
    // 0.05 s verification was seen "running" for 48 s).
    for (pipe, isOutput) in read {
      group.enter()
      Thread.detachNewThread {
        let data = readToEnd(pipe.fileHandleForReading)
        collected.set(data, isOutput: isOutput)
        group.leave()
      }
    }
    try process.runOneAtATime()
    // From the child's start: not the wait for the start lock and for descriptors.
    let started = Date()
    try? given?.close()
    Thread.detachNewThread {
      input.fileHandleForWriting.write(stdin)
      try? input.fileHandleForWriting.close()
    }
    guard let exit = ChildExit.wait(process, until: Date().addingTimeInterval(timeout)) else {
      process.terminate()
      if ChildExit.wait(process, until: Date().addingTimeInterval(10)) == nil { kill(process.processIdentifier, SIGKILL) }
      throw Failure.timedOut(([executable.lastPathComponent] + arguments).joined(separator: " "), seconds: timeout)
    }
    let seconds = Date().timeIntervalSince(started)
    group.wait()
    return ProcessResult(
      status: exit.code,
      stdout: String(decoding: collected.output, as: UTF8.self),
      stderr: String(decoding: collected.errors, as: UTF8.self), seconds: seconds,
      signal: exit.signal)
  }

  private final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var _output = Data(), _errors = Data()
    func set(_ data: Data, isOutput: Bool) {
      lock.lock()
      defer { lock.unlock() }
      if isOutput { _output = data } else { _errors = data }
    }
    var output: Data {
      lock.lock()
      defer { lock.unlock() }
      return _output
    }
    var errors: Data {
      lock.lock()
      defer { lock.unlock() }
      return _errors
    }
  }
}

/// Everything `handle` yields until end of file. Foundation's `readDataToEndOfFile()` stops
/// the process (a `try!`) when a signal interrupts its read (EINTR, seen under load when child
/// processes exit); this loop reads again instead.
func readToEnd(_ handle: FileHandle) -> Data {
  var data = Data()
  var buffer = [UInt8](repeating: 0, count: 64 * 1024)
  let descriptor = handle.fileDescriptor
  while true {
    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    if count > 0 {
      data.append(contentsOf: buffer[0..<count])
    } else if count < 0 && errno == EINTR {
      continue
    } else {
      return data
    }
  }
}
