import Foundation

/// The outcome of a finished child process.
public struct ProcessResult: Sendable {
  public let status: Int32
  public let stdout: String
  public let stderr: String
}

/// Runs programs as real child processes, for end-to-end tests and Python peers.
public enum ProcessRunner {
  public enum Failure: Error, CustomStringConvertible {
    case timedOut(String, seconds: Double)
    public var description: String {
      switch self {
      case .timedOut(let command, let seconds): return "\(command) did not finish within \(seconds) s and was killed"
      }
    }
  }

  /// Runs `executable` with `arguments`, writes `stdin` to it, and waits at most `timeout`
  /// seconds. Output is read while the process runs, so a large output cannot block it.
  public static func run(
    _ executable: URL,
    _ arguments: [String],
    stdin: Data = Data(),
    environment: [String: String]? = nil,
    timeout: Double = 120
  ) throws -> ProcessResult {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let environment { process.environment = environment }
    let input = Pipe(), output = Pipe(), errors = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors

    let collected = Collected()
    let group = DispatchGroup()
    for (pipe, isOutput) in [(output, true), (errors, false)] {
      group.enter()
      DispatchQueue.global().async {
        let data = readToEnd(pipe.fileHandleForReading)
        collected.set(data, isOutput: isOutput)
        group.leave()
      }
    }
    try process.run()
    DispatchQueue.global().async {
      input.fileHandleForWriting.write(stdin)
      try? input.fileHandleForWriting.close()
    }
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { usleep(5_000) }
    if process.isRunning {
      process.terminate()
      process.waitUntilExit()
      throw Failure.timedOut(([executable.lastPathComponent] + arguments).joined(separator: " "), seconds: timeout)
    }
    process.waitUntilExit()
    group.wait()
    return ProcessResult(
      status: process.terminationStatus,
      stdout: String(decoding: collected.output, as: UTF8.self),
      stderr: String(decoding: collected.errors, as: UTF8.self))
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
