import Foundation
import PercentEncoding

/// Stage 4's input, read once: the raw query and the base string URI of a request URL.
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
    /// Anything else: the base string URI as ``OAuthBaseStringURI/make(_:)`` normalized it.
    case normalized(UnsafeBufferPointer<UInt8>)
  }

  /// Lends `body` the parts of `url` (with `host`, the request's `Host` header, overriding the
  /// URL's authority); the parts point into memory that lives only as long as the call.
  /// Throws for a URL that is not absolute (nor, when `requireHTTP`, http or https).
  static func with<R>(
    _ url: String, host: String?, requireHTTP: Bool = true, _ body: (RequestTarget) throws(OAuthError) -> R
  ) throws(OAuthError) -> R {
    if host == nil {
      let done: R? = try withUTF8Bytes(url) { bytes throws(OAuthError) in
        guard let fast = fast(bytes) else { return nil }
        return try body(fast)
      }
      if let done { return done }
    }
    var components = try OAuthURLComponents(url, requireHTTP: requireHTTP)
    if let host { try components.override(hostHeader: host) }
    let query = Array((components.query ?? "").utf8)
    let normalized = Array(OAuthBaseStringURI.make(components).utf8)
    return try query.withUnsafeBufferPointer { query throws(OAuthError) in
      try normalized.withUnsafeBufferPointer { normalized throws(OAuthError) in
        try body(RequestTarget(query: query, uri: .normalized(normalized)))
      }
    }
  }

  /// An upper bound of what ``appendURI(to:encoded:)`` writes.
  var uriCapacity: Int {
    switch uri {
    case .normalized(let bytes): return 3 * bytes.count
    case .parsed(_, _, let host, _, let path): return 14 + host.count + 8 + 3 * max(path.count, 1)
    }
  }

  /// Appends the base string URI, `scheme://host[:port]/path`, or with `encoded` its
  /// encoding for the base string (`:` and `/` as `%3A` and `%2F`, the path's escapes as `%25XX`).
  func appendURI(to out: inout ByteWriter, encoded: Bool) {
    switch uri {
    case .normalized(let bytes):
      if encoded { out.appendEncoded(bytes) } else { out.append(bytes) }
    case .parsed(let bytes, let secure, let host, let port, let path):
      switch (secure, encoded) {
      case (true, true): out.append("https%3A%2F%2F")
      case (false, true): out.append("http%3A%2F%2F")
      case (true, false): out.append("https://")
      case (false, false): out.append("http://")
      }
      // Copied whole, then lowercased in place (hosts are mostly lowercase already).
      let hostStart = out.count
      out.append(UnsafeBufferPointer(rebasing: bytes[host]))
      for index in hostStart..<out.count where out.start[index] &- UInt8(ascii: "A") < 26 { out.start[index] |= 0x20 }
      if port != 0 && port != (secure ? 443 : 80) {
        if encoded { out.append("%3A") } else { out.append(UInt8(ascii: ":")) }
        var divisor = 10_000
        while divisor > port { divisor /= 10 }
        while divisor > 0 {
          out.append(UInt8(ascii: "0") + UInt8(port / divisor % 10))
          divisor /= 10
        }
      }
      let pathBytes = UnsafeBufferPointer(rebasing: bytes[path])
      switch (path.isEmpty, encoded) {
      case (true, true): out.append("%2F")
      case (true, false): out.append(UInt8(ascii: "/"))
      case (false, true): out.appendEncoded(pathBytes)
      case (false, false): out.append(pathBytes)
      }
    }
  }

  private static func fast(_ bytes: UnsafeBufferPointer<UInt8>) -> RequestTarget? {
    let count = bytes.count
    // Scheme.
    var secure: Bool
    var index: Int
    if count > 7, lower(bytes[0]) == UInt8(ascii: "h"), lower(bytes[1]) == UInt8(ascii: "t"), lower(bytes[2]) == UInt8(ascii: "t"),
      lower(bytes[3]) == UInt8(ascii: "p")
    {
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
    // "?" and "#" are not path-safe: the loop stops at them, or at a byte to encode.
    while index < count, PercentEncoding.isPathSafe(bytes[index]) { index += 1 }
    guard index == count || bytes[index] == UInt8(ascii: "?") || bytes[index] == UInt8(ascii: "#") else { return nil }
    let pathEnd = index
    var queryStart = index, queryEnd = index
    if index < count, bytes[index] == UInt8(ascii: "?") {
      queryStart = index + 1
      let fragment = memchr(bytes.baseAddress! + queryStart, 0x23, count - queryStart)  // 0x23: "#"
      queryEnd = fragment.map { UnsafeRawPointer($0) - UnsafeRawPointer(bytes.baseAddress!) } ?? count
    }

    return RequestTarget(
      query: UnsafeBufferPointer(rebasing: bytes[queryStart..<queryEnd]),
      uri: .parsed(bytes: bytes, secure: secure, host: hostStart..<hostEnd, port: port, path: pathStart..<pathEnd))
  }

  @inline(__always)
  private static func lower(_ byte: UInt8) -> UInt8 {
    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
  }

  /// Letters, digits, `.` and `-`: a constant table, one load per byte.
  @inline(__always)
  private static func isHostByte(_ byte: UInt8) -> Bool {
    let table: StaticString =
      "0000000000000000000000000000000000000000000001101111111111000000011111111111111111111111111000000111111111111111111111111110000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    return table.utf8Start[Int(byte)] == UInt8(ascii: "1")
  }
}
