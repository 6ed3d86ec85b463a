import Foundation
import PercentEncoding

/// The signed parameters of one request in their canonical encoded form (RFC 5849 3.4.1.3.2:
/// decoded, then re-encoded with the strict set), kept as byte ranges of one buffer and sorted
/// in signing order. This is the byte-level path of ``OAuthSigner``; the stage functions
/// (``OAuthParameterCollection``, ``OAuthParameterNormalization``) compute the same thing on
/// Strings, and the tests hold the two to the same output.
struct CanonicalParameters {
  struct Entry {
    var nameStart: Int32
    var nameEnd: Int32
    var valueEnd: Int32
    var percents: Int32
  }

  /// Room for every byte the parameters can take: the buffer never grows.
  private var storage: [UInt8]
  private var count = 0
  private(set) var entries: [Entry] = []

  /// `rawBytes`: the query and form body lengths (encoding at most triples them);
  /// `encodedBytes`: the protocol parameters' encoded lengths.
  init(rawBytes: Int, encodedBytes: Int) {
    storage = [UInt8](repeating: 0, count: 3 * rawBytes + encodedBytes)
    entries.reserveCapacity(12)
  }

  /// Adds a pair whose name and value are already canonically encoded.
  mutating func append(_ parameter: EncodedParameter) {
    let start = count
    let nameCount = parameter.name.count, valueCount = parameter.value.count
    storage.withUnsafeMutableBufferPointer { buffer in
      let out = buffer.baseAddress! + start
      parameter.name.withUnsafeBufferPointer { out.update(from: $0.baseAddress!, count: nameCount) }
      if valueCount > 0 {
        parameter.value.withUnsafeBufferPointer { (out + nameCount).update(from: $0.baseAddress!, count: valueCount) }
      }
    }
    count = start + nameCount + valueCount
    entries.append(Entry(nameStart: Int32(start), nameEnd: Int32(start + nameCount), valueEnd: Int32(count), percents: parameter.percents))
  }

  /// Adds every pair of an `application/x-www-form-urlencoded` string (a query or a form
  /// body), decoding `+` and `%XX` and re-encoding strictly; `oauth_signature` is skipped.
  mutating func appendForm(_ raw: UnsafeBufferPointer<UInt8>, source: OAuthParameterSource) throws(OAuthError) {
    var index = 0
    let total = raw.count
    while index < total {
      var end = index
      while end < total && raw[end] != UInt8(ascii: "&") { end += 1 }
      if end > index {
        var equals = index
        while equals < end && raw[equals] != UInt8(ascii: "=") { equals += 1 }
        let start = count
        var percents: Int32 = 0
        guard canonicalize(raw, from: index, to: equals, percents: &percents) else {
          count = start
          throw .invalidParameterEncoding(source: source, parameter: String(decoding: UnsafeBufferPointer(rebasing: raw[index..<equals]), as: UTF8.self))
        }
        let nameEnd = count
        guard canonicalize(raw, from: equals < end ? equals + 1 : end, to: end, percents: &percents) else {
          let name = PercentEncoding.decode(String(decoding: storage[start..<nameEnd], as: UTF8.self)) ?? ""
          count = start
          throw .invalidParameterEncoding(source: source, parameter: name)
        }
        if nameEnd - start == 15, storage.withUnsafeBufferPointer({ memcmp($0.baseAddress! + start, Self.signatureName, 15) == 0 }) {
          count = start
        } else {
          entries.append(Entry(nameStart: Int32(start), nameEnd: Int32(nameEnd), valueEnd: Int32(count), percents: percents))
        }
      }
      index = end + 1
    }
  }

  private static let signatureName = Array("oauth_signature".utf8)

  /// Decodes `raw[from..<to]` and appends its strict encoding; `false` when the decoded bytes
  /// are not UTF-8.
  private mutating func canonicalize(_ raw: UnsafeBufferPointer<UInt8>, from: Int, to: Int, percents: inout Int32) -> Bool {
    let start = count
    var position = count  // a local: no exclusivity check per byte
    var escapes: Int32 = 0
    var ascii = true
    storage.withUnsafeMutableBufferPointer { buffer in
      let out = buffer.baseAddress!
      let input = raw.baseAddress!
      Self.byteClasses.withUnsafeBufferPointer { classes in
        var index = from
        while index < to {
          var byte = input[index]
          var kind = classes[Int(byte)]
          if kind == Self.plus {
            byte = UInt8(ascii: " ")
            kind = Self.escape
          } else if kind == Self.percent {
            if index + 2 < to, let high = Self.hexValue(input[index + 1]), let low = Self.hexValue(input[index + 2]) {
              byte = high << 4 | low
              index += 2
              kind = classes[Int(byte)] == Self.copy ? Self.copy : Self.escape
            } else {
              kind = Self.escape
            }
          }
          index += 1
          if kind == Self.copy {
            out[position] = byte
            position += 1
          } else {
            if byte >= 0x80 { ascii = false }
            out[position] = UInt8(ascii: "%")
            out[position + 1] = PercentEncoding.hexDigit(byte >> 4)
            out[position + 2] = PercentEncoding.hexDigit(byte & 0x0F)
            position += 3
            escapes += 1
          }
        }
      }
    }
    count = position
    percents += escapes
    // The rare non-ASCII value is checked for UTF-8 from its (strict) encoding.
    return ascii || String(validating: PercentEncoding.decodeBytes(storage[start..<count]), as: UTF8.self) != nil
  }

