import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A request ready for the transport: what behaviors modify, sign and log.
///
/// ```swift
/// var request = HTTPRequest(method: .get, url: URL(string: "https://api.example.com/items")!)
/// request.headers["Accept"] = "application/json"
/// ```
public struct HTTPRequest: Sendable, Hashable {
  /// Identifies one call of the client: every attempt of a request carries the same id, and
  /// no other request does. Behaviors use it to match a response to its request.
  public let id: UUID
  /// The method; at creation it also sets ``isIdempotent`` unless told otherwise. A 303 redirect turns it into
  /// `GET` (`HEAD` stays `HEAD`).
  public var method: HTTPMethod
  /// The absolute URL, with its query already encoded.
  public var url: URL
  /// The header fields to send, in order, repeated names included; behaviors add to them and signers sign them.
  public var headers: HTTPHeaders
  /// The bytes sent as the body, `nil` for none; the client encodes a ``RequestBody`` into it.
  public var body: Data?
  /// A file whose bytes are the body, streamed by the transport instead of ``body`` (a
  /// multipart upload with file parts: ``MultipartFormData``); `nil` for none.
  public var bodyFile: URL?
  /// Whether a retry may send it again; from the method unless the request says otherwise.
  public var isIdempotent: Bool
  /// Seconds to wait for the response; the configuration's default when `nil`.
  public var timeout: TimeInterval?
  /// The redirects that led to this request, oldest first; empty for the first hop.
  public var redirections: [Redirection] = []

  /// Creates a request with a new ``id``.
  ///
  /// - Parameters:
  ///   - method: the HTTP method.
  ///   - url: the absolute URL, its query already encoded.
  ///   - headers: the header fields; none by default.
  ///   - body: the body bytes; `nil` (no body) by default.
  ///   - isIdempotent: whether a retry may send it again; `nil` (the default) takes the method's
  ///     ``HTTPMethod/isIdempotent``.
  ///   - timeout: seconds to wait for the response; `nil` (the default) leaves it to the transport (the client
  ///     always sets its configuration's timeout).
  public init(method: HTTPMethod, url: URL, headers: HTTPHeaders = [:], body: Data? = nil, isIdempotent: Bool? = nil, timeout: TimeInterval? = nil) {
    self.id = UUID()
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
    self.isIdempotent = isIdempotent ?? method.isIdempotent
    self.timeout = timeout
  }

  /// `GET https://api.example.com/items?a=1`, as messages name the request: secrets in the query
  /// redacted, and a long URL shortened to its endpoint and a glimpse of its query
  /// (``MessageURL``), the whole line within ``MessageURL/requestLineLimit`` characters.
  public var requestLine: String {
    "\(method.rawValue) \(MessageURL.text(url.absoluteString, limit: MessageURL.requestLineLimit - method.rawValue.count - 1))"
  }

  /// The `URLRequest` for Foundation's loading system.
  public var urlRequest: URLRequest {
    var request = URLRequest(url: url)
    request.httpMethod = method.rawValue
    for field in headers { request.addValue(field.value, forHTTPHeaderField: field.name) }
    request.httpBody = body
    if let timeout { request.timeoutInterval = timeout }
    return request
  }
}
