import Foundation
import PercentEncoding

/// Stage 4's input, read once into the scratch: the raw query and the base string URI of a
/// request URL.
///
/// Ordinary URLs (`http`/`https`, a plain host name or IPv4 address, an optional port, a path
/// that needs no encoding) are read straight from their bytes; anything else — userinfo, IPv6,
/// a `Host` override, bytes the path must encode, invalid input — goes through
/// ``OAuthURLComponents``, the one full implementation of the rules and their errors.
struct RequestTarget {
  /// The raw query: the bytes after `?` and before `#`.
  let query: Range<Int>
  private let uri: URI

  private enum URI {
    /// An ordinary URL read in place: where its parts are.
    case parsed(secure: Bool, host: Range<Int>, lowercase: Bool, port: Int, path: Range<Int>)
    /// Anything else: the base string URI as ``OAuthBaseStringURI/make(_:)`` normalized it.
    case normalized(Range<Int>)
  }

  private enum Attempt<R> {
    case done(R)
    case notOrdinary
  }

  /// Lends `body` the request's scratch: `url` read into it (`host`, the request's `Host`
  /// header, overriding the URL's authority), then `form` copied, and an empty list for the
  /// pairs. Throws for a URL that is not absolute (nor, when `requireHTTP`, http or https).
  static func withScratch<R>(
    url: String, host: String?, requireHTTP: Bool = true, form: Data? = nil,
    _ body: (RequestTarget, _ form: Range<Int>?, inout ByteWriter, inout ScratchArena.List<EncodedPair>) throws(OAuthError) -> R
  ) throws(OAuthError) -> R {
    if host == nil {
      let attempt = try ScratchArena.with(EncodedPair.self) { bytes, pairs throws(OAuthError) -> Attempt<R> in
        // The URL and the form, then their pairs encoded (at most three bytes per byte): a
        // large request moves to the heap once (a small one stays in the stack block).
        bytes.reserve(4 * (url.utf8.count + (form?.count ?? 0)))
        let source = bytes.append(contentsOf: url)
        guard let target = ordinary(source, bytes) else { return .notOrdinary }
        return .done(try body(target, bytes.append(contentsOf: form), &bytes, &pairs))
      }
      if case .done(let result) = attempt { return result }
    }
    var components = try OAuthURLComponents(url, requireHTTP: requireHTTP)
    if let host { try components.override(hostHeader: host) }
    let query = components.query ?? "", normalized = OAuthBaseStringURI.make(components)
    return try ScratchArena.with(EncodedPair.self) { bytes, pairs throws(OAuthError) -> R in
      bytes.reserve(4 * (query.utf8.count + (form?.count ?? 0)) + normalized.utf8.count)
      let target = RequestTarget(query: bytes.append(contentsOf: query), uri: .normalized(bytes.append(contentsOf: normalized)))
      return try body(target, bytes.append(contentsOf: form), &bytes, &pairs)
    }
  }

  /// Appends the base string URI, `scheme://host[:port]/path`, or with `encoded` its
  /// encoding for the base string (`:` and `/` as `%3A` and `%2F`, the path's escapes as `%25XX`).
  func appendURI(from bytes: borrowing ByteWriter, to out: inout ByteWriter, encoded: Bool) {
    switch uri {
    case .normalized(let range):
      if encoded { out.appendEncoded(bytes, range) } else { out.append(bytes, range) }
    case .parsed(let secure, let host, let lowercase, let port, let path):
      switch (secure, encoded) {
      case (true, true): out.append("https%3A%2F%2F")
      case (false, true): out.append("http%3A%2F%2F")
      case (true, false): out.append("https://")
      case (false, false): out.append("http://")
      }
      // Copied whole, then lowercased in place when it has an uppercase letter.
      let hostStart = out.count
      out.append(bytes, host)
      if !lowercase { out.lowercaseASCII(hostStart..<out.count) }
      if port != 0 && port != (secure ? 443 : 80) {
        if encoded { out.append("%3A") } else { out.append(UInt8(ascii: ":")) }
        var divisor = 10_000
        while divisor > port { divisor /= 10 }
        while divisor > 0 {
          out.append(UInt8(ascii: "0") + UInt8(port / divisor % 10))
          divisor /= 10
        }
      }
      switch (path.isEmpty, encoded) {
      case (true, true): out.append("%2F")
      case (true, false): out.append(UInt8(ascii: "/"))
      case (false, true): out.appendEncoded(bytes, path)
      case (false, false): out.append(bytes, path)
      }
    }
  }

