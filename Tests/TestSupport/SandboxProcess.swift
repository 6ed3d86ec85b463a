import Foundation
import Testing

/// `tweets sandbox serve` as a child process (a ``LoopbackServer``), with every answer it sends
/// logged (`--record-exchanges`) and checked against X's OpenAPI specification (``SpecCheck``)
/// when the test that started it ends (``SandboxChecks``): an answer outside X's schemas fails the test that was running, with the
/// checker's report, and its log is kept to read. The one way the tests start the sandbox as a
/// process: ``VerifiedSandbox`` runs one behind its oauthlib proxy, and tests of the command
/// itself run one bare.
///
/// ```swift
/// let server = try await SandboxProcess.start(["--tweets-per-user", "5"])
/// // every answer it sent is checked when the test ends (the suite has `.sandboxChecks`)
/// ```
public final class SandboxProcess: @unchecked Sendable {
  private let server: LoopbackServer
  /// The file the sandbox appends every answer to, as JSON lines.
  public let exchangeLog: URL
  private let stopped = NSLock()
  private var isStopped = false

  /// The port it listens on, on 127.0.0.1.
  public var port: Int { server.port }
  /// `http://127.0.0.1:PORT`.
  public var baseURL: URL { server.baseURL }
  /// What it printed up to its URL line (`control token: TOKEN` first, with `--control`).
  public var output: String { server.output }
  /// Whether the process still runs (a crash ends it).
  public var isRunning: Bool { server.isRunning }
  /// The process's id, to watch its memory.
  public var processIdentifier: Int32 { server.processIdentifier }

  /// Starts `tweets sandbox serve --port 0` with `arguments`, logging its answers, and hands it
  /// to the running test's ``SandboxChecks``. It blocks until the server prints its port: an
  /// async test calls ``start(_:)``.
  public convenience init(_ arguments: [String]) throws {
    try self.init(arguments, adopted: true)
  }

  /// ``init(_:)`` for an async test: the wait for the server's port (seconds on a busy machine)
  /// runs on a thread of its own, not on one of the concurrency pool's few threads.
  public static func start(_ arguments: [String]) async throws -> SandboxProcess {
    let process = try await onOwnThread { try SandboxProcess(arguments, adopted: false) }
    SandboxChecks.adopt(process)
    return process
  }

  /// `adopted`: whether to hand it to the test's ``SandboxChecks`` here (a caller that makes it
  /// on another thread, where the test is not known, hands it over itself).
  init(_ arguments: [String], adopted: Bool) throws {
    let log = FileManager.default.temporaryDirectory.appendingPathComponent("sandbox-answers-\(UUID().uuidString).jsonl")
    exchangeLog = log
    server = try LoopbackServer(
      executable: PackagePaths.executable("tweets"), arguments: ["sandbox", "serve", "--port", "0", "--record-exchanges", log.path] + arguments)
    if adopted { SandboxChecks.adopt(self) }
  }

  /// A sandbox that no test's ``SandboxChecks`` checked (one started outside the trait) is
  /// checked here, on the thread that drops it.
  deinit {
    if let finding = stopAndCheck() { Issue.record(Comment(rawValue: finding)) }
  }

  /// Asks the server to stop and returns at once (``LoopbackServer/stop()``); ``stopAndWait()``
  /// waits until nothing can reach it. Its answers are checked when the test ends
  /// (``SandboxChecks``).
  public func stop() {
    server.stop()
  }

  /// Stops the server and waits, off the concurrency pool, until it has exited: nothing can
  /// reach it any more.
  public func stopAndWait() async {
    await server.stopAndWait()
  }

  /// Stops the server; then, the first time, checks every answer it sent against X's
  /// specification: `nil` when every answer is inside X's schemas (or it was checked before),
  /// otherwise what to record. It blocks for the check: ``SandboxChecks`` calls it on a thread of
  /// its own.
  func stopAndCheck() -> String? {
    server.waitForExit()  // its log is complete
    let first = stopped.withLock {
      defer { isStopped = true }
      return !isStopped
    }
    guard first else { return nil }
    do {
      let (outside, report) = try SpecCheck.check(exchangeLog)
      guard outside > 0 else {
        try? FileManager.default.removeItem(at: exchangeLog)
        return nil
      }
      return "The sandbox answered outside X's OpenAPI specification (its answers: \(exchangeLog.path)):\n\(report)"
    } catch {
      return "The check of the sandbox's answers against X's OpenAPI specification failed: \(error)"
    }
  }
}
