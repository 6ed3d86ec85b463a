import PercentEncoding

/// The parts of a request URL the fast signer needs: the raw query and the base string URI,
/// already encoded for the base string.
///
/// Ordinary URLs (`http`/`https`, a plain host name or IPv4 address, an optional port, a path
/// that needs no encoding) are read straight from the bytes; anything else — userinfo, IPv6,
/// a `Host` override, bytes the path must encode, invalid input — goes through
/// ``OAuthURLComponents``, the one full implementation of the rules and their errors.
struct RequestTarget {
  let query: [UInt8]
  let encodedBaseStringURI: [UInt8]

  init(_ url: String, host: String?) throws(OAuthError) {
    if host == nil, let fast = Self.fast(url) {
      self = fast
      return
    }
    var components = try OAuthURLComponents(url, requireHTTP: true)
    if let host { try components.override(hostHeader: host) }
    query = Array((components.query ?? "").utf8)
    encodedBaseStringURI = Array(PercentEncoding.encode(OAuthBaseStringURI.make(components)).utf8)
  }

  private init(query: [UInt8], encodedBaseStringURI: [UInt8]) {
    self.query = query
    self.encodedBaseStringURI = encodedBaseStringURI
  }

  private static func fast(_ url: String) -> RequestTarget? {
    var url = url
    return url.withUTF8 { bytes -> RequestTarget? in
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

      // enc(scheme://host[:port]/path): ':' and '/' become %3A and %2F, the path's own
      // escapes become %25XX, and the rest of a path byte set is encoded as it must be.
      let prefix: StaticString = secure ? "https%3A%2F%2F" : "http%3A%2F%2F"
      let keepPort = port != 0 && port != (secure ? 443 : 80)
      let capacity = prefix.utf8CodeUnitCount + (hostEnd - hostStart) + 8 + 3 * max(pathEnd - pathStart, 1)
      let uri = [UInt8](unsafeUninitializedCapacity: capacity) { out, written in
        var position = 0
        (out.baseAddress!).update(from: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
        position = prefix.utf8CodeUnitCount
        for index in hostStart..<hostEnd {
          out[position] = lower(bytes[index])
          position += 1
        }
        if keepPort {
          out[position] = UInt8(ascii: "%"); out[position + 1] = UInt8(ascii: "3"); out[position + 2] = UInt8(ascii: "A")
          position += 3
          var digits: [UInt8] = []
          var remaining = port
          while remaining > 0 { digits.append(UInt8(ascii: "0") + UInt8(remaining % 10)); remaining /= 10 }
          for digit in digits.reversed() { out[position] = digit; position += 1 }
        }
        if pathEnd == pathStart {
          out[position] = UInt8(ascii: "%"); out[position + 1] = UInt8(ascii: "2"); out[position + 2] = UInt8(ascii: "F")
          position += 3
        } else {
          for index in pathStart..<pathEnd {
            let byte = bytes[index]
            if PercentEncoding.isUnreserved(byte) {
              out[position] = byte
              position += 1
            } else {
              out[position] = UInt8(ascii: "%")
              out[position + 1] = PercentEncoding.hexDigit(byte >> 4)
              out[position + 2] = PercentEncoding.hexDigit(byte & 0x0F)
              position += 3
            }
          }
        }
        written = position
      }
      return RequestTarget(query: Array(UnsafeBufferPointer(rebasing: bytes[queryStart..<queryEnd])), encodedBaseStringURI: uri)
    }
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
