import NetworkClient

/// Holds a stream's reader of the network to its consumer's pace: the posts handed over but not
/// yet taken are counted, and past ``limit`` the reader waits until the consumer has taken
/// them down to half. The reader then stops reading the response, whose ``StreamBuffer`` fills
/// and pauses the transfer, so that TCP slows the server: a consumer slower than the stream (a
/// `tweets stream` whose standard output is not read) costs bounded memory, not 10 MB a second.
///
/// Invariants: the state is only touched under its lock; a waiting reader is resumed exactly
/// once, by the consumer, by ``cancel()``, or by its task's cancellation.
final class StreamPacer: Sendable {
  /// Posts handed over and not yet taken before the reader waits: 64, a few hundred KB.
  static let defaultLimit = 64

  let limit: Int
  private let state = Locked<(pending: Int, waiter: CheckedContinuation<Void, Never>?, cancelled: Bool)>((0, nil, false))

  init(limit: Int = StreamPacer.defaultLimit) { self.limit = max(1, limit) }

  /// Whether the reader is waiting for the consumer (its silence is not the server's).
  var isWaiting: Bool { state.withLock { $0.waiter != nil } }

  /// The reader handed one post over; waits while the consumer is `limit` behind.
  func handedOver() async {
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let wait = state.withLock { state -> Bool in
          state.pending += 1
          guard state.pending >= limit, !state.cancelled else { return false }
          state.waiter = continuation
          return true
        }
        if !wait { continuation.resume() }
      }
    } onCancel: {
      cancel()
    }
  }

  /// The consumer took one post.
  func taken() {
    let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
      state.pending = max(0, state.pending - 1)
      guard state.pending <= limit / 2, let waiter = state.waiter else { return nil }
      state.waiter = nil
      return waiter
    }
    waiter?.resume()
  }

  /// Lets a waiting reader go, and every later one pass (the consumer is gone).
  func cancel() {
    let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
      state.cancelled = true
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume()
  }
}