  /// How each raw byte of a form is handled: copied, escaped, `+` (a space) or `%` (an escape).
  private static let copy: UInt8 = 0, escape: UInt8 = 1, plus: UInt8 = 2, percent: UInt8 = 3
  private static let byteClasses: [UInt8] = (0..<256).map { value in
    let byte = UInt8(value)
    if byte == UInt8(ascii: "+") { return plus }
    if byte == UInt8(ascii: "%") { return percent }
    return PercentEncoding.isUnreserved(byte) ? copy : escape
  }

  @inline(__always)
  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    default: return nil
    }
  }

  /// The pairs, decoded, in signing order, leaving out the protocol parameters (`oauth_*`).
  func decodedRequestParameters() -> [OAuthParameter] {
    entries.compactMap { entry in
      let name = String(decoding: storage[Int(entry.nameStart)..<Int(entry.nameEnd)], as: UTF8.self)
      guard !name.hasPrefix("oauth_") else { return nil }
      let value = String(decoding: storage[Int(entry.nameEnd)..<Int(entry.valueEnd)], as: UTF8.self)
      return OAuthParameter(PercentEncoding.decode(name) ?? name, PercentEncoding.decode(value) ?? value)
    }
  }

  /// Sorts by encoded name, then encoded value, comparing bytes.
  mutating func sort() {
    storage.withUnsafeBufferPointer { buffer in
      let base = buffer.baseAddress!
      entries.sort { lhs, rhs in
        let order = Self.compare(base, lhs.nameStart, lhs.nameEnd, rhs.nameStart, rhs.nameEnd)
        if order != 0 { return order < 0 }
        return Self.compare(base, lhs.nameEnd, lhs.valueEnd, rhs.nameEnd, rhs.valueEnd) < 0
      }
    }
  }

  @inline(__always)
  private static func compare(_ base: UnsafePointer<UInt8>, _ a: Int32, _ aEnd: Int32, _ b: Int32, _ bEnd: Int32) -> Int {
    let lengthA = Int(aEnd - a), lengthB = Int(bEnd - b)
    let common = min(lengthA, lengthB)
    if common > 0 {
      let order = memcmp(base + Int(a), base + Int(b), common)
      if order != 0 { return Int(order) }
    }
    return lengthA - lengthB
  }

  /// The length of the normalized parameters once encoded again for the base string
  /// (every `%` becomes `%25`, `=` `%3D` and `&` `%26`).
  var baseStringLength: Int {
    var length = 0
    for entry in entries {
      length += Int(entry.valueEnd - entry.nameStart) + 2 * Int(entry.percents) + 3
    }
    return entries.isEmpty ? 0 : length + 3 * (entries.count - 1)
  }

  /// Writes `enc(normalized parameters)` at `out`; returns the bytes written.
  func writeBaseString(into out: UnsafeMutablePointer<UInt8>) -> Int {
    var written = 0
    storage.withUnsafeBufferPointer { buffer in
      let bytes = buffer.baseAddress!
      for (position, entry) in entries.enumerated() {
        if position > 0 { written += Self.put("%26", out + written) }
        written += Self.copyEncodingPercent(bytes, Int(entry.nameStart), Int(entry.nameEnd), out + written)
        written += Self.put("%3D", out + written)
        written += Self.copyEncodingPercent(bytes, Int(entry.nameEnd), Int(entry.valueEnd), out + written)
      }
    }
    return written
  }

  @inline(__always)
  private static func copyEncodingPercent(_ bytes: UnsafePointer<UInt8>, _ start: Int, _ end: Int, _ out: UnsafeMutablePointer<UInt8>) -> Int {
    // Runs between escapes are copied whole; each `%` is written as `%25`.
    var written = 0
    var index = start
    while index < end {
      let run = bytes + index
      let found: UnsafeMutableRawPointer? = memchr(run, 0x25, end - index)  // 0x25: "%"
      var length = end - index
      if let found { length = UnsafeRawPointer(found) - UnsafeRawPointer(run) }
      (out + written).update(from: run, count: length)
      written += length
      index += length
      if found != nil {
        out[written] = UInt8(ascii: "%")
        out[written + 1] = UInt8(ascii: "2")
        out[written + 2] = UInt8(ascii: "5")
        written += 3
        index += 1
      }
    }
    return written
  }

  @inline(__always)
  static func put(_ text: StaticString, _ out: UnsafeMutablePointer<UInt8>) -> Int {
    out.update(from: text.utf8Start, count: text.utf8CodeUnitCount)
    return text.utf8CodeUnitCount
  }
}
