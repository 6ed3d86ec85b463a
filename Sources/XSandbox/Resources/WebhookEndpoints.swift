import DateFormats
import Foundation

/// X's webhook management (`x-api/webhooks/*`), with the authentications X's specification
/// lists (listing and replay app-only; register, re-check and delete app-only or OAuth 1.0a user
/// context, though X's pages ask for a bearer token for all): register (`POST /2/webhooks {"url"}`), list, re-check (`PUT /2/webhooks/:id`),
/// delete, replay (`POST /2/webhooks/replay`). Registering and re-checking make the sandbox send
/// the URL a CRC, as X does: the handler (under the state's lock) checks the request and leaves
/// a ``SandboxWebhookState/PendingCheck``, which ``XSandbox/finishWebhookCheck(_:answer:now:)``
/// sends off the lock and answers. Only loopback URLs are taken (``SandboxWebhookCaller``);
/// refusals carry X's reasons (`UrlValidationFailed`, `DuplicateUrlFailed`,
/// `WebhookLimitExceeded`, `WebhookIdInvalid`, `CrcValidationFailed`).
extension SandboxRoute {
  static let webhooks: [SandboxRoute] = [
    SandboxRoute(
      method: "POST", pattern: ["2", "webhooks", "replay"], name: "v2_webhooks_replay", limit: nil, appOnly: true, allowed: [],
      billing: .unpriced, handler: { state, ctx in state.replayWebhook(ctx) }),
    SandboxRoute(
      method: "POST", pattern: ["2", "webhooks"], name: "v2_webhooks_create", limit: nil, appOnly: false, allowed: [], oauth2OK: false,
      billing: .unpriced,
      handler: SandboxRoute.on(\.webhooks) { webhooks, _, ctx in webhooks.register(ctx) }),
    SandboxRoute(
      method: "GET", pattern: ["2", "webhooks"], name: "v2_webhooks", limit: nil, appOnly: true, allowed: ["webhook_config.fields"],
      billing: .unpriced, handler: SandboxRoute.on(\.webhooks) { webhooks, _, ctx in webhooks.list(ctx) }),
    SandboxRoute(
      method: "PUT", pattern: ["2", "webhooks", "*"], name: "v2_webhooks_validate", limit: nil, appOnly: false, allowed: [], oauth2OK: false,
      billing: .unpriced, handler: SandboxRoute.on(\.webhooks) { webhooks, _, ctx in webhooks.recheck(ctx) }),
    SandboxRoute(
      method: "DELETE", pattern: ["2", "webhooks", "*"], name: "v2_webhooks_delete", limit: nil, appOnly: false, allowed: [], oauth2OK: false,
      billing: .unpriced, handler: SandboxRoute.on(\.webhooks) { webhooks, _, ctx in webhooks.delete(ctx) }),
  ]
}

// MARK: - Handlers (lock held)

extension SandboxWebhookState {
  /// `POST /2/webhooks {"url"}`: a loopback URL not registered yet, within the limit; the CRC
  /// follows off the lock.
  mutating func register(_ ctx: RouteContext) -> SandboxResponse {
    guard mediaType(ctx.contentType) == "application/json" else { return .v2(400, XBodies.jsonRequired) }
    guard let body = ctx.body, let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else {
      return .v2(400, XBodies.invalidBody("the body is not a JSON object"))
    }
    guard let url = object["url"] as? String, (1...SandboxWebhookCaller.maxURLLength).contains(url.count) else {
      return .v2(400, XBodies.invalidBody("$.url: is missing, or not 1 to \(SandboxWebhookCaller.maxURLLength) characters"))
    }
    guard SandboxWebhookCaller.loopbackURL(url) != nil else {
      return .v2(
        400,
        XBodies.webhookRefused(
          "UrlValidationFailed",
          "the sandbox sends CRCs and events to loopback URLs only (http://127.0.0.1:PORT/PATH or http://[::1]:PORT/PATH); X takes a public https:// URL without a port"
        ))
    }
    if let problem = refusalToAdd(url) { return problem }
    var response = SandboxResponse.v2(200, .null)
    response.webhookCheck = PendingCheck(id: nil, url: url)
    return response
  }

  /// Why `url` cannot be added now (registered already, or the limit reached); `nil` when it can.
  func refusalToAdd(_ url: String) -> SandboxResponse? {
    if webhooks.contains(where: { $0.url == url }) {
      return .v2(400, XBodies.webhookRefused("DuplicateUrlFailed", "a webhook is already registered by your application for \(url)"))
    }
    if webhooks.count >= Self.maxWebhooks {
      return .v2(400, XBodies.webhookRefused("WebhookLimitExceeded", "the application has \(Self.maxWebhooks) webhooks, the most it may"))
    }
    return nil
  }

