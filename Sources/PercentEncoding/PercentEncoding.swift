/// Strict RFC 3986 percent-encoding: every byte of the UTF-8 form outside the unreserved set
/// `A-Z a-z 0-9 - . _ ~` becomes `%XX` with uppercase hex.
///
/// This is the encoding OAuth 1.0a signs (RFC 5849, section 3.6) and the one a query must use
/// for what is signed to be what is sent. Foundation's `addingPercentEncoding` with
/// `.urlQueryAllowed` leaves `+ * ! ' ( ) [ ]` alone, so a `+` arrives as a space.
/// One implementation serves the signer and the network client alike.
///
/// ```swift
/// PercentEncoding.encode("Ladies + Gentlemen")  // "Ladies%20%2B%20Gentlemen"
/// PercentEncoding.decode("a+b%21", plusAsSpace: true)  // "a b!"
/// ```
public enum PercentEncoding {
  /// Encodes `string`: everything but the unreserved set as `%XX`.
  public static func encode(_ string: String) -> String {
    var copy = string
    return copy.withUTF8 { utf8 in
      if utf8.allSatisfy({ isUnreserved($0) }) { return string }
      return String(unsafeUninitializedCapacity: encodedCount(utf8)) { out in
        encode(utf8, into: out.baseAddress!)
      }
    }
  }

  /// Encodes raw bytes (for example a value that is not text).
  public static func encode(bytes: some Sequence<UInt8>) -> String {
    let bytes = bytes as? [UInt8] ?? Array(bytes)
    return bytes.withUnsafeBufferPointer { buffer in
      String(unsafeUninitializedCapacity: encodedCount(buffer)) { out in
        encode(buffer, into: out.baseAddress!)
      }
    }
  }

  /// Decodes `%XX` escapes, and `+` as a space when `plusAsSpace` is true (form and query
  /// strings), and returns the text, or `nil` when the decoded bytes are not valid UTF-8.
  ///
  /// A `%` that is not followed by two hex digits is kept as it stands, as browsers and most
  /// servers do, so that decode-then-encode never loses a byte.
  public static func decode(_ string: some StringProtocol, plusAsSpace: Bool = false) -> String? {
    var text = String(string)
    return text.withUTF8 { utf8 in
      // Nothing to decode: the common case for names and plain values.
      if !utf8.contains(UInt8(ascii: "%")) && !(plusAsSpace && utf8.contains(UInt8(ascii: "+"))) { return String(string) }
      let bytes = decodeBytes(utf8, plusAsSpace: plusAsSpace)
      // ASCII needs no validation (the generic validator looks up type metadata per call).
      if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
      return String(validating: bytes, as: UTF8.self)
    }
  }

  /// Decodes `%XX` escapes (and `+` when `plusAsSpace`) into raw bytes.
  public static func decodeBytes(_ utf8: some Collection<UInt8>, plusAsSpace: Bool = false) -> [UInt8] {
    // One concrete implementation on contiguous bytes: a generic one across modules would run
    // unspecialized, through witness tables, byte by byte.
    if let result = utf8.withContiguousStorageIfAvailable({ decodeBytes($0, plusAsSpace: plusAsSpace) }) { return result }
    return Array(utf8).withUnsafeBufferPointer { decodeBytes($0, plusAsSpace: plusAsSpace) }
  }

  /// Decodes contiguous bytes.
  public static func decodeBytes(_ utf8: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool = false) -> [UInt8] {
    [UInt8](unsafeUninitializedCapacity: utf8.count) { out, written in
      var index = 0
      var count = 0
      let total = utf8.count
      while index < total {
        let byte = utf8[index]
        if byte == UInt8(ascii: "%"), index + 2 < total, let high = hexValue(utf8[index + 1]), let low = hexValue(utf8[index + 2]) {
          out[count] = high << 4 | low
          index += 3
        } else {
          out[count] = byte == UInt8(ascii: "+") && plusAsSpace ? UInt8(ascii: " ") : byte
          index += 1
        }
        count += 1
      }
      written = count
    }
  }

  /// Whether `byte` is in RFC 3986's unreserved set, the only bytes left unencoded.
  @inlinable @inline(__always)
  public static func isUnreserved(_ byte: UInt8) -> Bool {
    // A constant table, one character per byte value ("1": unreserved): one load, no branches.
    let table: StaticString =
      "0000000000000000000000000000000000000000000001101111111111000000011111111111111111111111111000010111111111111111111111111110001000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    return table.utf8Start[Int(byte)] == UInt8(ascii: "1")
  }

  /// The uppercase hex digit for a value from 0 to 15.
  @inlinable @inline(__always)
  public static func hexDigit(_ value: UInt8) -> UInt8 {
    value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
  }

  /// Encodes `name=value` pairs joined with `&`, in the given order: a query or an
  /// `application/x-www-form-urlencoded` body (a space is `%20`, never `+`).
  public static func form(_ pairs: some Sequence<(name: String, value: String)>) -> String {
    pairs.map { encode($0.name) + "=" + encode($0.value) }.joined(separator: "&")
  }

