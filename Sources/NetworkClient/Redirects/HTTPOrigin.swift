import Foundation

/// The scheme, host and port of a URL: what decides whether credentials may follow a redirect
/// (RFC 6454). The default port is filled in, so `https://a.example` and
/// `https://a.example:443` are one origin.
///
/// ```swift
/// HTTPOrigin(URL(string: "https://API.x.com/2/users/me")!) == HTTPOrigin(scheme: "https", host: "api.x.com")  // true
/// ```
public struct HTTPOrigin: Sendable, Hashable, CustomStringConvertible {
  /// The scheme, lowercased, as `https`.
  public let scheme: String
  /// The host name, lowercased.
  public let host: String
  /// The port; the scheme's default (443 for `https`, 80 otherwise) when none was given.
  public let port: Int

  /// Creates an origin, lowercasing `scheme` and `host`; a `nil` port means the scheme's default, 443 for `https`
  /// and 80 for anything else.
  public init(scheme: String, host: String, port: Int? = nil) {
    self.scheme = scheme.lowercased()
    self.host = host.lowercased()
    self.port = port ?? (self.scheme == "https" ? 443 : 80)
  }

  /// `nil` for a URL without a scheme or host.
  public init?(_ url: URL) {
    guard let scheme = url.scheme, let host = url.host, !host.isEmpty else { return nil }
    self.init(scheme: scheme, host: host, port: url.port)
  }

  public var description: String { "\(scheme)://\(host):\(port)" }
}
