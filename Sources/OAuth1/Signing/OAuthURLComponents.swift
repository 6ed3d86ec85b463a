import PercentEncoding

/// The parts of an absolute request URL that OAuth 1.0a signs, split exactly as sent.
///
/// Foundation's `URL` decodes the path (`URL.path` turns `%20` into a space and `%2F` into
/// `/`), and its parsing differs between platforms, so the signer splits the URL itself
/// per RFC 3986: the path stays percent-encoded as sent and the query stays raw.
///
/// ```swift
/// let url = try OAuthURLComponents("HTTP://Example.com:80/r%20v/X?id=123")
/// url.scheme          // "http"
/// url.host            // "example.com"
/// url.port            // 80
/// url.path            // "/r%20v/X"
/// url.query           // "id=123"
/// ```
public struct OAuthURLComponents: Hashable, Sendable {
  /// The scheme, lowercased.
  public var scheme: String
  /// The host, lowercased; an IPv6 literal is in brackets and in RFC 5952 form.
  public var host: String
  /// The explicit port, if the URL has one.
  public var port: Int?
  /// The percent-encoded path as sent (`/` when empty). Bytes that may not appear raw in a
  /// path, such as a space, are percent-encoded; existing escapes are never touched.
  public var path: String
  /// The raw query, without `?`; `nil` when the URL has no `?`.
  public var query: String?

  /// Splits `url`. Throws when it is relative, has no host or has an invalid port, and,
  /// when `requireHTTP` is true, when its scheme is not `http` or `https`.
  public init(_ url: String, requireHTTP: Bool = false) throws(OAuthError) {
    // Split on Unicode scalars, not Characters: a combining mark right after "?" or "/" would
    // otherwise fuse with it into one Character and hide the delimiter.
    var rest = Substring(url).unicodeScalars
    if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }

    guard let colon = rest.firstIndex(of: ":"), Self.isScheme(Substring(rest[..<colon])) else {
      throw .relativeURL(url)
    }
    scheme = Substring(rest[..<colon]).lowercased()
    if requireHTTP && scheme != "http" && scheme != "https" {
      throw .unsupportedScheme(url: url, scheme: String(Substring(rest[..<colon])))
    }
    rest = rest[rest.index(after: colon)...]
    guard rest.starts(with: "//".unicodeScalars) else { throw .missingHost(url) }
    rest = rest.dropFirst(2)

    let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
    (host, port) = try Self.parseAuthority(rest[..<authorityEnd], url: url)
    rest = rest[authorityEnd...]

    if let questionMark = rest.firstIndex(of: "?") {
      query = String(Substring(rest[rest.index(after: questionMark)...]))
      rest = rest[..<questionMark]
    } else {
      query = nil
    }
    path = rest.isEmpty ? "/" : PercentEncoding.encodePath(Substring(rest))
  }

  /// Replaces the host and port with those of a `Host` header (`example.com:8080`), which
  /// names the authority the server saw when the request went through a proxy.
  public mutating func override(hostHeader: String) throws(OAuthError) {
    (host, port) = try Self.parseAuthority(Substring(hostHeader).unicodeScalars, url: hostHeader)
  }

  /// The port when it is the scheme's default one (80 for http, 443 for https), else `nil`.
  public var defaultPort: Int? {
    switch scheme {
    case "http": return 80
    case "https": return 443
    default: return nil
    }
  }

  // MARK: - Parsing

  private static func isScheme(_ candidate: Substring) -> Bool {
    guard let first = candidate.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else {
      return false
    }
    return candidate.unicodeScalars.allSatisfy { scalar in
      scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "+-.".unicodeScalars.contains(scalar))
    }
  }

  private static func parseAuthority(_ authority: Substring.UnicodeScalarView, url: String) throws(OAuthError) -> (host: String, port: Int?) {
    var hostAndPort = authority
    if let at = hostAndPort.lastIndex(of: "@") {
      hostAndPort = hostAndPort[hostAndPort.index(after: at)...]  // userinfo is never signed
    }
    let host: String
    let portText: Substring?
    if hostAndPort.first == "[" {
      guard let close = hostAndPort.firstIndex(of: "]") else {
        throw .malformedURL(url: url, reason: "the IPv6 address has no closing \"]\"")
      }
      host = "[" + (try IPv6Address.canonical(Substring(hostAndPort[hostAndPort.index(after: hostAndPort.startIndex)..<close]), url: url)) + "]"
      let afterBracket = hostAndPort[hostAndPort.index(after: close)...]
      if afterBracket.isEmpty {
        portText = nil
      } else if afterBracket.first == ":" {
        portText = Substring(afterBracket.dropFirst())
      } else {
        throw .malformedURL(url: url, reason: "unexpected \"\(Substring(afterBracket))\" after the IPv6 address")
      }
    } else if let colon = hostAndPort.firstIndex(of: ":") {
      host = Substring(hostAndPort[..<colon]).lowercased()
      portText = Substring(hostAndPort[hostAndPort.index(after: colon)...])
    } else {
      host = Substring(hostAndPort).lowercased()
      portText = nil
    }
    guard !host.isEmpty else { throw .missingHost(url) }
    // A registered name holds only RFC 3986 reg-name bytes (unreserved, sub-delims, escapes):
    // a space, a control byte or a quote in a host is an attack or a typo, never a host.
    if !host.hasPrefix("["), let bad = host.utf8.first(where: { !Self.isRegNameByte($0) }) {
      throw .malformedURL(url: url, reason: "the host contains the byte 0x\(String(bad, radix: 16, uppercase: true)), which a host name cannot hold")
    }
    guard let portText, !portText.isEmpty else { return (host, nil) }  // "host:" means no port
    guard portText.count <= 5, portText.allSatisfy(\.isASCIIDigit), let port = Int(portText), (1...65535).contains(port) else {
      throw .invalidPort(url: url, port: String(portText))
    }
    return (host, port)
  }

  /// RFC 3986 `reg-name`: unreserved, sub-delims and the `%` of escapes; non-ASCII bytes
  /// are let through for internationalized names.
  private static func isRegNameByte(_ byte: UInt8) -> Bool {
    byte >= 0x80 || PercentEncoding.isUnreserved(byte) || "!$&'()*+,;=%".utf8.contains(byte)
  }
}

extension Character {
  var isASCIIDigit: Bool { isASCII && isNumber }
}
