import Foundation

/// A response as received, with the request that produced it.
///
/// ```swift
/// let response = try await client.send(Request<HTTPResponse>(path: "items"))
/// response.statusCode       // 200
/// response.headers["ETag"]  // "\"v1\""
/// ```
public struct HTTPResponse: Sendable, Hashable {
  /// The HTTP status, such as 200 or 404.
  public var statusCode: Int
  /// The header fields as the transport received them; look them up without regard to case.
  public var headers: HTTPHeaders
  /// The body bytes; empty when the response has none (a 304, the answer to a `HEAD`).
  public var body: Data
  /// The final request sent on the attempt that got this response.
  public var request: HTTPRequest

  /// Creates the response to `request` (the request as sent), as a transport or a test stub does; no headers and
  /// an empty body by default.
  public init(statusCode: Int, headers: HTTPHeaders = [:], body: Data = Data(), request: HTTPRequest) {
    self.statusCode = statusCode
    self.headers = headers
    self.body = body
    self.request = request
  }

  /// Whether the status is 2xx. The client fails any other status that it does not follow as a redirect with
  /// ``NetworkError/httpStatus(_:)``.
  public var isSuccess: Bool { (200..<300).contains(statusCode) }

  /// The rate-limit state the server reported (`x-rate-limit-*`), if any.
  public var rateLimit: RateLimit? { RateLimit(headers: headers) }

  /// The body as text (UTF-8, invalid bytes replaced), for messages.
  public var text: String { String(decoding: body, as: UTF8.self) }
}
