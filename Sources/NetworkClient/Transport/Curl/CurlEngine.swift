import CCurl
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One curl multi handle driven by a thread of its own: the transfers of every
/// ``CurlTransport`` that shares it run there together, reusing connections per origin (and
/// multiplexing over HTTP/2 where the server offers it), within a bounded pool.
///
/// Invariants (why this class may be `@unchecked Sendable`):
/// - The multi handle and every easy handle in it are used only on ``thread`` (libcurl's
///   handles are not thread-safe), except `curl_multi_wakeup`, which libcurl documents as
///   callable from any thread.
/// - Other threads talk to the loop only through ``inbox`` (a lock) and `curl_multi_wakeup`.
/// - The loop holds each running transfer in `running` until it has left the multi handle, so
///   curl never calls back into a freed one.
/// - The multi handle is freed only by the loop, after it is told to stop (when the engine is
///   released) and has removed every transfer.
final class CurlEngine: @unchecked Sendable {
  enum Command {
    case add(CurlTransfer)
    case cancel(CurlTransfer, any Error)
    /// The transfer's reader has caught up: let curl deliver again.
    case resume(CurlTransfer)
    case stop
  }

  private let multi: UnsafeMutableRawPointer
  private let inbox = Locked<[Command]>([])
  private let configuration: CurlTransport.Configuration

  init?(configuration: CurlTransport.Configuration) {
    guard CurlLibrary.unavailableReason == nil, let multi = ccurl_multi_init() else { return nil }
    self.multi = multi
    self.configuration = configuration
    _ = ccurl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, configuration.maxConnections)
    _ = ccurl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, configuration.maxConnectionsPerHost)
    _ = ccurl_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
    let loop = Loop(multi: multi, inbox: inbox, configuration: configuration)
    let thread = Thread { loop.run() }
    thread.name = "CurlTransport"
    thread.stackSize = 1 << 20
    thread.start()
  }

  deinit { post(.stop) }

  /// Hands `command` to the loop and wakes it.
  func post(_ command: Command) {
    inbox.withLock { $0.append(command) }
    ccurl_multi_wakeup(multi)
  }

  /// The loop: the only code that touches the multi handle.
  private final class Loop: @unchecked Sendable {
    let multi: UnsafeMutableRawPointer
    let inbox: Locked<[Command]>
    let configuration: CurlTransport.Configuration
    var running: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    /// Easy handles reset after their transfer, for the next one (fewer allocations per request).
    var idle: [UnsafeMutableRawPointer] = []

    init(multi: UnsafeMutableRawPointer, inbox: Locked<[Command]>, configuration: CurlTransport.Configuration) {
      self.multi = multi
      self.inbox = inbox
      self.configuration = configuration
    }

    func run() {
      var stopping = false
      while !stopping || !running.isEmpty {
        for command in inbox.withLock({ commands in
          defer { commands = [] }
          return commands
        }) {
          switch command {
          case .add(let transfer): start(transfer)
          case .cancel(let transfer, let error): end(transfer, error)
          case .resume(let transfer):
            if let easy = transfer.easy, running[easy] != nil, transfer.pausedForReader {
              transfer.pausedForReader = false
              transfer.lastActivity = DispatchTime.now().uptimeNanoseconds
              _ = ccurl_easy_pause(easy, CURLPAUSE_CONT)
            }
          case .stop:
            stopping = true
            for transfer in Array(running.values) { end(transfer, URLError(.cancelled)) }
          }
        }
        var active: Int32 = 0
        _ = ccurl_multi_perform(multi, &active)
        var left: Int32 = 0
        while let message = ccurl_multi_info_read(multi, &left) {
          guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle, let transfer = running[easy] else { continue }
          let code = ccurl_message_result(message)
          end(transfer, code == CURLE_OK ? nil : transfer.failure(code))
        }
        let now = DispatchTime.now().uptimeNanoseconds
        for transfer in running.values where transfer.isStalled(now: now) {
          end(transfer, URLError(.timedOut, userInfo: [NSLocalizedDescriptionKey: "no byte for \(transfer.stallTimeout ?? 0) s"]))
        }
        // Wakes for the network, for `post`, or to look at the stall timers.
        if !stopping || !running.isEmpty { _ = ccurl_multi_poll(multi, nil, 0, running.isEmpty ? 10_000 : 50, nil) }
      }
      for easy in idle { ccurl_easy_cleanup(easy) }
      ccurl_multi_cleanup(multi)
    }

    private func start(_ transfer: CurlTransfer) {
      if case .done = transfer.delivery { return }  // cancelled before it started
      guard let easy = idle.popLast() ?? ccurl_easy_init() else {
        transfer.finish(URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: "curl_easy_init failed"]))
        return
      }
      if let failure = transfer.configure(easy, configuration) {
        recycle(transfer)
        transfer.finish(failure)
        return
      }
      let code = ccurl_multi_add_handle(multi, easy)
      guard code == CURLM_OK else {
        recycle(transfer)
        transfer.finish(URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: String(cString: ccurl_multi_strerror(code))]))
        return
      }
      running[easy] = transfer
    }

    /// Takes the transfer's easy handle back, reset, for the next transfer (or frees it past
    /// the pool's size).
    private func recycle(_ transfer: CurlTransfer) {
      guard let easy = transfer.easy else { return }
      transfer.easy = nil
      ccurl_easy_reset(easy)
      if idle.count < configuration.maxConnections { idle.append(easy) } else { ccurl_easy_cleanup(easy) }
    }

    /// Takes `transfer` out of the multi handle and ends it with `failure` (`nil`: success).
    private func end(_ transfer: CurlTransfer, _ failure: (any Error)?) {
      guard let easy = transfer.easy, running.removeValue(forKey: easy) != nil else {
        // Not started, or already ended: only its waiter may still need an answer.
        transfer.finish(failure)
        return
      }
      ccurl_multi_remove_handle(multi, easy)
      transfer.finish(failure)
      recycle(transfer)
    }
  }
}
