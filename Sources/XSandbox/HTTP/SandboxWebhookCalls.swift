import Foundation
import XAPI

/// The sandbox's calls to registered webhooks, made off the state's lock: the CRC a register or
/// re-check asked for (``finishWebhookCheck(_:answer:now:)``), and the POST of each event queued
/// for a webhook (``deliverActivity()``), signed with the demo app's consumer secret as X signs
/// with the app's (``SandboxWebhookCaller``).
///
/// ```swift
/// // POST /2/webhooks {"url": "http://127.0.0.1:8978/webhook"} → the handler leaves a check,
/// // then, in exchange(_:):
/// if let check = answer.response.webhookCheck { await finishWebhookCheck(check, answer: &answer, now: now) }
/// deliverActivity()
/// ```
extension XSandbox {
  /// Sends the CRC `check` asks for and makes the answer X makes of its result: a new webhook
  /// registered (valid) or `CrcValidationFailed` with nothing registered; a re-checked one
  /// marked valid (`{"data": {"valid": true}}`) or invalid (`CrcValidationFailed`), as X's page
  /// lists the reason for both (x-api/webhooks/introduction.mdx).
  func finishWebhookCheck(
    _ check: SandboxWebhookState.PendingCheck, answer: inout (response: SandboxResponse, delivery: SandboxDelivery), now: Int64
  ) async {
    let failure: String?
    if let url = SandboxWebhookCaller.loopbackURL(check.url) {
      failure = await SandboxWebhookCaller.crc(url, secret: Self.demoConsumer.secret)
    } else {
      failure = "the URL is not a loopback URL"
    }
    let kept = answer.response.headers.filter { $0.0.lowercased() != "content-type" && $0.0.lowercased() != "content-length" }
    var response = state.withLock { state -> SandboxResponse in
      let refused = failure.map {
        SandboxResponse.v2(400, XBodies.webhookRefused("CrcValidationFailed", "the callback URL did not answer the CRC correctly: \($0)"))
      }
      if let id = check.id {
        guard let index = state.webhooks.webhooks.firstIndex(where: { $0.id == id }) else { return SandboxWebhookState.unknown(id) }
        state.webhooks.webhooks[index].valid = failure == nil
        return refused ?? .v2(200, .object([("data", .object([("valid", .bool(true))]))]))
      }
      if let refused { return refused }
      // Another request may have registered the URL, or the last free place, meanwhile.
      if let problem = state.webhooks.refusalToAdd(check.url) { return problem }
      let id = state.webhooks.add(url: check.url, valid: true, now: now)
      // At the top level, as X's specification 2.166 has it (2.167 and X's pages put it under
      // `data`; the package's client reads both).
      return .v2(200, SandboxWebhookState.json(state.webhooks.webhook(id)!))
    }
    response.headers += kept
    answer.response = response
  }

  /// POSTs the events waiting for webhooks, each to its webhook, signed, in a task of its own
  /// (the answer whose request made them is not held up), one after another in the order they
  /// were queued (a replayed event after those queued before it). One such task runs at a time,
  /// whatever the number of requests that queued events: a burst of posts is delivered by one
  /// worker over one connection at a time, and what waits is bounded by the outbox
  /// (``SandboxActivityState/maxEvents``) and the worker's batch (``deliveryBatch``). Whether
  /// an event is sent is decided as it is sent: one whose webhook is gone or invalid by then is
  /// dropped, as X delivers nothing to an invalid webhook; when the sandbox bills, a priced one
  /// that billing would refuse is not sent (a free one is); and each priced one a webhook takes
  /// (a 2xx) is charged at X's price (``XActivityEventPrice``). Each is logged
  /// (``SandboxActivityState/deliveries``).
  func deliverActivity() {
    let start = state.withLock { state -> Bool in
      guard !state.activity.outbox.isEmpty, !state.activity.delivering else { return false }
      state.activity.delivering = true
      return true
    }
    guard start else { return }
    Task.detached { await self.drainOutbox() }
  }

  /// The most events the delivery worker takes from the outbox at a time: 64.
  static let deliveryBatch = 64

  /// The worker ``deliverActivity()`` starts: it takes the outbox, ``deliveryBatch`` events at a
  /// time, until it finds it empty, and clears ``SandboxActivityState/delivering`` under the
  /// same lock that found it so, so an event queued meanwhile is either taken by this loop or
  /// starts the next worker.
  private func drainOutbox() async {
    let secret = Self.demoConsumer.secret
    while true {
      let batch = state.withLock { state -> [SandboxActivityEvent] in
        guard !state.activity.outbox.isEmpty else {
          state.activity.delivering = false
          return []
        }
        let batch = Array(state.activity.outbox.prefix(Self.deliveryBatch))
        state.activity.outbox.removeFirst(batch.count)
        return batch
      }
      guard !batch.isEmpty else { return }
      for event in batch { await deliver(event, secret: secret) }
    }
  }

  /// POSTs `event` to its webhook as the webhook is now, unless it is gone or invalid or billing
  /// refuses a priced event, and logs what happened.
  private func deliver(_ event: SandboxActivityEvent, secret: String) async {
    let kind = XActivityEventPrice.kind(of: event.type)
    let target = state.withLock { state -> (url: URL?, refusal: String?) in
      guard let webhook = event.webhookID.flatMap({ state.webhooks.webhook($0) }) else { return (nil, "no such webhook") }
      guard webhook.valid, let url = SandboxWebhookCaller.loopbackURL(webhook.url) else { return (nil, "webhook invalid") }
      if let kind, state.billing.isMetered, state.billing.refusal(readsPosts: kind == .post) != nil { return (nil, "billing refused") }
      return (url, nil)
    }
    var status: Int?
    var outcome = target.refusal ?? "failed"
    if let url = target.url {
      status = await SandboxWebhookCaller.deliver(event.body, to: url, secret: secret)
      outcome = status.map { (200..<300).contains($0) } == true ? "delivered" : "failed"
    }
    let now = clock.secondsSince1970()
    state.withLock { state in
      if outcome == "delivered", state.billing.isMetered, let kind {
        state.billing.charge(ids: [event.billedID], kind: kind, owned: false, day: SandboxState.billingDay(now))
      }
      state.activity.deliveries.append(
        SandboxActivityState.Delivery(uuid: event.uuid, eventType: event.type, webhookID: event.webhookID ?? "", status: status, outcome: outcome))
      if state.activity.deliveries.count > SandboxActivityState.maxDeliveries { state.activity.deliveries.removeFirst() }
    }
  }
}
