import Foundation

/// One redirect the client followed: which status sent the request from where to where, and
/// whether the credentials went along.
///
/// ```swift
/// for hop in response.request.redirections { print(hop.statusCode, hop.from, "→", hop.to) }
/// ```
public struct Redirection: Sendable, Hashable {
  /// The status that redirected the request: 301, 302, 303, 307 or 308.
  public let statusCode: Int
  /// The URL that answered with the redirect.
  public let from: URL
  /// The absolute URL the request went to next: the `Location` header, resolved against `from`.
  public let to: URL
  /// `false` when the target is another origin that the policy does not trust: the request
  /// went there without `Authorization`, signatures or other credential headers.
  public let keptCredentials: Bool

  /// Creates the record of one hop; the client makes these as it follows redirects (see ``HTTPRequest/redirections``).
  public init(statusCode: Int, from: URL, to: URL, keptCredentials: Bool) {
    self.statusCode = statusCode
    self.from = from
    self.to = to
    self.keptCredentials = keptCredentials
  }

  /// ` (redirected from A to B)`, or nothing when there was no redirect: for messages.
  static func note(_ chain: [Redirection]) -> String {
    guard let first = chain.first else { return "" }
    let hops = ([first.from] + chain.map(\.to)).map { MessageURL.text($0.absoluteString) }.joined(separator: " to ")
    let dropped =
      chain.contains { !$0.keptCredentials }
      ? ", another origin, so without the credentials (trust it in the client's RedirectPolicy if it should have them)"
      : ""
    return " (redirected from \(hops)\(dropped))"
  }
}
