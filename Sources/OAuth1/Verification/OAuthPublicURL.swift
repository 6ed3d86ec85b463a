import Foundation

/// Which URL a verifier checks signatures against when a reverse proxy stands in front of it.
///
/// A client signs the URL it called (`https://tool.example.edu/launch`); behind a proxy that
/// ends TLS the server receives `http://127.0.0.1:8080/launch`, and a base string built from
/// that can never match (LTI tools behind a load balancer fail this way: openedx/openedx-platform#6266,
/// oauthlib/oauthlib#142). Tell the verifier the public URL:
///
/// ```swift
/// // The public origin is fixed and known:
/// var options = OAuthVerifier.Options()
/// options.publicURL = .origin("https://tool.example.edu")
///
/// // Or read from the X-Forwarded-* headers your proxy writes, believed only from the proxy:
/// options.publicURL = .forwarded(trustedProxies: ["10.0.0.5"], headers: .xForwarded)
/// let verified = try await OAuthVerifier(credentials: lookup, options: options)
///   .verify(request, authorization: authorization, headers: headers, peerAddress: "10.0.0.5")
/// ```
///
/// Forwarding headers are believed only from a trusted proxy, and only the family you name:
/// any client can send them, and a verifier that believed a header the proxy passes through
/// untouched would check the signature against an origin the client chose. Configure the
/// proxy to *set* (overwrite) the headers of that family, not to append to what the client sent.
public enum OAuthPublicURL: Sendable, Hashable {
  /// The forwarding headers a proxy writes.
  public enum ForwardingHeaders: Sendable, Hashable {
    /// `Forwarded: proto=https;host=example.com` (RFC 7239), the last element.
    case forwarded
    /// `X-Forwarded-Proto`, `X-Forwarded-Host` and `X-Forwarded-Port` (nginx, HAProxy, AWS
    /// load balancers), the last value of each.
    case xForwarded
  }

  /// The URL as received: no proxy in front.
  case asReceived
  /// Replace the received URL's scheme, host and port with this origin
  /// (`"https://tool.example.edu"`, `"https://example.com:8443"`); path and query are kept.
  case origin(String)
  /// Read the public scheme, host and port from the `headers` family, when the connection
  /// comes from one of `trustedProxies` (addresses as the server's socket reports them:
  /// `"127.0.0.1"`, `"::1"`). From any other address, and for the other family, the headers
  /// are ignored.
  case forwarded(trustedProxies: Set<String>, headers: ForwardingHeaders)

  /// The URL a client signed for a request received at `url` (with the `Host` header `host`,
  /// when it differs from the URL's) with these headers, from `peerAddress`.
  public func resolve(url: String, host: String? = nil, headers: [(name: String, value: String)], peerAddress: String?) -> String {
    switch self {
    case .asReceived:
      return url
    case .origin(let origin):
      guard let publicOrigin = try? OAuthURLComponents(origin, requireHTTP: true) else { return url }
      return Self.replacingOrigin(of: url, with: publicOrigin)
    case .forwarded(let trusted, let family):
      guard let peerAddress, trusted.contains(Self.unbracketed(peerAddress)), var received = try? OAuthURLComponents(url) else { return url }
      if let host { try? received.override(hostHeader: host) }
      guard let publicOrigin = Self.forwardedOrigin(headers, family, received: received) else { return url }
      return Self.replacingOrigin(of: url, with: publicOrigin)
    }
  }

  /// `url` with the scheme, host and port of `origin` (the port left out when it is the default).
  static func replacingOrigin(of url: String, with origin: OAuthURLComponents) -> String {
    guard let schemeEnd = url.range(of: "://") else { return url }
    let authority = url[schemeEnd.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    let port = origin.port.flatMap { $0 == origin.defaultPort ? nil : ":\($0)" } ?? ""
    return origin.scheme + "://" + origin.host + port + url[authority.endIndex...]
  }

  /// The public origin the proxy reports in `family`, `nil` when those headers say nothing.
  static func forwardedOrigin(
    _ headers: [(name: String, value: String)], _ family: ForwardingHeaders, received: OAuthURLComponents
  ) -> OAuthURLComponents? {
    func last(_ name: String, separator: Character = ",") -> String? {
      guard let value = headers.last(where: { $0.name.lowercased() == name })?.value else { return nil }
      let item = value.split(separator: separator).last.map { $0.trimmingCharacters(in: .whitespaces) }
      return item?.isEmpty == false ? item : nil
    }
    var proto: String?, host: String?, port: String?
    switch family {
    case .forwarded:
      guard let element = last("forwarded") else { return nil }
      for pair in element.split(separator: ";") {
        let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2 else { continue }
        let quoted = parts[1].count >= 2 && parts[1].hasPrefix("\"") && parts[1].hasSuffix("\"")
        let value = quoted ? String(parts[1].dropFirst().dropLast()) : parts[1]
        switch parts[0].lowercased() {
        case "proto": proto = value
        case "host": host = value
        default: break
        }
      }
    case .xForwarded:
      (proto, host, port) = (last("x-forwarded-proto"), last("x-forwarded-host"), last("x-forwarded-port"))
    }
    guard proto != nil || host != nil || port != nil else { return nil }
    var origin = received
    if let proto, proto.lowercased() != received.scheme {
      // Another scheme without a port of its own is on that scheme's default port.
      origin.scheme = proto.lowercased()
      origin.port = nil
    }
    if let host { try? origin.override(hostHeader: host) }
    if let port { origin.port = Int(port) }
    return origin
  }

  static func unbracketed(_ address: String) -> String {
    address.hasPrefix("[") && address.hasSuffix("]") ? String(address.dropFirst().dropLast()) : address
  }
}
