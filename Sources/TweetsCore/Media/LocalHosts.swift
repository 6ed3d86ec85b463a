import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Hosts that are this machine or its link, which a media URL from X (or from a file of JSON
/// lines anyone may have written) has no business naming: `localhost`, 127.0.0.0/8, 0.0.0.0/8,
/// 169.254.0.0/16 (link-local, where clouds serve their instance metadata and credentials), ::,
/// ::1 and fe80::/10, written in any form the resolver reads (`127.1`, `2130706433`, `0x7f.1`,
/// `::ffff:127.0.0.1`). `tweets media download` refuses them unless the API itself is on such a
/// host (`--base-url` naming a sandbox served on loopback, whose CDN stand-in is there too).
/// A name that a DNS server resolves to such an address is not caught: the check is of the URL.
///
/// ```swift
/// LocalHosts.isLocal("127.0.0.1")  // true
/// LocalHosts.isLocal("169.254.169.254")  // true
/// LocalHosts.isLocal("pbs.twimg.com")  // false
/// ```
enum LocalHosts {
  /// Whether `host` (as a URL holds it, brackets and all) names this machine or its link.
  static func isLocal(_ host: String) -> Bool {
    var name = host.lowercased()
    if name.hasPrefix("[") && name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
    while name.hasSuffix(".") { name.removeLast() }
    if name.isEmpty || name == "localhost" || name.hasSuffix(".localhost") { return true }
    if name.contains(":") {
      // An IPv6 address, without its zone (`fe80::1%eth0`).
      let address = String(name.prefix { $0 != "%" })
      var bytes = in6_addr()
      guard inet_pton(AF_INET6, address, &bytes) == 1 else { return false }
      let octets = withUnsafeBytes(of: bytes) { Array($0) }
      if octets[0] == 0xFE && octets[1] & 0xC0 == 0x80 { return true }
      // ::, ::1, and an IPv4 address inside (mapped ::ffff:a.b.c.d, or compatible ::a.b.c.d).
      if octets[0..<10].allSatisfy({ $0 == 0 }) && (octets[10..<12].allSatisfy { $0 == 0 } || octets[10..<12].allSatisfy { $0 == 0xFF }) {
        if octets[10] == 0 && octets[12..<15].allSatisfy({ $0 == 0 }) && octets[15] <= 1 { return true }
        return isLocalIPv4(Array(octets[12..<16]))
      }
      return false
    }
    // An IPv4 address in any form inet_aton reads, as the resolver does (`127.1`, `2130706433`).
    guard name.allSatisfy({ $0.isHexDigit || $0 == "." || $0 == "x" }) else { return false }
    var address = in_addr()
    guard inet_aton(name, &address) != 0 else { return false }
    return isLocalIPv4(withUnsafeBytes(of: address.s_addr) { Array($0) })
  }

  /// Whether four octets (network order) are in 127.0.0.0/8, 0.0.0.0/8 or 169.254.0.0/16.
  private static func isLocalIPv4(_ octets: [UInt8]) -> Bool {
    octets[0] == 127 || octets[0] == 0 || (octets[0] == 169 && octets[1] == 254)
  }

  /// Why `url` is not fetched as a media file (a scheme other than http and https, a local
  /// host), or `nil`; a local host is allowed when `allowingLocal`.
  static func refusal(_ url: URL, allowingLocal: Bool) -> String? {
    guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
      return "refused \(origin(of: url)): only http and https URLs are downloaded"
    }
    guard let host = url.host, !allowingLocal, isLocal(host) else { return nil }
    return "refused \(origin(of: url)): a media file is not fetched from this machine or its link "
      + "(loopback, link-local, unspecified addresses), unless --base-url is on this machine too (a sandbox)"
  }

  /// How a refused URL is named in a message: `scheme://host[:port]`, never its path and query.
  private static func origin(of url: URL) -> String {
    guard let host = url.host else { return "a URL without a host" }
    return "\(url.scheme ?? "?")://\(host)" + (url.port.map { ":\($0)" } ?? "")
  }
}
