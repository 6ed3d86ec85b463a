import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Hosts that are this machine or its link: `localhost`, 127.0.0.0/8, 0.0.0.0/8, 169.254.0.0/16
/// (link-local, where clouds serve their instance metadata and credentials), ::, ::1 and
/// fe80::/10, written in any form the resolver reads (`127.1`, `2130706433`, `0x7f.1`,
/// `::ffff:127.0.0.1`). ``CurlTransport`` sends requests to them without a proxy (a proxy from
/// `http_proxy` cannot reach this machine's loopback, and should not see what goes there), and
/// `tweets media download` refuses them in URLs from X. A name that a DNS server resolves to such
/// an address is not caught: the check is of the URL.
///
/// ```swift
/// LocalHosts.isLocal("127.0.0.1")  // true
/// LocalHosts.isLocal("169.254.169.254")  // true
/// LocalHosts.isLocal("pbs.twimg.com")  // false
/// ```
package enum LocalHosts {
  /// Whether `host` (as a URL holds it, brackets and all) names this machine or its link.
  package static func isLocal(_ host: String) -> Bool {
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
}
