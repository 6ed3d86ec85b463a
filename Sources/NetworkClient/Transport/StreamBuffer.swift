import Foundation

/// The body of a streamed response between the transport that receives it and the task that
/// reads it, with backpressure: it holds about ``limit`` bytes, and past that the transport stops
/// reading from the network (``CurlTransport`` pauses the transfer) until the reader has taken
/// the buffer down to half, so that a reader slower than the network lets TCP's flow control slow
/// the server instead of growing memory without bound. A transport that cannot pause
/// (``URLSessionTransport``) is cut off at ``hardLimit`` instead.
///
/// Both streaming transports hand their bodies out through it; a custom transport can too:
///
/// ```swift
/// let buffer = StreamBuffer(onResume: { resumeReading() }, onCancel: { hangUp() })
/// // on the network's thread:
/// if !buffer.push(chunk) { pauseReading() }
/// // and for the reader:
/// HTTPStreamingResponse(statusCode: 200, headers: headers, body: buffer.stream, cancel: hangUp)
/// ```
///
/// Invariants: the state is only touched under its lock; `onResume` and `onCancel` are called
/// outside it (they post to the transport's own thread or queue).
public final class StreamBuffer: Sendable {
  /// The bytes held before the transport is asked to pause: 1 MiB, a few hundred posts of X's
  /// filtered stream, and 0.1 s of a 10 MB/s link, so that pauses are rare for a reader that
  /// keeps up.
  public static let defaultLimit = 1 << 20

  /// The bytes held before the transport pauses; it resumes when the reader has taken the
  /// buffer down to half of this.
  public let limit: Int
  /// The bytes held at the most, whatever the transport still delivers after it was asked to
  /// pause: 64 times ``limit`` (64 MiB by default). Past it the body ends with
  /// ``ReaderTooSlow`` and the connection is closed, so that memory stays bounded where the
  /// transport cannot pause (``URLSessionTransport``: FoundationNetworking cannot pace a data
  /// task); libcurl's pause takes effect at once and never gets there.
  public var hardLimit: Int { limit.multipliedReportingOverflow(by: 64).overflow ? Int.max : limit * 64 }

  /// The error a body ends with when its reader fell behind by more than ``hardLimit`` bytes.
  public struct ReaderTooSlow: Error, CustomStringConvertible {
    /// The bytes that were held.
    public let bufferedBytes: Int
    /// What happened and what to do.
    public var description: String {
      "the reader fell behind the stream by \(bufferedBytes) bytes, past the buffer's hard limit: the connection was closed; read faster, or reconnect"
    }
  }
  private let onResume: @Sendable () -> Void
  private let onCancel: @Sendable () -> Void
  private let state = Locked(State())

  private struct State {
    var chunks: [Data] = []
    var next = 0
    var bytes = 0
    var paused = false
    var end: Result<Void, any Error>?
    var waiter: CheckedContinuation<Data?, any Error>?
    var readerGone = false
  }

  /// A buffer of `limit` bytes; `onResume` is called when a paused producer may go on,
  /// `onCancel` when the reader hangs up (its task is cancelled, or it dropped the stream).
  public init(limit: Int = StreamBuffer.defaultLimit, onResume: @escaping @Sendable () -> Void, onCancel: @escaping @Sendable () -> Void) {
    self.limit = max(1, limit)
    self.onResume = onResume
    self.onCancel = onCancel
  }

  /// The bytes held now (for tests and metrics).
  public var bufferedBytes: Int { state.withLock { $0.bytes } }

  /// Whether the producer is paused, waiting for the reader.
  public var isPaused: Bool { state.withLock { $0.paused } }

