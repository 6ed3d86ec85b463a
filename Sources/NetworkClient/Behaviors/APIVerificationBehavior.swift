import Foundation

/// Checks that a response really comes from the API: every request carries a random nonce
/// header, and a 2xx response that does not echo it back fails. A captive portal or a proxy
/// that answers in the API's place cannot know the nonce.
///
/// ```swift
/// let verify = APIVerificationBehavior(header: "X-Request-Nonce")
/// ```
public struct APIVerificationBehavior: RequestBehavior {
  /// The header that carries the nonce: set to a fresh UUID on every attempt and hop, and expected back with the
  /// same value in every 2xx response. The API must be set up to echo it.
  public let header: String

  /// The error the behavior throws when a 2xx response does not echo the nonce; the client reports it as
  /// ``NetworkError/rejected(by:underlying:)`` with this error underlying.
  public struct Mismatch: Error, CustomStringConvertible {
    /// The name of the header that was checked (the behavior's `header`).
    public let header: String
    /// The value the response carried in the header; `nil` when it did not have the header at all, as happens
    /// behind a captive portal or a proxy.
    public let received: String?
    public var description: String {
      received == nil
        ? "the response does not echo the \(header) header, so it may not come from the API (a captive portal or proxy?)"
        : "the response echoes a different \(header) than the one sent"
    }
  }

  /// Creates a behavior that sends and checks the nonce in `header` (`X-Request-Nonce` by default); use the name
  /// your API echoes.
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
