import DateFormats
import Foundation
import NetworkClient

/// A webhook registered with X (`WebhookConfig`): its id, its URL, and whether X's last
/// challenge-response check passed.
///
/// ```swift
/// for webhook in try await app.v2.webhooks() { print(webhook.id, webhook.url, webhook.valid) }
/// ```
public struct XWebhookConfig: Sendable, Hashable, Codable {
  /// X's id of the webhook (digits): what ``XClient/V2/recheckWebhook(id:)`` and
  /// ``XClient/V2/deleteWebhook(id:)`` take.
  public let id: String
  /// The callback URL, as registered.
  public let url: String
  /// Whether the webhook passed its last CRC; an invalid one receives nothing.
  public let valid: Bool
  /// When it was registered.
  public let createdAt: Date?

  /// A configuration from its parts, for tests and emulators.
  public init(id: String, url: String, valid: Bool, createdAt: Date? = nil) {
    self.id = id
    self.url = url
    self.valid = valid
    self.createdAt = createdAt
  }

  enum CodingKeys: String, CodingKey {
    case id, url, valid
    case createdAt = "created_at"
  }

  /// Decodes X's object; `created_at` is an RFC 3339 string.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(String.self, forKey: .id)
    url = try container.decode(String.self, forKey: .url)
    valid = try container.decodeIfPresent(Bool.self, forKey: .valid) ?? false
    createdAt = try container.decodeIfPresent(String.self, forKey: .createdAt).flatMap(RFC3339.date(from:))
  }

  /// Encodes X's object back: `created_at` as RFC 3339, absent when unknown.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(url, forKey: .url)
    try container.encode(valid, forKey: .valid)
    try container.encodeIfPresent(createdAt.map(RFC3339.string(from:)), forKey: .createdAt)
  }
}

/// A replay job X accepted (`POST /2/webhooks/replay`): the events of a past window are
/// delivered again to the webhook.
///
/// ```swift
/// let job = try await app.v2.replayWebhookEvents(webhookID: "1146654567674912769", from: start, to: end)
/// print(job.id)
/// ```
public struct XWebhookReplayJob: Sendable, Hashable, Codable {
  /// X's id of the job.
  public let id: String
  /// When X created it.
  public let createdAt: Date?

  /// A job from its parts, for tests and emulators.
  public init(id: String, createdAt: Date? = nil) {
    self.id = id
    self.createdAt = createdAt
  }

  enum CodingKeys: String, CodingKey {
    case id = "job_id"
    case createdAt = "created_at"
  }

  /// Decodes X's object; `created_at` is an RFC 3339 string.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(String.self, forKey: .id)
    createdAt = try container.decodeIfPresent(String.self, forKey: .createdAt).flatMap(RFC3339.date(from:))
  }

  /// Encodes X's object back: `job_id`, and `created_at` as RFC 3339 when known.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encodeIfPresent(createdAt.map(RFC3339.string(from:)), forKey: .createdAt)
  }
}

/// X's webhook management (x-api/webhooks/*), app-only (a bearer token), as X requires. X's
/// specification and its pages differ on some answers (the created webhook at the top level or
/// under `data`; a re-check's `attempted` or `valid`): both forms are read.
extension XClient.V2 {
  /// Registers `url` (`POST /2/webhooks`); X checks it with a CRC at once, so the receiver must
  /// be answering (``XWebhookReceiver``). X takes only a public `https://` URL without a port.
  ///
  /// ```swift
  /// let webhook = try await app.v2.registerWebhook(url: "https://example.com/webhook")
  /// ```
  public func registerWebhook(url: String) async throws(XError) -> XWebhookConfig {
    struct Body: Encodable, Sendable { let url: String }
    let response = try await client.send(
      Request<DataOrRoot<XWebhookConfig>>(
        method: XEndpoint.createWebhooks.method, path: XEndpoint.createWebhooks.filled(), body: .json(Body(url: url))))
    return response.value.value
  }