  /// `GET /2/webhooks[?webhook_config.fields=]`: every webhook, oldest first, with the fields
  /// asked for (`id` always; all four when none is asked for).
  func list(_ ctx: RouteContext) -> SandboxResponse {
    let known = ["created_at", "id", "url", "valid"]
    let asked = splitList(ctx.query["webhook_config.fields"])
    if let unknown = asked.first(where: { !known.contains($0) }) {
      return .v2(
        400,
        XBodies.invalidRequest(
          "webhook_config.fields", [unknown],
          "The `webhook_config.fields` query parameter value [\(unknown)] is not one of [\(known.joined(separator: ","))]"))
    }
    let fields = Set(asked.isEmpty ? known : asked + ["id"])
    // No `data` when there is none, as X leaves an empty list out.
    let data: [(String, JSON)] = webhooks.isEmpty ? [] : [("data", .array(webhooks.map { Self.json($0, fields: fields) }))]
    return .v2(200, .object(data + [("meta", .object([("result_count", .int(webhooks.count))]))]))
  }

  /// `PUT /2/webhooks/:id`: a CRC to the webhook's URL follows off the lock.
  func recheck(_ ctx: RouteContext) -> SandboxResponse {
    guard let webhook = webhook(ctx.captures.first ?? "") else { return Self.unknown(ctx.captures.first ?? "") }
    var response = SandboxResponse.v2(200, .null)
    response.webhookCheck = PendingCheck(id: webhook.id, url: webhook.url)
    return response
  }

  /// `DELETE /2/webhooks/:id`. The subscriptions that name it stay, and receive nothing.
  mutating func delete(_ ctx: RouteContext) -> SandboxResponse {
    guard let index = webhooks.firstIndex(where: { $0.id == ctx.captures.first }) else { return Self.unknown(ctx.captures.first ?? "") }
    webhooks.remove(at: index)
    return .v2(200, .object([("data", .object([("deleted", .bool(true))]))]))
  }

  static func unknown(_ id: String) -> SandboxResponse {
    .v2(400, XBodies.webhookRefused("WebhookIdInvalid", "the webhook_id [\(id)] was not found or is not associated with your app"))
  }

  /// X's `WebhookConfig`.
  static func json(_ webhook: Webhook, fields: Set<String> = ["created_at", "id", "url", "valid"]) -> JSON {
    var out: [(String, JSON)] = []
    if fields.contains("created_at") {
      out.append(("created_at", .string(RFC3339.millisecondString(from: Date(timeIntervalSince1970: TimeInterval(webhook.created))))))
    }
    out.append(("id", .string(webhook.id)))
    if fields.contains("url") { out.append(("url", .string(webhook.url))) }
    if fields.contains("valid") { out.append(("valid", .bool(webhook.valid))) }
    return .object(out)
  }
}

extension SandboxState {
  /// `POST /2/webhooks/replay {"webhook_id", "from_date", "to_date"}` (`yyyymmddhhmm`, UTC,
  /// both minutes included): the events of that window that went to the webhook are queued for
  /// it again (``SandboxActivityState/outbox``), as X's replay job delivers them.
  mutating func replayWebhook(_ ctx: RouteContext) -> SandboxResponse {
    guard mediaType(ctx.contentType) == "application/json" else { return .v2(400, XBodies.jsonRequired) }
    guard let body = ctx.body, let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else {
      return .v2(400, XBodies.invalidBody("the body is not a JSON object"))
    }
    guard let id = object["webhook_id"] as? String, (1...19).contains(id.count), id.allSatisfy(\.isASCII), id.allSatisfy(\.isNumber) else {
      return .v2(400, XBodies.invalidBody("$.webhook_id: must match ^[0-9]{1,19}$"))
    }
    guard let from = (object["from_date"] as? String).flatMap(Self.replayMinute), let to = (object["to_date"] as? String).flatMap(Self.replayMinute)
    else { return .v2(400, XBodies.invalidBody("$.from_date and $.to_date: must match ^[0-9]{12}$ (yyyymmddhhmm, UTC)")) }
    guard from <= to else { return .v2(400, XBodies.invalidBody("$.from_date: must not be after $.to_date")) }
    guard webhooks.webhook(id) != nil else { return SandboxWebhookState.unknown(id) }
    activity.queue(activity.events.filter { $0.webhookID == id && (from..<(to + 60)).contains($0.created) })
    webhooks.nextJob += 1
    let created = RFC3339.millisecondString(from: Date(timeIntervalSince1970: TimeInterval(ctx.now)))
    // At the top level, as X's specification 2.166 has it (2.167 puts it under `data`).
    return .v2(200, .object([("job_id", .string(String(webhooks.nextJob))), ("created_at", .string(created))]))
  }

  /// `yyyymmddhhmm` (UTC) as Unix seconds; `nil` when it is not 12 digits of a real minute.
  static func replayMinute(_ text: String) -> Int64? {
    guard text.count == 12, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
    let digits = Array(text)
    func number(_ range: Range<Int>) -> Int { Int(String(digits[range])) ?? -1 }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let parts = DateComponents(year: number(0..<4), month: number(4..<6), day: number(6..<8), hour: number(8..<10), minute: number(10..<12))
    guard parts.isValidDate(in: calendar), let date = calendar.date(from: parts) else { return nil }
    return Int64(date.timeIntervalSince1970)
  }
}

extension XBodies {
  /// A webhook request X refuses, with X's reason first (`CrcValidationFailed: ...`), as a v2
  /// invalid-request problem.
  static func webhookRefused(_ reason: String, _ detail: String) -> JSON {
    invalidBody("\(reason): \(detail)")
  }
}
