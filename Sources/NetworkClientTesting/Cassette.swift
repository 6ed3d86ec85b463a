import Foundation
import NetworkClient

/// Recorded HTTP exchanges, as JSON: what ``RecordingTransport`` writes and ``ReplayTransport``
/// answers from (the idea of Venmo's DVR and Ruby's VCR: tests run against real answers, with
/// no network).
///
/// Secrets are redacted when an exchange is recorded, never later: the `Authorization`,
/// `Cookie` and other credential headers, sensitive query and form parameters (`oauth_token`,
/// `oauth_token_secret`, `access_token`, `password`...), and the same names as JSON keys in
/// bodies. What remains can be committed.
///
/// ```json
/// {"interactions": [{"request": {"method": "GET", "url": "https://api.x.com/2/tweets?ids=20",
///                                "headers": {"Authorization": "<redacted>"}},
///                    "response": {"status": 200, "headers": {"content-type": "application/json"},
///                                 "body": "{\"data\": [...]}"}}]}
/// ```
public struct Cassette: Codable, Sendable, Hashable {
  /// One request and the answer it got.
  public struct Interaction: Codable, Sendable, Hashable {
    /// The request, redacted.
    public var request: RecordedRequest
    /// The response, redacted.
    public var response: RecordedResponse

    /// An interaction from its parts.
    public init(request: RecordedRequest, response: RecordedResponse) {
      self.request = request
      self.response = response
    }
  }

  /// A request as recorded.
  public struct RecordedRequest: Codable, Sendable, Hashable {
    /// `GET`, `POST`...
    public var method: String
    /// The absolute URL with its query, sensitive parameters redacted.
    public var url: String
    /// The headers, credentials redacted.
    public var headers: [String: String]
    /// The body as text (a form's sensitive values redacted), if any.
    public var body: String?

    /// A recorded request from its parts.
    public init(method: String, url: String, headers: [String: String] = [:], body: String? = nil) {
      self.method = method
      self.url = url
      self.headers = headers
      self.body = body
    }
  }

  /// A response as recorded.
  public struct RecordedResponse: Codable, Sendable, Hashable {
    /// The HTTP status.
    public var status: Int
    /// The headers (`Set-Cookie` redacted).
    public var headers: [String: String]
    /// The body as UTF-8 text, secrets redacted; `nil` when it is binary (see ``bodyBase64``).
    public var body: String?
    /// A body that is not UTF-8, as base64.
    public var bodyBase64: String?

    /// A recorded response from its parts.
    public init(status: Int, headers: [String: String] = [:], body: String? = nil, bodyBase64: String? = nil) {
      self.status = status
      self.headers = headers
      self.body = body
      self.bodyBase64 = bodyBase64
    }

    enum CodingKeys: String, CodingKey {
      case status, headers, body
      case bodyBase64 = "body_base64"
    }

    /// The body's bytes.
    public var data: Data { body.map { Data($0.utf8) } ?? bodyBase64.flatMap { Data(base64Encoded: $0) } ?? Data() }
  }

  /// The exchanges, in the order they happened.
  public var interactions: [Interaction]

  /// A cassette of `interactions`.
  public init(interactions: [Interaction] = []) {
    self.interactions = interactions
  }

  /// Reads a cassette file.
  public init(contentsOf file: URL) throws {
    self = try JSONDecoder().decode(Cassette.self, from: Data(contentsOf: file))
  }

  /// The cassette as pretty, stably ordered JSON.
  public func encoded() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(self)
  }

  /// The interaction for an exchange, redacted.
  public static func interaction(_ request: HTTPRequest, _ response: HTTPResponse) -> Interaction {
    Interaction(
      request: RecordedRequest(
        method: request.method.rawValue, url: Redaction.url(request.url.absoluteString),
        headers: headers(Redaction.headers(request.headers)),
        body: request.body.flatMap { redactedBody($0, contentType: request.headers["Content-Type"]) }),
      response: RecordedResponse(
        status: response.statusCode, headers: responseHeaders(response.headers),
        body: redactedBody(response.body, contentType: response.headers["Content-Type"]),
        bodyBase64: String(data: response.body, encoding: .utf8) == nil ? response.body.base64EncodedString() : nil))
  }

  private static func headers(_ headers: HTTPHeaders) -> [String: String] {
    Dictionary(headers.map { ($0.name, $0.value) }, uniquingKeysWith: { first, second in first + ", " + second })
  }

  /// A text body with its secrets redacted: JSON by key, a form by name, other text by pattern.
  /// `nil` for a body that is not UTF-8.
  static func redactedBody(_ body: Data, contentType: String?) -> String? {
    guard let text = String(data: body, encoding: .utf8) else { return nil }
    if let object = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) {
      var changed = false
      let redacted = redactJSON(object, changed: &changed)
      guard changed,
        let data = try? JSONSerialization.data(withJSONObject: redacted, options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
      else { return text }
      return String(decoding: data, as: UTF8.self)
    }
    let isForm = contentType?.lowercased().contains("x-www-form-urlencoded") == true || (text.contains("=") && !text.contains(" "))
    return isForm ? Redaction.form(text) : Redaction.text(text)
  }

  /// A JSON key whose value is a secret: what `Redaction` calls sensitive, and any name ending
  /// in `_secret`, `_token` or `password` (`access_token_secret`, `bearer_token`), except the
  /// pagination cursors (`next_token`), which are not.
  static func isSecret(_ key: String) -> Bool {
    let lowered = key.lowercased()
    if ["next_token", "previous_token", "pagination_token"].contains(lowered) { return false }
    return Redaction.isSensitive(parameter: key) || lowered.hasSuffix("_secret") || lowered.hasSuffix("_token") || lowered.hasSuffix("password")
  }

  /// Response headers as recorded: credentials redacted, and a `Location` (a callback with
  /// `oauth_token` and `oauth_verifier`, say) with its sensitive query values redacted.
  static func responseHeaders(_ headers: HTTPHeaders) -> [String: String] {
    var recorded = self.headers(Redaction.headers(headers))
    for (name, value) in recorded where name.lowercased() == "location" { recorded[name] = Redaction.url(value) }
    return recorded
  }

  private static func redactJSON(_ value: Any, changed: inout Bool) -> Any {
    if let object = value as? [String: Any] {
      var result: [String: Any] = [:]
      for (key, item) in object {
        if Self.isSecret(key), item is String {
          result[key] = Redaction.placeholder
          changed = true
        } else {
          result[key] = redactJSON(item, changed: &changed)
        }
      }
      return result
    }
    if let array = value as? [Any] { return array.map { redactJSON($0, changed: &changed) } }
    return value
  }
}
