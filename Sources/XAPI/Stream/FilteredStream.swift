import Foundation
import NetworkClient

/// What happens to a filtered stream's connection, for a program to report: the stream itself
/// only delivers posts.
///
/// ```swift
/// app.v2.filteredStream { event in
///   if case .waiting(let seconds, let failure, _, let reason) = event { print("\(failure): \(reason); waiting \(seconds) s") }
/// }
/// ```
public enum FilteredStreamEvent: Sendable {
  /// Connection attempt `attempt` (1 for the first) was answered 200: posts follow.
  case connected(attempt: Int)
  /// An established connection ended (closed, reset, or silent too long): the stream
  /// reconnects at once.
  case dropped(reason: String)
  /// A connection attempt failed (`consecutive` failures of this kind in a row): the stream
  /// waits `seconds` before the next, as its ``StreamReconnectPolicy`` says.
  case waiting(seconds: TimeInterval, failure: StreamReconnectPolicy.Failure, consecutive: Int, reason: String)
  /// A blank keep-alive line arrived.
  case keepAlive
  /// A line held X's words instead of a post (such as `operational-disconnect` before X closes
  /// the stream), or could not be read.
  case message(String)
}

/// The filtered stream (`GET /2/tweets/search/stream`) as an `AsyncSequence` of posts that
/// reconnects by itself, by a ``StreamReconnectPolicy`` (X's by default), for as long as it is
/// iterated. It throws an ``XError`` only for what reconnecting cannot mend (a refused token,
/// no rules: HTTP 4xx other than 429) or after ``StreamReconnectPolicy/maxConsecutiveFailures``.
/// Stop by leaving the loop or cancelling the task.
///
/// X serves it app-only: the client must use ``XAuthentication/bearer(_:)`` (the token goes in
/// the `Authorization` header and nowhere else), and its transport must be an
/// `HTTPStreamingTransport` (`URLSessionTransport` is).
///
/// ```swift
/// let app = XClient(authentication: .bearer(token))
/// for try await item in app.v2.filteredStream(onEvent: { print($0) }) {
///   print(item.tweet.author?.username ?? "?", item.tweet.text)
/// }
/// ```
public struct FilteredStream: AsyncSequence, Sendable {
  public typealias Element = StreamedTweet

  let client: XClient
  let query: [QueryItem]
  /// When to give up on a silent connection and how long to wait before the next attempt.
  public var policy: StreamReconnectPolicy
  /// How the stream waits (between attempts, and for silence): `TaskSleeper` unless a test
  /// passes its own.
  public var sleeper: any Sleeper
  /// A monotonic clock in seconds, for silence.
  public var clock: @Sendable () -> TimeInterval
  /// Told of each connection, drop, wait and keep-alive.
  public var onEvent: @Sendable (FilteredStreamEvent) -> Void

  /// The longest line (one post with its expansions, or X's words) read before the connection is
  /// dropped as broken: 1 MiB, far above any post X sends, so that a server that never sends a
  /// newline cannot grow memory without bound.
  public static let maxLineBytes = 1 << 20

  /// Delivers the posts the connections bring, in order, and no faster than they are taken.
  public func makeAsyncIterator() -> PacedStreamIterator<StreamedTweet> { engine.makeIterator() }

  /// The reconnecting connection behind this sequence, reading posts.
  var engine: ReconnectingStream<StreamedTweet> {
    ReconnectingStream(
      client: client, endpoint: .streamPosts, query: query, name: "the filtered stream", userAgent: "XAPI-swift filtered-stream",
      maxLineBytes: Self.maxLineBytes, maxLineBytesName: "FilteredStream.maxLineBytes", policy: policy, sleeper: sleeper, clock: clock,
      onEvent: onEvent
    ) { line in
      switch StreamLine(line) {
      case .tweet(let item): .item(item)
      case .problems(let problems): .message(problems.map(\.description).joined(separator: "; "))
      case .unreadable(let excerpt): .message("an unreadable line: \(excerpt)")
      }
    }
  }
}

extension XClient.V2 {
  /// The filtered stream: the posts that match the app's rules, as they are posted, with the
  /// fields and expansions of `options` (X's defaults: id, text, edit history). App-only; see
  /// ``FilteredStream``.
  ///
  /// ```swift
  /// var stream = app.v2.filteredStream(onEvent: { event in log(event) })
  /// stream.policy = StreamReconnectPolicy.x.scaled(by: 0.01)  // in a test
  /// for try await item in stream { print(item.tweet.text) }
  /// ```
  public func filteredStream(
    options: TimelineOptions = .init(), policy: StreamReconnectPolicy = .x, onEvent: @escaping @Sendable (FilteredStreamEvent) -> Void = { _ in }
  ) -> FilteredStream {
    FilteredStream(
      client: client, query: options.fieldItems.map { QueryItem($0.0, $0.1) }, policy: policy, sleeper: TaskSleeper(),
      clock: { ProcessInfo.processInfo.systemUptime }, onEvent: onEvent)
  }
}