  /// Makes a path safe to send without changing what it means: existing `%XX` escapes and the
  /// characters RFC 3986 allows in a path (`/` and `pchar`) stay; anything else, such as a
  /// space or a non-ASCII character, is encoded.
  public static func encodePath(_ path: some StringProtocol) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(path.utf8.count)
    for byte in path.utf8 {
      if isPathSafe(byte) {
        bytes.append(byte)
      } else {
        bytes.append(contentsOf: [UInt8(ascii: "%"), hexDigit(byte >> 4), hexDigit(byte & 0x0F)])
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  // MARK: - Forms

  /// Calls `body` with each raw `name=value` pair of form text (a query, or an
  /// `application/x-www-form-urlencoded` body), in order, decoding nothing: the one form splitter
  /// of the package (the signer, the verifier, token answers, the sandbox), whose callers decode
  /// as they must. `&` separates pairs, empty segments are skipped, and a segment without `=` is
  /// a name with an empty value. Allocates nothing.
  ///
  /// ```swift
  /// Array("a=1&&b".utf8).withUnsafeBufferPointer { form in
  ///   PercentEncoding.forEachFormPair(in: form) { name, value in print(name.count, value.count) }  // 1 1, then 1 0
  /// }
  /// ```
  @inlinable
  public static func forEachFormPair<E: Error>(
    in form: UnsafeBufferPointer<UInt8>, _ body: (_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) throws(E) -> Void
  ) throws(E) {
    guard let base = form.baseAddress else { return }
    let total = form.count
    var start = 0
    while start < total {
      var end = start
      while end < total && base[end] != UInt8(ascii: "&") { end &+= 1 }
      if end > start {
        var equals = start
        while equals < end && base[equals] != UInt8(ascii: "=") { equals &+= 1 }
        let valueStart = equals < end ? equals &+ 1 : end
        try body(
          UnsafeBufferPointer(start: base + start, count: equals - start), UnsafeBufferPointer(start: base + valueStart, count: end - valueStart))
      }
      start = end &+ 1
    }
  }

  /// The pairs of form text, decoded (`+` as a space); a name or value whose bytes are not
  /// UTF-8 once decoded is kept as it was sent.
  ///
  /// ```swift
  /// PercentEncoding.decodeForm("oauth_token=a%2Bb&note=x+y")  // [("oauth_token", "a+b"), ("note", "x y")]
  /// ```
  public static func decodeForm(_ text: some StringProtocol) -> [(name: String, value: String)] {
    func decoded(_ raw: UnsafeBufferPointer<UInt8>) -> String {
      String(validating: decodeBytes(raw, plusAsSpace: true), as: UTF8.self) ?? String(decoding: raw, as: UTF8.self)
    }
    var pairs: [(name: String, value: String)] = []
    Array(text.utf8).withUnsafeBufferPointer { form in
      forEachFormPair(in: form) { name, value in pairs.append((decoded(name), decoded(value))) }
    }
    return pairs
  }

  // MARK: - Writing into memory the caller owns

  /// Writes `%XX` (uppercase hex) for `byte` at `out`, which must have room for 3 bytes: the
  /// one escape writer of the package, used by every encoder that works in place.
  @inlinable @inline(__always)
  public static func writeEscape(_ byte: UInt8, to out: UnsafeMutablePointer<UInt8>) {
    out[0] = UInt8(ascii: "%")
    out[1] = hexDigit(byte >> 4)
    out[2] = hexDigit(byte & 0x0F)
  }

  /// How many bytes ``encode(_:into:)`` writes for `bytes`: one per unreserved byte, three per
  /// other byte.
  @inlinable
  public static func encodedCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var count = 0
    for byte in bytes { count &+= isUnreserved(byte) ? 1 : 3 }
    return count
  }

  /// Writes the encoding of `bytes` at `out`, which must have room for
  /// ``encodedCount(_:)`` bytes (at most 3 × `bytes.count`); returns the number written.
  @inlinable @discardableResult
  public static func encode(_ bytes: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) -> Int {
    guard let input = bytes.baseAddress else { return 0 }
    var written = 0
    var index = 0
    let count = bytes.count
    while index < count {
      // A run of unreserved bytes (most of a key, a nonce, a path segment) is copied whole.
      var runEnd = index
      // Four bytes per step while they last: one branch for four table lookups.
      while runEnd &+ 4 <= count, isUnreserved(input[runEnd]), isUnreserved(input[runEnd &+ 1]), isUnreserved(input[runEnd &+ 2]),
        isUnreserved(input[runEnd &+ 3])
      {
        runEnd &+= 4
      }
      while runEnd < count && isUnreserved(input[runEnd]) { runEnd &+= 1 }
      if runEnd > index {
        (out + written).update(from: input + index, count: runEnd &- index)
        written &+= runEnd &- index
        index = runEnd
        if index == count { break }
      }
      writeEscape(input[index], to: out + written)
      written &+= 3
      index &+= 1
    }
    return written
  }

  // MARK: - Implementation

  /// Whether a path may carry `byte` as it is: RFC 3986 `pchar` (unreserved, sub-delims, `:`
  /// and `@`), `/`, and the `%` of existing escapes. ``encodePath(_:)`` encodes the others.
  @inlinable @inline(__always)
  public static func isPathSafe(_ byte: UInt8) -> Bool {
    // A constant table, one character per byte value ("1": safe): no lazy global to check.
    let table: StaticString =
      "0000000000000000000000000000000001001111111111111111111111110100111111111111111111111111111000010111111111111111111111111110001000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    return table.utf8Start[Int(byte)] == UInt8(ascii: "1")
  }

  /// The value of a hex digit of either case, or `nil`: the one `%XX` reader of the package
  /// (``decodeBytes(_:plusAsSpace:)`` and the signer's canonical re-encoding).
  @inlinable @inline(__always)
  public static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    default: return nil
    }
  }
}
