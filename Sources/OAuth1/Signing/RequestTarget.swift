import PercentEncoding

/// The parts of a request URL the fast signer needs: the raw query and the base string URI,
/// already encoded for the base string.
///
/// Ordinary URLs (`http`/`https`, a plain host name or IPv4 address, an optional port, a path
/// that needs no encoding) are read straight from the bytes; anything else — userinfo, IPv6,
/// a `Host` override, bytes the path must encode, invalid input — goes through
/// ``OAuthURLComponents``, the one full implementation of the rules and their errors.
struct RequestTarget {
  /// The raw query: the bytes after `?` and before `#`.
  let query: UnsafeBufferPointer<UInt8>
  private let uri: URI

  private enum URI {
    /// An ordinary URL read in place: the bytes and where its parts are.
    case parsed(bytes: UnsafeBufferPointer<UInt8>, secure: Bool, host: Range<Int>, port: Int, path: Range<Int>)
    /// Anything else, as ``OAuthURLComponents`` normalized and encoded it.
    case encoded(UnsafeBufferPointer<UInt8>)
  }

  /// Lends `body` the parts of `url` (with `host`, the request's `Host` header, overriding the
  /// URL's authority); the parts point into memory that lives only as long as the call.
  static func with<R>(_ url: String, host: String?, _ body: (RequestTarget) throws(OAuthError) -> R) throws(OAuthError) -> R {
    if host == nil {
      let done: R? = try withUTF8Bytes(url) { bytes throws(OAuthError) in
        guard let fast = fast(bytes) else { return nil }
        return try body(fast)
      }
      if let done { return done }
    }
    var components = try OAuthURLComponents(url, requireHTTP: true)
    if let host { try components.override(hostHeader: host) }
    let query = Array((components.query ?? "").utf8)
    let encoded = Array(PercentEncoding.encode(OAuthBaseStringURI.make(components)).utf8)
    return try query.withUnsafeBufferPointer { query throws(OAuthError) in
      try encoded.withUnsafeBufferPointer { encoded throws(OAuthError) in
        try body(RequestTarget(query: query, uri: .encoded(encoded)))
      }
    }
  }

  /// An upper bound of ``writeEncodedURI(into:)``'s length.
  var encodedURICapacity: Int {
    switch uri {
    case .encoded(let bytes): return bytes.count
    case .parsed(_, _, let host, _, let path): return 14 + host.count + 8 + 3 * max(path.count, 1)
    }
  }

  /// Writes `enc(base string URI)`: `scheme://host[:port]/path` with `:` and `/` as `%3A` and
  /// `%2F` and the path's own escapes as `%25XX`. Returns the bytes written.
  func writeEncodedURI(into out: UnsafeMutablePointer<UInt8>) -> Int {
    switch uri {
    case .encoded(let bytes):
      out.update(from: bytes.baseAddress!, count: bytes.count)
      return bytes.count
    case .parsed(let bytes, let secure, let host, let port, let path):
      var position = CanonicalParameters.put(secure ? "https%3A%2F%2F" : "http%3A%2F%2F", out)
      var index = host.lowerBound
      while index < host.upperBound {
        out[position] = Self.lower(bytes[index])
        position &+= 1
        index &+= 1
      }
      if port != 0 && port != (secure ? 443 : 80) {
        position += CanonicalParameters.put("%3A", out + position)
        var divisor = 10_000
        while divisor > port { divisor /= 10 }
        while divisor > 0 {
          out[position] = UInt8(ascii: "0") + UInt8(port / divisor % 10)
          position += 1
          divisor /= 10
        }
      }
      if path.isEmpty { return position + CanonicalParameters.put("%2F", out + position) }
      return position + PercentEncoding.encode(UnsafeBufferPointer(rebasing: bytes[path]), into: out + position)
    }
  }

  private static func fast(_ bytes: UnsafeBufferPointer<UInt8>) -> RequestTarget? {
    let count = bytes.count
    // Scheme.
    var secure: Bool
    var index: Int
    if count > 7, lower(bytes[0]) == UInt8(ascii: "h"), lower(bytes[1]) == UInt8(ascii: "t"), lower(bytes[2]) == UInt8(ascii: "t"),
       lower(bytes[3]) == UInt8(ascii: "p") {
      if bytes[4] == UInt8(ascii: ":") {
        secure = false
        index = 5
      } else if lower(bytes[4]) == UInt8(ascii: "s"), bytes[5] == UInt8(ascii: ":") {
        secure = true
        index = 6
      } else {
        return nil
      }
    } else {
      return nil
    }
    guard index + 2 <= count, bytes[index] == UInt8(ascii: "/"), bytes[index + 1] == UInt8(ascii: "/") else { return nil }
    index += 2

    // Host: letters, digits, dots and dashes only; then an optional port.
    let hostStart = index
    while index < count, isHostByte(bytes[index]) { index += 1 }
    let hostEnd = index
    guard hostEnd > hostStart else { return nil }
    var port = 0
    if index < count, bytes[index] == UInt8(ascii: ":") {
      index += 1
      let digitsStart = index
      while index < count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
        port = port * 10 + Int(bytes[index] - UInt8(ascii: "0"))
        index += 1
        if index - digitsStart > 5 { return nil }
      }
      if index > digitsStart, port < 1 || port > 65535 { return nil }
    }
    guard index == count || bytes[index] == UInt8(ascii: "/") || bytes[index] == UInt8(ascii: "?") || bytes[index] == UInt8(ascii: "#") else {
      return nil
    }

    // Path: only bytes that need no encoding.
    let pathStart = index
    while index < count, bytes[index] != UInt8(ascii: "?"), bytes[index] != UInt8(ascii: "#") {
      guard PercentEncoding.isPathSafe(bytes[index]) else { return nil }
      index += 1
    }
    let pathEnd = index
    var queryStart = index, queryEnd = index
    if index < count, bytes[index] == UInt8(ascii: "?") {
      queryStart = index + 1
      queryEnd = queryStart
      while queryEnd < count, bytes[queryEnd] != UInt8(ascii: "#") { queryEnd += 1 }
    }

    return RequestTarget(
      query: UnsafeBufferPointer(rebasing: bytes[queryStart..<queryEnd]),
      uri: .parsed(bytes: bytes, secure: secure, host: hostStart..<hostEnd, port: port, path: pathStart..<pathEnd))
  }

  @inline(__always)
  private static func lower(_ byte: UInt8) -> UInt8 {
    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
  }

  @inline(__always)
  private static func isHostByte(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
      || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
  }
}
