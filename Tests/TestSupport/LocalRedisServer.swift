import Foundation
import Locking
import Loopback

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A throwaway `redis-server` on a free loopback port, with no persistence and its files in a
/// temporary folder, for the Redis nonce store's tests and benchmark. Stopped (and its folder
/// removed) by ``stop()`` or when released; ``restart()`` starts it again on the same port, empty.
///
/// ```swift
/// let redis = try LocalRedisServer(arguments: ["--requirepass", "s3cret"])
/// print(redis.url)  // redis://127.0.0.1:PORT
/// redis.stop()
/// ```
package final class LocalRedisServer: Sendable {
  /// Why the server could not start.
  package struct Failure: Error, Sendable, CustomStringConvertible {
    /// What failed, and the end of the server's log when there is one.
    package let description: String
  }

  /// The port it listens on, on 127.0.0.1.
  package let port: UInt16
  /// The extra arguments it was started with (`--requirepass`, `--user`).
  package let arguments: [String]
  /// The TLS arguments (`--tls-cert-file` ...), when ``port`` is a TLS port; `nil` for plain TCP.
  package let tls: [String]?
  /// Its working folder (and log).
  package let folder: URL
  /// The running server, `nil` once stopped.
  private let process: Locked<Process?>

  /// `redis-server` on the `PATH` (or `/usr/bin`, `/usr/local/bin`, `/opt/homebrew/bin`), or `nil` where it is not installed.
  package static var executable: URL? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    let folders = path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"]
    return folders.lazy.map { URL(fileURLWithPath: $0).appendingPathComponent("redis-server") }
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }

  /// The server's version (`7.0.15`), or `nil` when it is not installed.
  package static var version: String? {
    guard let executable else { return nil }
    let process = Process()
    process.executableURL = executable
    process.arguments = ["--version"]
    let pipe = Pipe()
    process.standardOutput = pipe
    guard (try? process.runOneAtATime()) != nil else { return nil }
    let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    _ = ChildExit.wait(process, until: Date().addingTimeInterval(60))
    return text.split(separator: " ").first { $0.hasPrefix("v=") }.map { String($0.dropFirst(2)) }
  }

  /// Starts `redis-server --port N --save '' --appendonly no --dir FOLDER` with `arguments` after,
  /// on a free port, and waits until it accepts connections. With `tls` (`--tls-cert-file`,
  /// `--tls-key-file`, `--tls-ca-cert-file`, ...), N is a TLS port and there is no plain one.
  package init(arguments: [String] = [], tls: [String]? = nil) throws(Failure) {
    guard Self.executable != nil else { throw Failure(description: "redis-server is not installed (apt-get install redis-server)") }
    self.arguments = arguments
    self.tls = tls
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("oauth1-redis-\(UUID().uuidString)")
    do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
      throw Failure(description: "cannot create \(folder.path): \(error)")
    }
    var lastFailure = Failure(description: "no attempt")
    // A port free a moment ago can be taken before the server binds it: try a few.
    for _ in 0..<5 {
      let candidate: UInt16
      do {
        let listener = try LoopbackListener(port: 0)
        candidate = listener.port
        listener.close()
      } catch {
        throw Failure(description: "cannot find a free port: \(error)")
      }
      do {
        let started = try Self.launch(port: candidate, arguments: arguments, tls: tls, folder: folder)
        port = candidate
        process = Locked(started)
        return
      } catch {
        lastFailure = error
      }
    }
    throw lastFailure
  }

  deinit {
    stop()
    try? FileManager.default.removeItem(at: folder)
  }

  /// `redis://127.0.0.1:PORT` (`rediss://` for a TLS port), without credentials.
  package var url: String { "\(tls == nil ? "redis" : "rediss")://127.0.0.1:\(port)" }

  /// Whether the server process is running.
  package var isRunning: Bool { process.withLock { $0?.isRunning ?? false } }

  /// Stops the server (SIGTERM, then SIGKILL after half a second) and waits for it to exit.
  /// A child of a test runner can inherit a signal mask that blocks SIGTERM; with no
  /// persistence, killing it loses nothing.
  package func stop() {
    guard
      let running = process.withLock({ process -> Process? in
        defer { process = nil }
        return process
      })
    else { return }
    guard running.isRunning else { return }
    running.terminate()
    if ChildExit.wait(running, until: Date().addingTimeInterval(0.5)) == nil {
      kill(running.processIdentifier, SIGKILL)
      _ = ChildExit.wait(running, until: Date().addingTimeInterval(60))
    }
  }

  /// Starts the server again on the same port with the same arguments, empty (no persistence).
  package func restart() throws(Failure) {
    stop()
    var lastFailure = Failure(description: "no attempt")
    // The old socket may linger for a moment.
    for _ in 0..<20 {
      do {
        let started = try Self.launch(port: port, arguments: arguments, tls: tls, folder: folder)
        process.withLock { $0 = started }
        return
      } catch {
        lastFailure = error
        usleep(100_000)
      }
    }
    throw lastFailure
  }

  private static func launch(port: UInt16, arguments: [String], tls: [String]?, folder: URL) throws(Failure) -> Process {
    let process = Process()
    process.executableURL = executable
    let ports = tls.map { ["--port", "0", "--tls-port", String(port)] + $0 } ?? ["--port", String(port)]
    process.arguments = ports + ["--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", folder.path] + arguments
    let log = folder.appendingPathComponent("redis.log")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    let handle = try? FileHandle(forWritingTo: log)
    process.standardOutput = handle ?? FileHandle.nullDevice
    process.standardError = handle ?? FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    do { try process.runOneAtATime() } catch { throw Failure(description: "cannot start redis-server: \(error)") }
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline {
      if let exit = ChildExit.wait(process, until: Date()) {
        throw Failure(description: "redis-server exited with status \(exit.code): \(tail(of: log))")
      }
      if accepts(port: port) { return process }
      usleep(20_000)
    }
    process.terminate()
    _ = ChildExit.wait(process, until: Date().addingTimeInterval(60))
    throw Failure(description: "redis-server did not accept connections on port \(port) within 10 s: \(tail(of: log))")
  }

  private static func tail(of log: URL) -> String {
    let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").suffix(3).joined(separator: " | ")
  }

  /// Whether something accepts TCP connections on 127.0.0.1:`port`.
  private static func accepts(port: UInt16) -> Bool {
    #if canImport(Glibc)
      let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { return false }
    defer { closeDescriptor(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let length = socklen_t(MemoryLayout<sockaddr_in>.size)
    return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, length) } } == 0
  }
}
