/// Strict RFC 3986 percent-encoding: every byte of the UTF-8 form outside the unreserved set
/// `A-Z a-z 0-9 - . _ ~` becomes `%XX` with uppercase hex.
///
/// This is the encoding OAuth 1.0a signs (RFC 5849, section 3.6) and the one a query must use
/// for what is signed to be what is sent. Foundation's `addingPercentEncoding` with
/// `.urlQueryAllowed` leaves `+ * ! ' ( ) [ ]` alone, so a `+` arrives as a space.
/// One set of rules (``isUnreserved(_:)``, ``hexDigit(_:)``, ``hexValue(_:)``) serves the signer
/// and the network client alike. Plain Swift: no pointer.
///
/// ```swift
/// PercentEncoding.encode("Ladies + Gentlemen")  // "Ladies%20%2B%20Gentlemen"
/// PercentEncoding.decode("a+b%21", plusAsSpace: true)  // "a b!"
/// ```
public enum PercentEncoding {
  /// Encodes `string`: everything but the unreserved set as `%XX`.
  public static func encode(_ string: String) -> String {
    if string.utf8.allSatisfy(isUnreserved) { return string }
    var encoded: [UInt8] = []
    encoded.reserveCapacity(3 * string.utf8.count)
    for byte in string.utf8 { append(byte, to: &encoded) }
    return String(decoding: encoded, as: UTF8.self)
  }

  /// Encodes raw bytes (for example a value that is not text).
  public static func encode(bytes: some Sequence<UInt8>) -> String {
    let bytes = Array(bytes)
    var encoded: [UInt8] = []
    encoded.reserveCapacity(3 * bytes.count)
    for byte in bytes { append(byte, to: &encoded) }
    return String(decoding: encoded, as: UTF8.self)
  }

  private static func append(_ byte: UInt8, to encoded: inout [UInt8]) {
    if isUnreserved(byte) {
      encoded.append(byte)
    } else {
      encoded.append(UInt8(ascii: "%"))
      encoded.append(hexDigit(byte >> 4))
      encoded.append(hexDigit(byte & 0x0F))
    }
  }

  /// Decodes `%XX` escapes, and `+` as a space when `plusAsSpace` is true (form and query
  /// strings), and returns the text, or `nil` when the decoded bytes are not valid UTF-8.
  ///
  /// A `%` that is not followed by two hex digits is kept as it stands, as browsers and most
  /// servers do, so that decode-then-encode never loses a byte.
  public static func decode(_ string: some StringProtocol, plusAsSpace: Bool = false) -> String? {
    let text = String(string)
    let utf8 = Array(text.utf8)
    // Nothing to decode: the common case for names and plain values.
    if !utf8.contains(UInt8(ascii: "%")) && !(plusAsSpace && utf8.contains(UInt8(ascii: "+"))) { return text }
    let bytes = decoded(utf8, plusAsSpace: plusAsSpace)
    // ASCII needs no validation (the generic validator looks up type metadata per call).
    if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
    return String(validating: bytes, as: UTF8.self)
  }

  /// Decodes `%XX` escapes (and `+` when `plusAsSpace`) into raw bytes.
  public static func decodeBytes(_ utf8: some Collection<UInt8>, plusAsSpace: Bool = false) -> [UInt8] {
    decoded(Array(utf8), plusAsSpace: plusAsSpace)
  }

  private static func decoded(_ input: [UInt8], plusAsSpace: Bool) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(input.count)
    var index = 0
    while index < input.count {
      let byte = input[index]
      if byte == UInt8(ascii: "%"), index + 2 < input.count, let high = hexValue(input[index + 1]), let low = hexValue(input[index + 2]) {
        output.append(high << 4 | low)
        index += 3
      } else {
        output.append(byte == UInt8(ascii: "+") && plusAsSpace ? UInt8(ascii: " ") : byte)
        index += 1
      }
    }
    return output
  }

  /// Whether `byte` is in RFC 3986's unreserved set, the only bytes left unencoded: its class
  /// in ``byteClasses`` is ``ByteClass/unreserved``.
  @inlinable @inline(__always)
  public static func isUnreserved(_ byte: UInt8) -> Bool {
    byteClasses.utf8Start[Int(byte)] == ByteClass.unreserved
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
  /// `application/x-www-form-urlencoded` body), in order, decoding nothing: the form splitter of
  /// the package's text (token answers, the sandbox, a verified request's parameters), whose
  /// callers decode as they must. `&` separates pairs, empty segments are skipped, and a
  /// segment without `=` is a name with an empty value. Allocates nothing.
  ///
  /// ```swift
  /// PercentEncoding.forEachFormPair(in: Array("a=1&&b".utf8)) { name, value in print(name.count, value.count) }  // 1 1, then 1 0
  /// ```
  @inlinable
  public static func forEachFormPair<Form: Collection<UInt8>, E: Error>(
    in form: Form, _ body: (_ name: Form.SubSequence, _ value: Form.SubSequence) throws(E) -> Void
  ) throws(E) {
    var start = form.startIndex
    while start != form.endIndex {
      let end = form[start...].firstIndex(of: UInt8(ascii: "&")) ?? form.endIndex
      if end != start {
        let equals = form[start..<end].firstIndex(of: UInt8(ascii: "=")) ?? end
        let valueStart = equals == end ? end : form.index(after: equals)
        try body(form[start..<equals], form[valueStart..<end])
      }
      start = end == form.endIndex ? end : form.index(after: end)
    }
  }

  /// The pairs of form text, decoded (`+` as a space); a name or value whose bytes are not
  /// UTF-8 once decoded is kept as it was sent.
  ///
  /// ```swift
  /// PercentEncoding.decodeForm("oauth_token=a%2Bb&note=x+y")  // [("oauth_token", "a+b"), ("note", "x y")]
  /// ```
  public static func decodeForm(_ text: some StringProtocol) -> [(name: String, value: String)] {
    func decoded(_ raw: ArraySlice<UInt8>) -> String {
      String(validating: decodeBytes(raw, plusAsSpace: true), as: UTF8.self) ?? String(decoding: raw, as: UTF8.self)
    }
    var pairs: [(name: String, value: String)] = []
    forEachFormPair(in: Array(text.utf8)) { name, value in pairs.append((decoded(name), decoded(value))) }
    return pairs
  }

  // MARK: - Implementation

  /// Whether a path may carry `byte` as it is: RFC 3986 `pchar` (unreserved, sub-delims, `:`
  /// and `@`), `/`, and the `%` of existing escapes. ``encodePath(_:)`` encodes the others.
  @inlinable @inline(__always)
  public static func isPathSafe(_ byte: UInt8) -> Bool {
    // One bit per byte value below 128, as in ``isUnreserved(_:)``.
    let word: UInt64 = byte < 64 ? 0x2FFF_FFF2_0000_0000 : 0x47FF_FFFE_87FF_FFFF
    return byte < 128 && (word &>> UInt64(byte & 63)) & 1 != 0
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
