import Foundation

/// Checks that a response really comes from the API: every request carries a random nonce
/// header, and a 2xx response that does not echo it back fails. A captive portal or a proxy
/// that answers in the API's place cannot know the nonce.
///
/// ```swift
/// let verify = APIVerificationBehavior(header: "X-Request-Nonce")
/// ```
public struct APIVerificationBehavior: RequestBehavior {
  public let header: String

  public struct Mismatch: Error, CustomStringConvertible {
    public let header: String
    public let received: String?
    public var description: String {
      received == nil
        ? "the response does not echo the \(header) header, so it may not come from the API (a captive portal or proxy?)"
        : "the response echoes a different \(header) than the one sent"
    }
  }

  public init(header: String = "X-Request-Nonce") {
    self.header = header
  }

  public func modify(_ request: HTTPRequest) async throws -> HTTPRequest {
    var request = request
    request.headers[header] = UUID().uuidString
    return request
  }

  public func afterSuccess(_ response: HTTPResponse) async throws {
    let sent = response.request.headers[header]
    let received = response.headers[header]
    guard let sent, sent == received else { throw Mismatch(header: header, received: received) }
  }
}
