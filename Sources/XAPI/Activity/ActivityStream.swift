import DateFormats
import Foundation
import NetworkClient

/// The X Activity API's persistent stream (`GET /2/activity/stream`): the events of the app's
/// subscriptions that have no webhook, as an `AsyncSequence` of ``XWebhookEvent`` (the same
/// types a webhook receives: `post.create`, `follow.follow`, `profile.update.bio`...). It
/// reconnects as the filtered stream does (``StreamReconnectPolicy``, X's by default: at once
/// after a drop, backing off after failures, a connection silent past its limit given up), and
/// throws only for what reconnecting cannot mend (a refused token, a 4xx other than 429, X's
/// billing refusals). X allows one connection per app: a second one is refused with 429
/// `TooManyConnections` and waited for like any 429.
///
/// App-only: the client must use ``XAuthentication/bearer(_:)`` and a streaming transport.
///
/// ```swift
/// for try await event in app.v2.activityStream() where event.kind == .postCreated {
///   print(event.tweets.first?.text ?? "")
/// }
/// ```
public struct ActivityStream: AsyncSequence, Sendable {
  public typealias Element = XWebhookEvent

  let client: XClient
  let query: [QueryItem]
  /// When to give up on a silent connection and how long to wait before the next attempt.
  public var policy: StreamReconnectPolicy
  /// How the stream waits: `TaskSleeper` unless a test passes its own.
  public var sleeper: any Sleeper
  /// A monotonic clock in seconds, for silence.
  public var clock: @Sendable () -> TimeInterval
  /// Told of each connection, drop, wait, heartbeat and message.
  public var onEvent: @Sendable (FilteredStreamEvent) -> Void

  /// The longest line read before the connection is dropped as broken: 1 MiB, as for the
  /// filtered stream.
  public static let maxLineBytes = 1 << 20

  /// The reconnecting connection behind this sequence, reading events.
  var engine: ReconnectingStream<XWebhookEvent> {
    ReconnectingStream(
      client: client, endpoint: .activityStream, query: query, name: "the activity stream", userAgent: "XAPI-swift activity-stream",
      maxLineBytes: Self.maxLineBytes, maxLineBytesName: "ActivityStream.maxLineBytes", policy: policy, sleeper: sleeper, clock: clock,
      onEvent: onEvent, decode: Self.decode)
  }

  /// One line: an event (`data.event_type`), X's words (`errors`), or an unreadable line.
  static func decode(_ line: Data) -> ReconnectingStream<XWebhookEvent>.Decoded {
    let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any]
    if let data = object?["data"] as? [String: Any], data["event_type"] is String, let event = XWebhookDelivery(body: line).events.first {
      return .item(event)
    }
    if let problems = object?["errors"] as? [[String: Any]] {
      return .message(
        problems.map { problem in
          [problem["title"], problem["detail"], problem["message"]].compactMap { $0 as? String }.joined(separator: ": ")
        }.joined(separator: "; "))
    }
    return .message("an unreadable line: \(String(decoding: line.prefix(200), as: UTF8.self))")
  }

  /// Delivers the events the connections bring, in order, and no faster than they are taken.
  public func makeAsyncIterator() -> PacedStreamIterator<XWebhookEvent> { engine.makeIterator() }
}

extension XClient.V2 {
  /// The activity stream: the events of the app's subscriptions without a webhook, as they
  /// happen; `backfillMinutes` (0 to 5) asks X for the last minutes' events again after a
  /// disconnection. App-only; see ``ActivityStream``.
  ///
  /// ```swift
  /// for try await event in app.v2.activityStream(backfillMinutes: 2) { print(event.type, event.forUserID ?? "") }
  /// ```
  public func activityStream(
    backfillMinutes: Int? = nil, policy: StreamReconnectPolicy = .x, onEvent: @escaping @Sendable (FilteredStreamEvent) -> Void = { _ in }
  ) -> ActivityStream {
    var query: [QueryItem] = []
    if let backfillMinutes { query.append(("backfill_minutes", String(min(max(backfillMinutes, 0), 5)))) }
    return ActivityStream(
      client: client, query: query, policy: policy, sleeper: TaskSleeper(), clock: { ProcessInfo.processInfo.systemUptime }, onEvent: onEvent)
  }
}
