import Foundation

/// A response as received, with the request that produced it.
///
/// ```swift
/// let response = try await client.send(Request<HTTPResponse>(path: "items"))
/// response.statusCode       // 200
/// response.headers["ETag"]  // "\"v1\""
/// ```
public struct HTTPResponse: Sendable, Hashable {
  public var statusCode: Int
  public var headers: HTTPHeaders
  public var body: Data
  /// The final request sent on the attempt that got this response.
  public var request: HTTPRequest

  public init(statusCode: Int, headers: HTTPHeaders = [:], body: Data = Data(), request: HTTPRequest) {
    self.statusCode = statusCode
    self.headers = headers
    self.body = body
    self.request = request
  }

  public var isSuccess: Bool { (200..<300).contains(statusCode) }

  /// The rate-limit state the server reported (`x-rate-limit-*`), if any.
  public var rateLimit: RateLimit? { RateLimit(headers: headers) }

  /// The body as text (UTF-8, invalid bytes replaced), for messages.
  public var text: String { String(decoding: body, as: UTF8.self) }
}
