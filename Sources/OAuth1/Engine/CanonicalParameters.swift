import Foundation
import PercentEncoding

/// The signed parameters of one request in their canonical encoded form (RFC 5849 3.4.1.3.2:
/// decoded, then re-encoded with the strict set), kept as byte ranges of one scratch buffer and
/// sorted in signing order: stages 2 and 3 of the engine, for the signer, the verifier and the
/// public stage fronts (``OAuthParameterCollection``, ``OAuthParameterNormalization``).
///
/// The memory is borrowed from ``withScratch(query:formBody:encodedBytes:extraEntries:_:)``
/// (on the stack when it is small), so a signature allocates nothing here; the value must not
/// escape that closure.
struct CanonicalParameters {
  struct Entry {
    var nameStart: Int32
    var nameEnd: Int32
    var valueEnd: Int32
    var percents: Int32
  }

  /// Room for every byte the parameters can take: the buffer never grows.
  private let storage: UnsafeMutablePointer<UInt8>
  private var count = 0
  private let entryStorage: UnsafeMutablePointer<Entry>
  private(set) var entryCount = 0

  private init(storage: UnsafeMutablePointer<UInt8>, entries: UnsafeMutablePointer<Entry>) {
    self.storage = storage
    self.entryStorage = entries
  }

  /// Lends `body` an empty collection with room for the pairs of `query` and `formBody`
  /// (encoding at most triples a byte) and for `extraEntries` already-encoded pairs of
  /// `encodedBytes` bytes in all.
  static func withScratch<R>(
    query: UnsafeBufferPointer<UInt8>, formBody: UnsafeBufferPointer<UInt8>?, encodedBytes: Int, extraEntries: Int,
    _ body: (inout CanonicalParameters) throws(OAuthError) -> R
  ) throws(OAuthError) -> R {
    let rawBytes = query.count + (formBody?.count ?? 0)
    // Offsets are 32-bit (half the memory per entry); encoding at most triples the input.
    guard rawBytes <= maximumRawBytes, encodedBytes <= maximumRawBytes else {
      throw .requestTooLarge(bytes: rawBytes + encodedBytes, limit: maximumRawBytes)
    }
    let entries = pairCount(query) + (formBody.map(pairCount) ?? 0) + extraEntries
    return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 3 * rawBytes + encodedBytes + 1) { bytes throws(OAuthError) in
      try withUnsafeTemporaryAllocation(of: Entry.self, capacity: entries + 1) { entryBuffer throws(OAuthError) in
        var parameters = CanonicalParameters(storage: bytes.baseAddress!, entries: entryBuffer.baseAddress!)
        return try body(&parameters)
      }
    }
  }

  /// The most query and form body bytes one signature may hold: 3 × this fits an `Int32`.
  static let maximumRawBytes = Int(Int32.max) / 4

  /// At most how many pairs a form holds: one more than its `&`s.
  private static func pairCount(_ raw: UnsafeBufferPointer<UInt8>) -> Int {
    raw.isEmpty ? 0 : 1 + occurrences(of: UInt8(ascii: "&"), in: raw)
  }

  /// The entries in their current order.
  var entries: UnsafeBufferPointer<Entry> { UnsafeBufferPointer(start: entryStorage, count: entryCount) }

  /// Adds a decoded pair, encoding it (room: three bytes per byte, counted by the caller).
  mutating func append(decoded parameter: OAuthParameter) {
    var parameter = parameter
    let start = count
    let nameEnd = parameter.name.withUTF8 { start + PercentEncoding.encode($0, into: storage + start) }
    count = parameter.value.withUTF8 { nameEnd + PercentEncoding.encode($0, into: storage + nameEnd) }
    let pair = EncodedPair(
      name: UnsafeBufferPointer(start: storage + start, count: nameEnd - start),
      value: UnsafeBufferPointer(start: storage + nameEnd, count: count - nameEnd))
    entryStorage[entryCount] = Entry(nameStart: Int32(start), nameEnd: Int32(nameEnd), valueEnd: Int32(count), percents: pair.percents)
    entryCount += 1
  }

  /// Adds every pair of an `application/x-www-form-urlencoded` string (a query or a form
  /// body), decoding `+` and `%XX` and re-encoding strictly; `oauth_signature` is skipped.
  ///
  /// One pass over the bytes: the pair and name/value boundaries are found by the same
  /// table lookup that classifies each byte for encoding. As in
  /// `PercentEncoding.forEachFormPair`, an empty pair (`&&`) is skipped and a pair without
  /// `=` has an empty value.
  mutating func appendForm(_ raw: UnsafeBufferPointer<UInt8>, source: OAuthParameterSource) throws(OAuthError) {
    guard let input = raw.baseAddress else { return }
    let end = raw.count
    var index = 0
    while index < end {
      if input[index] == UInt8(ascii: "&") {
        index &+= 1
        continue
      }
      let start = count
      var percents: Int32 = 0
      let nameValid = canonicalize(input, &index, end, .formName, percents: &percents)
      let nameEnd = count
      if index < end, input[index] == UInt8(ascii: "=") { index &+= 1 }
      let valueValid = canonicalize(input, &index, end, .formValue, percents: &percents)
      guard nameValid else {
        count = start
        throw .invalidParameterEncoding(source: source, parameter: String(decoding: Self.rawName(input, before: index, end), as: UTF8.self))
      }
      guard valueValid else {
        let encodedName = String(decoding: UnsafeBufferPointer(start: storage + start, count: nameEnd - start), as: UTF8.self)
        count = start
        throw .invalidParameterEncoding(source: source, parameter: PercentEncoding.decode(encodedName) ?? encodedName)
      }
      if nameEnd - start == 15, memcmp(storage + start, Self.signatureName.utf8Start, 15) == 0 {
        count = start
      } else {
        entryStorage[entryCount] = Entry(nameStart: Int32(start), nameEnd: Int32(nameEnd), valueEnd: Int32(count), percents: percents)
        entryCount += 1
      }
    }
  }

  /// The raw name of the pair that ends before `index`: for an error message only.
  private static func rawName(_ input: UnsafePointer<UInt8>, before index: Int, _ end: Int) -> UnsafeBufferPointer<UInt8> {
    var start = min(index, end)
    while start > 0, input[start - 1] != UInt8(ascii: "&") { start -= 1 }
    var nameEnd = start
    while nameEnd < end, input[nameEnd] != UInt8(ascii: "&"), input[nameEnd] != UInt8(ascii: "=") { nameEnd += 1 }
    return UnsafeBufferPointer(start: input + start, count: nameEnd - start)
  }

  private static let signatureName: StaticString = "oauth_signature"

  /// What ``canonicalize(_:_:_:_:percents:)`` reads: a form's name (ends at `=` or `&`), a
  /// form's value (ends at `&`; `+` is a space in both), or a whole header field, name or
  /// value (RFC 5849 3.5.1: percent-encoded, so `+`, `&` and `=` are themselves).
  private enum Part { case formName, formValue, header }

  /// Adds the `oauth_*` pairs received in an Authorization header, re-encoded strictly: the
  /// verifier signs them with the query and form body (room: ``RawHeaderPairs/byteCount``
  /// times three, ``RawHeaderPairs/count`` entries).
  mutating func appendHeader(_ pairs: RawHeaderPairs) throws(OAuthError) {
    try pairs.forEachPair { name, value throws(OAuthError) in
      let start = count
      var percents: Int32 = 0
      var index = 0
      let nameValid = name.baseAddress.map { canonicalize($0, &index, name.count, .header, percents: &percents) } ?? true
      let nameEnd = count
      index = 0
      let valueValid = value.baseAddress.map { canonicalize($0, &index, value.count, .header, percents: &percents) } ?? true
      guard nameValid, valueValid else {
        count = start
        throw .invalidParameterEncoding(source: .authorizationHeader, parameter: String(decoding: name, as: UTF8.self))
      }
      entryStorage[entryCount] = Entry(nameStart: Int32(start), nameEnd: Int32(nameEnd), valueEnd: Int32(count), percents: percents)
      entryCount += 1
    }
  }

  /// Decodes the bytes from `index` up to the end of `part`, appends their strict encoding,
  /// and leaves `index` on the byte that ended them; `false` when the decoded bytes are not
  /// UTF-8.
  ///
  /// Room: every input byte writes at most three bytes, counted by ``withScratch(query:formBody:encodedBytes:extraEntries:_:)``.
  private mutating func canonicalize(
    _ input: UnsafePointer<UInt8>, _ index: inout Int, _ to: Int, _ part: Part, percents: inout Int32
  ) -> Bool {
    let start = count
    let out = storage
    var position = count  // locals: no exclusivity check per byte
    var at = index
    var escapes: Int32 = 0
    var ascii = true
    let classes = Self.byteClasses.utf8Start
    while at < to {
      var byte = input[at]
      let kind = classes[Int(byte)]
      if kind == Self.copy {
        // The usual byte: unreserved, copied as it is.
        out[position] = byte
        position &+= 1
        at &+= 1
        continue
      }
      if part != .header && (kind == Self.ampersand || (kind == Self.equals && part == .formName)) { break }
      at &+= 1
      if kind == Self.percent, at &+ 1 < to {
        if let high = PercentEncoding.hexValue(input[at]), let low = PercentEncoding.hexValue(input[at &+ 1]) {
          byte = high << 4 | low
          at &+= 2
          if classes[Int(byte)] == Self.copy {
            out[position] = byte
            position &+= 1
            continue
          }
        }
      } else if kind == Self.plus && part != .header {
        byte = UInt8(ascii: " ")
      }
      if byte >= 0x80 { ascii = false }
      PercentEncoding.writeEscape(byte, to: out + position)
      position &+= 3
      escapes &+= 1
    }
    index = at
    count = position
    percents += escapes
    // The rare non-ASCII value is checked for UTF-8 from its (strict) encoding.
    return ascii
      || String(validating: PercentEncoding.decodeBytes(UnsafeBufferPointer(start: storage + start, count: count - start)), as: UTF8.self) != nil
  }

  /// How each raw byte of a form is handled, as a constant table (no lazy global to check):
  /// `0` copied, `1` escaped, `2` a `+` (a space), `3` a `%` (an escape), `4` a `&` (ends a
  /// pair), `5` a `=` (ends a name; escaped in a value).
  private static let copy = UInt8(ascii: "0"), plus = UInt8(ascii: "2"), percent = UInt8(ascii: "3")
  private static let ampersand = UInt8(ascii: "4"), equals = UInt8(ascii: "5")
  private static var byteClasses: StaticString {
    "1111111111111111111111111111111111111341111210010000000000111511100000000000000000000000000111101000000000000000000000000001110111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111"
  }

  /// The pairs in their current order (source order before ``sort()``, signing order after),
  /// decoded; without the protocol parameters (`oauth_*`) unless `includingProtocol`.
  func decoded(includingProtocol: Bool) -> [OAuthParameter] {
    entries.compactMap { entry in
      let pair = self.pair(entry)
      guard includingProtocol || !ProtocolParameters.hasOAuthPrefix(pair.name) else { return nil }
      return pair.decoded
    }
  }

  /// The pairs in their current order, still encoded.
  var encoded: [OAuthParameter] {
    entries.map { entry in
      let pair = self.pair(entry)
      return OAuthParameter(String(decoding: pair.name, as: UTF8.self), String(decoding: pair.value, as: UTF8.self))
    }
  }

  @inline(__always)
  private func pair(_ entry: Entry) -> EncodedPair {
    EncodedPair(
      name: UnsafeBufferPointer(start: storage + Int(entry.nameStart), count: Int(entry.nameEnd - entry.nameStart)),
      value: UnsafeBufferPointer(start: storage + Int(entry.nameEnd), count: Int(entry.valueEnd - entry.nameEnd)),
      percents: entry.percents)
  }

  /// Calls `body` with every pair in signing order: these pairs, sorted, merged with
  /// `protocolPairs`, which are sorted too (a signer's protocol parameters are listed in name
  /// order), so the protocol parameters are slotted in where they sort without being copied
  /// or sorted again.
  @inline(__always)
  func forEachInSigningOrder(merging protocolPairs: UnsafeBufferPointer<EncodedPair>, _ body: (EncodedPair) -> Void) {
    var index = 0, protocolIndex = 0
    while index < entryCount {
      let next = pair(entryStorage[index])
      while protocolIndex < protocolPairs.count, Self.precedes(protocolPairs[protocolIndex], next) {
        body(protocolPairs[protocolIndex])
        protocolIndex += 1
      }
      body(next)
      index += 1
    }
    while protocolIndex < protocolPairs.count {
      body(protocolPairs[protocolIndex])
      protocolIndex += 1
    }
  }

  /// Signing order: encoded name, then encoded value, comparing bytes.
  @inline(__always)
  static func precedes(_ lhs: EncodedPair, _ rhs: EncodedPair) -> Bool {
    let order = compare(lhs.name, rhs.name)
    return order != 0 ? order < 0 : compare(lhs.value, rhs.value) < 0
  }

  @inline(__always)
  private static func compare(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Int {
    // Names mostly differ in their first byte: no call for those.
    if !lhs.isEmpty, !rhs.isEmpty, lhs[0] != rhs[0] { return Int(lhs[0]) - Int(rhs[0]) }
    let common = min(lhs.count, rhs.count)
    if common > 0 {
      let order = memcmp(lhs.baseAddress!, rhs.baseAddress!, common)
      if order != 0 { return Int(order) }
    }
    return lhs.count - rhs.count
  }

  /// Sorts by encoded name, then encoded value, comparing bytes.
  mutating func sort() {
    let base = UnsafePointer(storage)
    var entries = UnsafeMutableBufferPointer(start: entryStorage, count: entryCount)
    entries.sort { lhs, rhs in
      let order = Self.compare(base, lhs.nameStart, lhs.nameEnd, rhs.nameStart, rhs.nameEnd)
      if order != 0 { return order < 0 }
      return Self.compare(base, lhs.nameEnd, lhs.valueEnd, rhs.nameEnd, rhs.valueEnd) < 0
    }
  }

  @inline(__always)
  private static func compare(_ base: UnsafePointer<UInt8>, _ a: Int32, _ aEnd: Int32, _ b: Int32, _ bEnd: Int32) -> Int {
    let lengthA = Int(aEnd - a), lengthB = Int(bEnd - b)
    // Eight bytes at a time first: many names share the "oauth_" prefix, and comparing
    // big-endian words orders as the bytes do.
    if lengthA >= 8 && lengthB >= 8 {
      let x = UInt64(bigEndian: UnsafeRawPointer(base + Int(a)).loadUnaligned(as: UInt64.self))
      let y = UInt64(bigEndian: UnsafeRawPointer(base + Int(b)).loadUnaligned(as: UInt64.self))
      if x != y { return x < y ? -1 : 1 }
    }
    let common = min(lengthA, lengthB)
    if common > 0 {
      let order = memcmp(base + Int(a), base + Int(b), common)
      if order != 0 { return Int(order) }
    }
    return lengthA - lengthB
  }

  /// The length of what ``append(to:merging:forBaseString:)`` writes. Order does not change a
  /// length, so nothing is merged.
  func length(merging protocolPairs: UnsafeBufferPointer<EncodedPair> = .init(start: nil, count: 0), forBaseString: Bool) -> Int {
    // Per pair: "=" and "&" (normalized), or "%3D" and "%26" and two more bytes per "%" (base string).
    let separators = forBaseString ? 6 : 2, perPercent = forBaseString ? 2 : 0
    var length = 0
    for entry in entries { length += Int(entry.valueEnd - entry.nameStart) + separators + perPercent * Int(entry.percents) }
    for pair in protocolPairs { length += pair.name.count + pair.value.count + separators + perPercent * Int(pair.percents) }
    return max(0, length - separators / 2)
  }

  /// Appends the normalized parameters (stage 3), `name=value` joined with `&`, with
  /// `protocolPairs` merged in; or, `forBaseString`, their encoding as the base string's third
  /// part (`%` as `%25`, `=` as `%3D`, `&` as `%26`), written straight from the pairs without
  /// the normalized string in between.
  func append(to out: inout ByteWriter, merging protocolPairs: UnsafeBufferPointer<EncodedPair> = .init(start: nil, count: 0), forBaseString: Bool) {
    var first = true
    forEachInSigningOrder(merging: protocolPairs) { pair in
      if !first { forBaseString ? out.append("%26") : out.append(UInt8(ascii: "&")) }
      first = false
      guard forBaseString else {
        out.append(pair.name)
        out.append(UInt8(ascii: "="))
        out.append(pair.value)
        return
      }
      if pair.percents == 0 {
        // Nothing to escape again: name, "%3D", value.
        out.append(pair.name)
        out.append("%3D")
        out.append(pair.value)
      } else {
        Self.appendEncodingPercent(pair.name, to: &out)
        out.append("%3D")
        Self.appendEncodingPercent(pair.value, to: &out)
      }
    }
  }

  /// Appends canonically encoded bytes as the base string carries them: runs between escapes
  /// whole, each `%` as `%25`.
  @inline(__always)
  private static func appendEncodingPercent(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout ByteWriter) {
    guard let base = bytes.baseAddress else { return }
    var index = 0
    while index < bytes.count {
      let run = base + index
      let found: UnsafeMutableRawPointer? = memchr(run, 0x25, bytes.count - index)  // 0x25: "%"
      let length = found.map { UnsafeRawPointer($0) - UnsafeRawPointer(run) } ?? bytes.count - index
      out.append(UnsafeBufferPointer(start: run, count: length))
      index += length
      if found != nil {
        out.append("%25")
        index += 1
      }
    }
  }
}