  /// The base string URI as a String.
  func uriString(_ bytes: borrowing ByteWriter) -> String {
    ScratchArena.string { appendURI(from: bytes, to: &$0, encoded: false) }
  }

  /// The parts of an ordinary URL (see the type's description), or `nil`.
  private static func ordinary(_ url: Range<Int>, _ bytes: borrowing ByteWriter) -> RequestTarget? {
    let end = url.upperBound
    var index = url.lowerBound
    // Scheme.
    guard url.count > 7, lower(bytes[index]) == UInt8(ascii: "h"), lower(bytes[index + 1]) == UInt8(ascii: "t"),
      lower(bytes[index + 2]) == UInt8(ascii: "t"), lower(bytes[index + 3]) == UInt8(ascii: "p")
    else { return nil }
    let secure: Bool
    if bytes[index + 4] == UInt8(ascii: ":") {
      secure = false
      index += 5
    } else if lower(bytes[index + 4]) == UInt8(ascii: "s"), bytes[index + 5] == UInt8(ascii: ":") {
      secure = true
      index += 6
    } else {
      return nil
    }
    guard index + 2 <= end, bytes[index] == UInt8(ascii: "/"), bytes[index + 1] == UInt8(ascii: "/") else { return nil }
    index += 2

    // Host: letters, digits, dots and dashes only (lowercase letters, the usual case, are
    // scanned first); then an optional port.
    let hostStart = index
    index = bytes.endOfRun(in: index..<end, lowercaseHostBytes)
    let lowercase = index == end || !(bytes[index] >= UInt8(ascii: "A") && bytes[index] <= UInt8(ascii: "Z"))
    if !lowercase { index = bytes.endOfRun(in: index..<end, hostBytes) }
    let hostEnd = index
    guard hostEnd > hostStart else { return nil }
    var port = 0
    if index < end, bytes[index] == UInt8(ascii: ":") {
      index += 1
      let digitsStart = index
      while index < end, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
        port = port * 10 + Int(bytes[index] - UInt8(ascii: "0"))
        index += 1
        if index - digitsStart > 5 { return nil }
      }
      if index > digitsStart, port < 1 || port > 65535 { return nil }
    }
    guard index == end || bytes[index] == UInt8(ascii: "/") || bytes[index] == UInt8(ascii: "?") || bytes[index] == UInt8(ascii: "#") else {
      return nil
    }

    // Path: only bytes that need no encoding ("?" and "#" are not path-safe: the scan stops
    // at them, or at a byte to encode).
    let pathStart = index
    index = bytes.endOfRun(in: index..<end, pathSafeBytes)
    guard index == end || bytes[index] == UInt8(ascii: "?") || bytes[index] == UInt8(ascii: "#") else { return nil }
    let pathEnd = index
    var query = index..<index
    if index < end, bytes[index] == UInt8(ascii: "?") {
      query = (index + 1)..<(bytes.firstIndex(of: UInt8(ascii: "#"), in: (index + 1)..<end) ?? end)
    }
    return RequestTarget(
      query: query, uri: .parsed(secure: secure, host: hostStart..<hostEnd, lowercase: lowercase, port: port, path: pathStart..<pathEnd))
  }

  @inline(__always)
  private static func lower(_ byte: UInt8) -> UInt8 {
    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
  }

  /// The same without the uppercase letters.
  static var lowercaseHostBytes: StaticString {
    "0000000000000000000000000000000000000000000001101111111111000000000000000000000000000000000000000111111111111111111111111110000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
  }

  /// The bytes of a host name read in place: letters, digits, `.` and `-`.
  static var hostBytes: StaticString {
    "0000000000000000000000000000000000000000000001101111111111000000011111111111111111111111111000000111111111111111111111111110000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
  }

  /// The bytes a path may carry as they are: ``PercentEncoding/isPathSafe(_:)`` as a table (a
  /// test checks all 256).
  static var pathSafeBytes: StaticString {
    "0000000000000000000000000000000001001111111111111111111111110100111111111111111111111111111000010111111111111111111111111110001000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
  }
}
