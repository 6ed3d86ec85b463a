/// The app's webhooks in the sandbox (`x-api/webhooks/*`): each with the URL it was registered
/// with, whether its last challenge-response check (CRC) passed, and when it was made; and the
/// replay jobs asked for. The sandbox plays X's side: it sends the CRC itself
/// (``SandboxWebhookCaller``), to loopback URLs only, and POSTs signed events to valid webhooks.
///
/// ```swift
/// var webhooks = SandboxWebhookState()
/// let id = webhooks.add(url: "http://127.0.0.1:8978/webhook", valid: true, now: 1_764_000_000)
/// webhooks.webhooks.first?.valid  // true
/// ```
struct SandboxWebhookState: Sendable {
  /// One webhook, as X's `WebhookConfig` describes it.
  struct Webhook: Sendable {
    let id: String
    let url: String
    var valid: Bool
    let created: Int64
  }

  /// A CRC a request waits for, sent after the handler returns (off the state's lock): for a
  /// new webhook (`id` `nil`: it is added only when the CRC passes, as X registers none that
  /// fails) or for an existing one (`PUT /2/webhooks/:id`).
  struct PendingCheck: Sendable {
    let id: String?
    let url: String
  }

  var webhooks: [Webhook] = []
  /// The last id given; ids are numbers of 19 digits, as X's.
  var next: Int64 = 1_910_000_000_000_000_000
  /// The last replay job's id.
  var nextJob: Int64 = 1_920_000_000_000_000_000
  /// The most webhooks an app holds here: X gives one on self-serve Pro and five or more on
  /// Enterprise (x-api/webhooks/introduction.mdx); the sandbox allows five.
  static let maxWebhooks = 5

  /// Adds a webhook that passed its CRC; returns its id.
  mutating func add(url: String, valid: Bool, now: Int64) -> String {
    next += 1
    webhooks.append(Webhook(id: String(next), url: url, valid: valid, created: now))
    return String(next)
  }

  /// The webhook with `id`, if the app has it.
  func webhook(_ id: String) -> Webhook? { webhooks.first { $0.id == id } }
}
