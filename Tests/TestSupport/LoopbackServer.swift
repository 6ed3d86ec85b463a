import Foundation

/// A server run as a child process on a free loopback port, for tests that need a real HTTP
/// peer: a script from `Tests/Peers`, or a built executable (`tweets sandbox serve`). It exits
/// on its own when the tests' process goes away (its stdin closes), so a crashed test run leaves
/// nothing behind; a script's `lifetime` is stretched by `TEST_TIME_SCALE`, so that a server
/// outlives a suite the sanitizers slow down (it exited after 300 s under ThreadSanitizer).
public final class LoopbackServer: @unchecked Sendable {
  public let port: Int
  public let host: String
  private let process: Process
  private let stdin: Pipe
  /// The server's process id, to watch its memory or signal it.
  public var processIdentifier: Int32 { process.processIdentifier }
  /// Whether the server's process is still running (a crash ends it).
  public var isRunning: Bool { process.isRunning }
  /// What it printed on standard output up to the line that named its port (`control token:
  /// TOKEN`, for the sandbox).
  public let output: String

  /// The base URL, `http://127.0.0.1:PORT` (brackets for IPv6).
  public var baseURL: URL {
    URL(string: "http://\(host.contains(":") ? "[\(host)]" : host):\(port)")!
  }

  public struct Failure: Error, CustomStringConvertible {
    public let description: String
  }

  /// Starts `Tests/Peers/<script>` with `arguments` and waits (at most `startTimeout` seconds)
  /// for its `PORT n` line.
  public convenience init(
    script: String, arguments: [String] = [], host: String = "127.0.0.1", environment: [String: String] = [:],
    lifetime: Int = 300, startTimeout: TimeInterval = 30
  ) throws {
    try self.init(
      executable: URL(fileURLWithPath: "/usr/bin/env"),
      arguments: [
        "python3", "-s", PackagePaths.peers.appendingPathComponent(script).path, "--host", host, "--lifetime",
        String(Int(TestTiming.seconds(Double(lifetime)))),
      ]
        + arguments, host: host, environment: environment, startTimeout: startTimeout)
  }

  /// ``init(script:arguments:host:environment:lifetime:startTimeout:)`` for an async test: the
  /// wait for the server's port (a Python start, seconds on a busy machine) runs on a thread of
  /// its own, not on one of the concurrency pool's few threads that every other test shares.
  public static func start(
    script: String, arguments: [String] = [], host: String = "127.0.0.1", environment: [String: String] = [:], lifetime: Int = 300
  ) async throws -> LoopbackServer {
    try await onOwnThread { try LoopbackServer(script: script, arguments: arguments, host: host, environment: environment, lifetime: lifetime) }
  }

  /// ``init(executable:arguments:host:environment:startTimeout:)`` for an async test: the wait
  /// for the server's port runs on a thread of its own, as in
  /// ``start(script:arguments:host:environment:lifetime:)``.
  public static func start(
    executable: URL, arguments: [String], host: String = "127.0.0.1", environment: [String: String] = [:]
  ) async throws -> LoopbackServer {
    try await onOwnThread { try LoopbackServer(executable: executable, arguments: arguments, host: host, environment: environment) }
  }

