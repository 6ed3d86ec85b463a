import Foundation
import Testing

/// `tweets sandbox serve` as a child process (a ``LoopbackServer``), with every answer it sends
/// logged (`--record-exchanges`) and checked against X's OpenAPI specification (``SpecCheck``)
/// when it stops: an answer outside X's schemas fails the test that was running, with the
/// checker's report, and its log is kept to read. The one way the tests start the sandbox as a
/// process: ``VerifiedSandbox`` runs one behind its oauthlib proxy, and tests of the command
/// itself run one bare.
///
/// ```swift
/// let server = try SandboxProcess(["--tweets-per-user", "5"])
/// defer { server.stop() }  // checks every answer it sent
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

  /// Starts `tweets sandbox serve --port 0` with `arguments`, logging its answers.
  public init(_ arguments: [String]) throws {
    let log = FileManager.default.temporaryDirectory.appendingPathComponent("sandbox-answers-\(UUID().uuidString).jsonl")
    exchangeLog = log
    server = try LoopbackServer(
      executable: PackagePaths.executable("tweets"), arguments: ["sandbox", "serve", "--port", "0", "--record-exchanges", log.path] + arguments)
  }

  deinit { stop() }

  /// Stops the server; then, the first time, checks every answer it sent against X's
  /// specification and records an issue in the running test for any outside X's schemas.
  public func stop() {
    server.stop()
    let first = stopped.withLock {
      defer { isStopped = true }
      return !isStopped
    }
    guard first else { return }
    do {
      let (outside, report) = try SpecCheck.check(exchangeLog)
      guard outside > 0 else { return try FileManager.default.removeItem(at: exchangeLog) }
      Issue.record(Comment(rawValue: "The sandbox answered outside X's OpenAPI specification (its answers: \(exchangeLog.path)):\n\(report)"))
    } catch {
      Issue.record(Comment(rawValue: "The check of the sandbox's answers against X's OpenAPI specification failed: \(error)"))
    }
  }
}
