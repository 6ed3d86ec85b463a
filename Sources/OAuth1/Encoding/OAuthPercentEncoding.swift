/// Percent-encoding and decoding as OAuth 1.0a defines them (RFC 5849, section 3.6).
///
/// Every byte of the UTF-8 form outside the unreserved set `A-Z a-z 0-9 - . _ ~` becomes
/// `%XX` with uppercase hex. This is stricter than Foundation's `addingPercentEncoding`
/// with `.urlQueryAllowed`, which leaves `+ * ! ' ( ) [ ]` alone and so produces signatures
/// that servers reject.
///
/// ```swift
/// OAuthPercentEncoding.encode("Ladies + Gentlemen")  // "Ladies%20%2B%20Gentlemen"
/// OAuthPercentEncoding.decode("a+b%21", plusAsSpace: true)  // "a b!"
/// ```
public enum OAuthPercentEncoding {
  /// Encodes `string` per RFC 5849 section 3.6.
  public static func encode(_ string: String) -> String {
    var copy = string
    return copy.withUTF8 { utf8 in
      if utf8.allSatisfy({ unreserved[Int($0)] }) { return string }
      return String(unsafeUninitializedCapacity: encodedCount(utf8)) { out in
        encode(utf8, into: out.baseAddress!)
      }
    }
  }

  /// Encodes raw bytes (for example a value that is not text) per RFC 5849 section 3.6.
  public static func encode(bytes: some Sequence<UInt8>) -> String {
    let bytes = Array(bytes)
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
    let bytes = decodeBytes(string.utf8, plusAsSpace: plusAsSpace)
    return String(validating: bytes, as: UTF8.self)
  }

  /// Decodes `%XX` escapes (and `+` when `plusAsSpace`) into raw bytes.
  public static func decodeBytes(_ utf8: some Collection<UInt8>, plusAsSpace: Bool = false) -> [UInt8] {
    var out = [UInt8]()
    out.reserveCapacity(utf8.count)
    var index = utf8.startIndex
    while index != utf8.endIndex {
      let byte = utf8[index]
      if byte == UInt8(ascii: "%") {
        let first = utf8.index(after: index)
        if first != utf8.endIndex {
          let second = utf8.index(after: first)
          if second != utf8.endIndex, let high = hexValue(utf8[first]), let low = hexValue(utf8[second]) {
            out.append(high << 4 | low)
            index = utf8.index(after: second)
            continue
          }
        }
        out.append(byte)
      } else if byte == UInt8(ascii: "+") && plusAsSpace {
        out.append(UInt8(ascii: " "))
      } else {
        out.append(byte)
      }
      index = utf8.index(after: index)
    }
    return out
  }

  /// Whether `byte` is in RFC 3986's unreserved set, the only bytes left unencoded.
  public static func isUnreserved(_ byte: UInt8) -> Bool { unreserved[Int(byte)] }

  // MARK: - Implementation

  static let unreserved: [Bool] = (0..<256).map { value in
    switch UInt8(value) {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
      UInt8(ascii: "_"), UInt8(ascii: "~"):
      return true
    default:
      return false
    }
  }

  static let upperHex: [UInt8] = Array("0123456789ABCDEF".utf8)

  static func encodedCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var count = 0
    for byte in bytes { count += unreserved[Int(byte)] ? 1 : 3 }
    return count
  }

  /// Writes the encoding of `bytes` to `out`, which must hold `encodedCount(bytes)` bytes;
  /// returns the number written.
  @discardableResult
  static func encode(_ bytes: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) -> Int {
    var written = 0
    for byte in bytes {
      if unreserved[Int(byte)] {
        out[written] = byte
        written += 1
      } else {
        out[written] = UInt8(ascii: "%")
        out[written + 1] = upperHex[Int(byte >> 4)]
        out[written + 2] = upperHex[Int(byte & 0x0F)]
        written += 3
      }
    }
    return written
  }

  static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    default: return nil
    }
  }
}