  /// The app's webhooks (`GET /2/webhooks`); none is an empty list.
  ///
  /// ```swift
  /// let invalid = try await app.v2.webhooks().filter { !$0.valid }
  /// ```
  public func webhooks() async throws(XError) -> [XWebhookConfig] {
    let query: [QueryItem] = [("webhook_config.fields", "created_at,id,url,valid")]
    return try await client.send(Request<V2Envelope<[XWebhookConfig]>>(path: XEndpoint.getWebhooks.filled(), query: query)).value.data ?? []
  }

  /// Asks X to check the webhook again with a CRC and re-enable it if it passes
  /// (`PUT /2/webhooks/{id}`): `true` when X says it attempted the check or the webhook is valid.
  ///
  /// ```swift
  /// _ = try await app.v2.recheckWebhook(id: webhook.id)
  /// ```
  public func recheckWebhook(id: String) async throws(XError) -> Bool {
    struct Answer: Decodable, Sendable {
      let attempted: Bool?
      let valid: Bool?
    }
    let request = Request<V2Envelope<Answer>>(
      method: XEndpoint.validateWebhooks.method, path: XEndpoint.validateWebhooks.filled(id), isIdempotent: true)
    let answer = try await client.send(request).value.data
    return answer?.attempted ?? answer?.valid ?? false
  }

  /// Deletes the webhook (`DELETE /2/webhooks/{id}`): `true` when X says it is deleted.
  ///
  /// ```swift
  /// try await app.v2.deleteWebhook(id: webhook.id)
  /// ```
  @discardableResult
  public func deleteWebhook(id: String) async throws(XError) -> Bool {
    struct Answer: Decodable, Sendable { let deleted: Bool? }
    let request = Request<V2Envelope<Answer>>(
      method: XEndpoint.deleteWebhooks.method, path: XEndpoint.deleteWebhooks.filled(id), isIdempotent: true)
    return try await client.send(request).value.data?.deleted ?? false
  }

  /// Asks X to deliver again the events of `from`...`to` to the webhook
  /// (`POST /2/webhooks/replay`); X takes the times to the minute, in UTC (`yyyymmddhhmm`).
  ///
  /// ```swift
  /// let job = try await app.v2.replayWebhookEvents(webhookID: id, from: Date().addingTimeInterval(-3600), to: Date())
  /// ```
  public func replayWebhookEvents(webhookID: String, from start: Date, to end: Date) async throws(XError) -> XWebhookReplayJob {
    struct Body: Encodable, Sendable {
      let webhookID: String
      let fromDate: String
      let toDate: String
      enum CodingKeys: String, CodingKey {
        case webhookID = "webhook_id"
        case fromDate = "from_date"
        case toDate = "to_date"
      }
    }
    let body = Body(webhookID: webhookID, fromDate: Self.replayMinute(start), toDate: Self.replayMinute(end))
    let request = Request<DataOrRoot<XWebhookReplayJob>>(
      method: XEndpoint.createWebhookReplayJob.method, path: XEndpoint.createWebhookReplayJob.filled(), body: .json(body))
    return try await client.send(request).value.value
  }

  /// `yyyymmddhhmm` in UTC: the replay's form of a time.
  static func replayMinute(_ date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
    return String(format: "%04d%02d%02d%02d%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0, parts.minute ?? 0)
  }
}

/// An object X answers either under `data` (its pages) or at the top level (its specification).
struct DataOrRoot<Value: Decodable & Sendable>: Decodable, Sendable {
  let value: Value

  private enum CodingKeys: String, CodingKey { case data }

  init(from decoder: any Decoder) throws {
    if let container = try? decoder.container(keyedBy: CodingKeys.self), let value = try? container.decode(Value.self, forKey: .data) {
      self.value = value
    } else {
      value = try Value(from: decoder)
    }
  }
}