  /// Takes `chunk` whatever the buffer holds; `false` when the buffer is now at or past its limit
  /// and the producer must pause until `onResume` (for a producer that cannot refuse a chunk
  /// it has already received, such as a `URLSession` delegate).
  @discardableResult
  public func push(_ chunk: Data) -> Bool {
    guard !chunk.isEmpty else { return true }
    let hardLimit = self.hardLimit
    let (waiter, underLimit, overflow) = state.withLock { state -> (CheckedContinuation<Data?, any Error>?, Bool, Int?) in
      guard state.end == nil, !state.readerGone else { return (nil, true, nil) }
      if let waiter = state.waiter {
        state.waiter = nil
        return (waiter, true, nil)
      }
      guard state.bytes + chunk.count <= hardLimit else { return (nil, false, state.bytes + chunk.count) }
      state.chunks.append(chunk)
      state.bytes += chunk.count
      if state.bytes >= limit { state.paused = true }
      return (nil, !state.paused, nil)
    }
    if let overflow {
      // What is held is dropped with the connection: the reader gets the error next.
      state.withLock { state in
        state.chunks = []
        state.next = 0
        state.bytes = 0
      }
      finish(throwing: ReaderTooSlow(bufferedBytes: overflow))
      onCancel()
      return false
    }
    waiter?.resume(returning: chunk)
    return underLimit
  }

  /// Takes `chunk` only when the buffer is under its limit; `false` (the chunk not taken, the
  /// producer paused until `onResume`) otherwise: for a producer that can hand the same bytes
  /// again later, such as libcurl's write callback returning `CURL_WRITEFUNC_PAUSE`.
  public func offer(_ chunk: Data) -> Bool {
    let full = state.withLock { state in
      guard state.bytes >= limit, state.end == nil, !state.readerGone else { return false }
      state.paused = true
      return true
    }
    if full { return false }
    push(chunk)
    return true
  }

  /// Ends the body: the reader gets what is held, then the end (or `error`).
  public func finish(throwing error: (any Error)? = nil) {
    let waiter = state.withLock { state -> CheckedContinuation<Data?, any Error>? in
      guard state.end == nil else { return nil }
      state.end = error.map { .failure($0) } ?? .success(())
      defer { state.waiter = nil }
      return state.chunks.count > state.next ? nil : state.waiter
    }
    guard let waiter else { return }
    if let error { waiter.resume(throwing: error) } else { waiter.resume(returning: nil) }
  }

  /// The body for the reader: each chunk in order, then the end. Cancelling the reading task,
  /// or dropping the stream unfinished, hangs up (`onCancel`).
  public var stream: AsyncThrowingStream<Data, any Error> {
    let reader = Reader(buffer: self)
    return AsyncThrowingStream(unfolding: { try await reader.next() })
  }

  /// The next chunk, waiting for one; `nil` at the end.
  func next() async throws -> Data? {
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data?, any Error>) in
        let (answer, resume) = state.withLock { state -> (Result<Data?, any Error>?, Bool) in
          if state.readerGone { return (.failure(CancellationError()), false) }
          if state.next < state.chunks.count {
            let chunk = state.chunks[state.next]
            state.next += 1
            state.bytes -= chunk.count
            if state.next == state.chunks.count {
              state.chunks.removeAll(keepingCapacity: true)
              state.next = 0
            } else if state.next >= 64 && state.next * 2 >= state.chunks.count {
              state.chunks.removeFirst(state.next)
              state.next = 0
            }
            let resume = state.paused && state.bytes <= limit / 2
            if resume { state.paused = false }
            return (.success(chunk), resume)
          }
          switch state.end {
          case .success?: return (.success(nil), false)
          case .failure(let error)?: return (.failure(error), false)
          case nil:
            state.waiter = continuation
            let resume = state.paused
            state.paused = false
            return (nil, resume)
          }
        }
        if resume { onResume() }
        if let answer { continuation.resume(with: answer) }
      }
    } onCancel: {
      readerLeft()
    }
  }

  /// The reader is gone (its task cancelled, or its stream dropped): let go of what is held and
  /// hang up.
  func readerLeft() {
    let (waiter, first) = state.withLock { state -> (CheckedContinuation<Data?, any Error>?, Bool) in
      let first = !state.readerGone && state.end == nil
      state.readerGone = true
      state.chunks = []
      state.next = 0
      state.bytes = 0
      defer { state.waiter = nil }
      return (state.waiter, first)
    }
    waiter?.resume(throwing: CancellationError())
    if first { onCancel() }
  }

  /// The reader's end of the buffer: when the stream that holds it is released unfinished, the
  /// transfer is hung up.
  private final class Reader: Sendable {
    let buffer: StreamBuffer
    init(buffer: StreamBuffer) { self.buffer = buffer }
    deinit { buffer.readerLeft() }
    func next() async throws -> Data? { try await buffer.next() }
  }
}
