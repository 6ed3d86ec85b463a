import DateFormats
import Foundation
import XAPI

/// The X Activity API's stream, `GET /2/activity/stream` (`x-api/activity/activity-stream`):
/// app-only, one connection at a time, served by the filtered stream's machinery
/// (``XSandbox/serveStream(_:part:fields:writer:)``); each line one event of a subscription
/// without a webhook, as X's `ActivityStreamResponse`, a blank keep-alive line after 20 s
/// without one. `backfill_minutes` (0 to 5) starts the connection at the events of the last
/// minutes; `start_time` (inclusive, UTC) at the events from that time on, of those kept, in
/// place of a backfill; `end_time` (exclusive) leaves out the events from that time on (the
/// connection stays open, with keep-alive lines).
extension SandboxRoute {
  static let activityStream: [SandboxRoute] = [
    SandboxRoute(
      method: "GET", pattern: ["2", "activity", "stream"], name: "v2_activity_stream", limit: 50, appOnly: true,
      allowed: ["backfill_minutes", "start_time", "end_time"], billing: .unpriced
    ) { state, ctx in state.activityStreamOpen(ctx) }
  ]
}

extension SandboxState {
  // MARK: - Lock held

  /// `GET /2/activity/stream` before any byte of the stream: its parameters, as X's
  /// specification declares them.
  func activityStreamOpen(_ ctx: RouteContext) -> SandboxResponse {
    if let text = ctx.query["backfill_minutes"], Int(text).map({ !(0...5).contains($0) }) ?? true {
      return .v2(
        400, XBodies.invalidRequest("backfill_minutes", [text], "The `backfill_minutes` query parameter value [\(text)] is not between 0 and 5"))
    }
    for name in ["start_time", "end_time"] {
      if let text = ctx.query[name], TweetWindow.utcSeconds(text) == nil {
        return .v2(400, XBodies.invalidRequest(name, [text], "Invalid '\(name)':'\(text)'. '\(name)' must be a valid RFC 3339 date-time"))
      }
    }
    if let start = ctx.query["start_time"].flatMap(TweetWindow.utcSeconds), let end = ctx.query["end_time"].flatMap(TweetWindow.utcSeconds),
      end <= start
    {
      let text = ctx.query["end_time"]!
      return .v2(400, XBodies.invalidRequest("end_time", [text], "Invalid 'end_time':'\(text)'. 'end_time' must be after 'start_time'"))
    }
    var response = SandboxResponse.v2(200, .null)
    response.streamQuery = ctx.query
    return response
  }

  /// The next thing activity stream connection `serial` does: end (terminated), a fault, the
  /// next event after its cursor that goes to no webhook, or nothing. When the sandbox bills,
  /// each event delivered is charged at X's price (``XActivityEventPrice``: a post event as a
  /// post read, once per post and UTC day of `now`; free events nothing), and once billing
  /// would refuse (credits spent, the post cap reached for a post event) the connection ends.
  mutating func activityStreamStep(serial: Int, now: Int64) -> SandboxStreamStep {
    guard activityStream.live == serial else { return .superseded }
    if let fault = activityStream.faults.first, activityStream.connections[serial].delivered >= fault.after {
      activityStream.faults.removeFirst()
      if case .stall = fault.kind { activityStream.connections[serial].stalled = Date().timeIntervalSince1970 }
      return .fault(fault.kind)
    }
    guard let cursor = activity.cursors[serial] else { return .idle }
    guard let event = activity.streamEvent(from: cursor) else {
      activity.cursors[serial]?.next = activity.nextEvent
      return .idle
    }
    if billing.isMetered, let kind = XActivityEventPrice.kind(of: event.type) {
      if let refusal = billing.refusal(readsPosts: kind == .post) { return .refused(refusal) }
      billing.charge(ids: [event.billedID], kind: kind, owned: false, day: Self.billingDay(now))
    }
    activity.cursors[serial]?.next = event.serial + 1
    activityStream.connections[serial].delivered += 1
    return .line(event.body + Data("\r\n".utf8))
  }
}
