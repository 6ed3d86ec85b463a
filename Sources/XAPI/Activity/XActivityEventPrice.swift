import Foundation

/// What X bills for one event the X Activity API delivers (x-api/getting-started/pricing.mdx):
/// a post event as a post read ($0.005), a follow as a follow ($0.010), a received direct
/// message as a DM event ($0.010); the other events (profile changes, likes, spaces, news,
/// mutes, blocks, messages sent) are free. The id is what X bills once per UTC day: the post's
/// id for a post event, else the event's `event_uuid`.
///
/// ```swift
/// let price = XActivityEventPrice(event)
/// if try await !budget.streamed(price.kind, id: price.id) { break }  // the budget stops the stream
/// ```
public struct XActivityEventPrice: Sendable, Hashable {
  /// The resource X bills the event as; `nil` for a free event.
  public let kind: XResourceKind?
  /// The id the charge is recorded under.
  public let id: String

  /// The resource an event type is billed as; `nil` when it is free.
  public static func kind(of eventType: String) -> XResourceKind? {
    if eventType.hasPrefix("post.") { return .post }
    if eventType.hasPrefix("follow.") { return .follow }
    if eventType == "dm.received" || eventType == "chat.received" { return .dmEvent }
    return nil
  }

  /// A price from its parts, for tests and emulators.
  public init(kind: XResourceKind?, id: String) {
    self.kind = kind
    self.id = id
  }

  /// The price of `event`, from its type and its JSON.
  public init(_ event: XWebhookEvent) {
    kind = Self.kind(of: event.type)
    let object = try? JSONSerialization.jsonObject(with: event.json) as? [String: Any]
    let payload = object?["payload"] as? [String: Any]
    let uuid = (object?["event_uuid"] as? String) ?? (object?["event_uuid"] as? NSNumber)?.stringValue
    if kind == .post, let post = event.tweets.first?.id ?? (payload?["id"] as? String) {
      id = post
    } else {
      id = uuid ?? event.type + ":" + String(event.json.hashValue)
    }
  }
}
