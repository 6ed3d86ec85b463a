import Foundation
import Locking

/// `poolSize` threads of its own, each with one connection, taking commands from one queue.
///
/// Socket I/O blocks (bounded by the timeouts), so it runs here and never on Swift's
/// cooperative thread pool, whose few threads would otherwise wait on Redis while verifications
/// that need no I/O queue behind them. An async caller is suspended, not blocked, until a
/// thread answers.
///
/// A thread (re)connects when it has no connection or finds it stale (Redis restarted), and
/// drops its connection after any failure, so the next command reconnects.
final class RedisConnectionPool: Sendable {
  private struct Job {
    let command: [String]
    /// The command timeout from when it was asked for: its wait in the queue counts.
    let deadline: Date
    let continuation: CheckedContinuation<RESP.Reply, any Error>
  }

  let configuration: RedisConfiguration
  /// For `rediss://`: the TLS context every connection shares, or why it could not be made
  /// (each command then fails with that error).
  private let tls: Result<TLSClientContext, RedisNonceStoreError>?
  /// The queue the threads wait on (`Locked` wakes them on every change).
  private let queue = Locked(Queue())

  /// The commands not yet taken by a thread, in order, and whether the pool is shut down.
  private struct Queue {
    var jobs: [Job] = []
    var head = 0
    var closed = false

    /// Whether a thread has something to do: a job, or to stop.
    var isReady: Bool { head < jobs.count || closed }
  }

  init(_ configuration: RedisConfiguration) {
    self.configuration = configuration
    tls =
      configuration.useTLS
      ? Result { () throws(RedisNonceStoreError) in
        try TLSClientContext(caFile: configuration.tlsCAFile, certificateFile: configuration.tlsCertificateFile, keyFile: configuration.tlsKeyFile)
      } : nil
    for index in 0..<max(1, configuration.poolSize) {
      let thread = Thread { [self] in work() }
      thread.name = "oauth1-redis-\(index)"
      thread.start()
    }
  }

  /// Runs `command` on a pool thread and returns Redis's reply (an error reply included).
  func run(_ command: [String]) async throws -> RESP.Reply {
    let deadline = Date().addingTimeInterval(configuration.commandTimeout)
    let limit = max(1, configuration.maximumQueuedCommands)
    return try await withCheckedThrowingContinuation { continuation in
      let refusal: RedisNonceStoreError? = queue.withLock { queue in
        guard !queue.closed else { return .shutDown }
        guard queue.jobs.count - queue.head < limit else { return .overloaded(queued: limit) }
        queue.jobs.append(Job(command: command, deadline: deadline, continuation: continuation))
        return nil
      }
      if let refusal { continuation.resume(throwing: refusal) }
    }
  }

  /// Stops the threads once the commands already queued are answered with ``RedisNonceStoreError/shutDown``; new ones are refused.
  func shutDown() {
    let pending: [Job] = queue.withLock { queue in
      queue.closed = true
      let rest = Array(queue.jobs[queue.head...])
      queue.jobs = []
      queue.head = 0
      return rest
    }
    for job in pending { job.continuation.resume(throwing: RedisNonceStoreError.shutDown) }
  }

  private func next() -> Job? {
    queue.withLock(waitingUntil: \.isReady) { queue in
      guard queue.head < queue.jobs.count else { return nil }
      let job = queue.jobs[queue.head]
      queue.head += 1
      if queue.head > 256 && queue.head * 2 > queue.jobs.count {
        queue.jobs.removeFirst(queue.head)
        queue.head = 0
      }
      return job
    }
  }

  private func work() {
    var connection: RedisConnection?
    while let job = next() {
      guard job.deadline.timeIntervalSinceNow > 0 else {
        // It waited its whole timeout for a connection: fail closed without sending it.
        job.continuation.resume(
          throwing: RedisNonceStoreError.timedOut(
            host: configuration.host, port: configuration.port, operation: "\(job.command.first ?? "") (waiting for a connection)",
            seconds: configuration.commandTimeout))
        continue
      }
      do {
        if let open = connection, open.isStale {
          open.close()
          connection = nil
        }
        let current = try connection ?? RedisConnection(configuration, tlsContext: tls?.get())
        connection = current
        job.continuation.resume(returning: try current.send(job.command, until: job.deadline))
      } catch {
        connection?.close()
        connection = nil
        job.continuation.resume(throwing: error)
      }
    }
    connection?.close()
  }
}