  /// Starts `executable` with `arguments` and waits (at most `startTimeout` seconds) for a line
  /// that names its port: `PORT n`, or its URL `http://HOST:n`.
  public init(
    executable: URL, arguments: [String], host: String = "127.0.0.1", environment: [String: String] = [:],
    startTimeout: TimeInterval = 30
  ) throws {
    // At most `concurrentStarts` servers start at once: started off the pool, every test's
    // servers would otherwise start together, hundreds of processes and their pipes at once.
    LoopbackServer.starts.wait()
    defer { LoopbackServer.starts.signal() }
    let name = arguments.first { $0.hasSuffix(".py") }.map { URL(fileURLWithPath: $0).lastPathComponent } ?? executable.lastPathComponent
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["PYTHONUNBUFFERED"] = "1"
    for (key, value) in environment { env[key] = value }
    process.environment = env
    let stdin = Pipe(), stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    try process.runOneAtATime()

    var buffer = Data()
    let deadline = Date().addingTimeInterval(startTimeout)
    var port: Int?
    let reader = stdout.fileHandleForReading
    while port == nil && Date() < deadline && process.isRunning {
      let chunk = reader.availableData
      if chunk.isEmpty { break }
      buffer.append(chunk)
      let text = String(decoding: buffer, as: UTF8.self)
      for line in text.split(separator: "\n") {
        if line.hasPrefix("PORT ") {
          port = Int(line.dropFirst(5).trimmingCharacters(in: .whitespaces))
        } else if let range = line.range(of: "http://\(host):") {
          port = Int(line[range.upperBound...].prefix { $0.isNumber })
        }
      }
    }
    guard let port else {
      process.terminate()
      throw Failure(description: "\(name) did not report its port within \(startTimeout) s; output: \(String(decoding: buffer, as: UTF8.self))")
    }
    self.port = port
    self.host = host
    self.output = String(decoding: buffer, as: UTF8.self)
    self.process = process
    self.stdin = stdin
  }

  /// A loopback port that was free just now (a server listened on it and stopped), for a
  /// program that must listen on a port it is told, such as a registered redirect URI.
  public static func freePort() throws -> Int {
    let probe = try LoopbackServer(script: "loopback_server.py", lifetime: 10)
    defer { probe.waitForExit() }
    return probe.port
  }

  /// Asks the server to stop (its stdin closed, SIGTERM) and returns at once: a thread of its
  /// own waits for the exit, and kills the process if it is still there after
  /// ``killAfter`` seconds. Called from a `defer` or a `deinit` at the end of an async test, a
  /// wait here held one of the concurrency pool's two threads; two tests ending together held
  /// both, for as long as Foundation took to notice the exits on a loaded machine (a test
  /// beside them measured 201 s for a cancellation), or for ever when it missed one
  /// (``ChildExit``). A test that needs the process gone (its
  /// port closed, its log complete) awaits ``stopAndWait()``.
  public func stop() {
    let first = exit.withLock { state in
      defer { state.stopping = true }
      return !state.stopping
    }
    guard first else { return }
    try? stdin.fileHandleForWriting.close()
    if process.isRunning { process.terminate() }
    let process = process, exit = exit, pid = process.processIdentifier
    let reaper = Thread {
      if ChildExit.wait(process, until: Date().addingTimeInterval(LoopbackServer.killAfter)) == nil {
        kill(pid, SIGKILL)
        _ = ChildExit.wait(process, until: Date().addingTimeInterval(60))
      }
      exit.withLock { $0.exited = true }
      exit.broadcast()
    }
    reaper.start()
  }

  /// How many servers may be starting at once: two per core, as ``ProcessRunner`` runs.
  public static let concurrentStarts = 2 * ProcessInfo.processInfo.activeProcessorCount
  private static let starts = DispatchSemaphore(value: concurrentStarts)

  /// How long a stopped server has to exit after SIGTERM before it is killed.
  public static let killAfter: TimeInterval = 10

  /// Stops the server and waits, on a thread of its own, until its process has exited.
  public func stopAndWait() async {
    stop()
    _ = try? await onOwnThread { self.waitForExit() }
  }

  /// Blocks until the process of a stopped server has exited: for code already on a thread of
  /// its own (``SandboxProcess`` reads its log after).
  public func waitForExit() {
    stop()
    exit.wait { $0.exited }
  }

  private let exit = ExitState()

  /// Whether ``stop()`` ran, and whether the process has exited since.
  private final class ExitState: @unchecked Sendable {
    struct Value {
      var stopping = false
      var exited = false
    }
    private let condition = NSCondition()
    private var value = Value()

    func withLock<T>(_ body: (inout Value) -> T) -> T {
      condition.lock()
      defer { condition.unlock() }
      return body(&value)
    }

    func broadcast() {
      condition.lock()
      condition.broadcast()
      condition.unlock()
    }

    func wait(until isDone: (Value) -> Bool) {
      condition.lock()
      defer { condition.unlock() }
      while !isDone(value) { condition.wait() }
    }
  }

  deinit { stop() }
}
