import PercentEncoding

/// A name and value in their canonical encoding (RFC 5849 3.4.1.3.2: decoded, then re-encoded
/// with the strict set), side by side in the engine's ``ByteWriter``: the unit of stages 2
/// and 3, for the request's parameters and the protocol parameters alike.
struct EncodedPair: BitwiseCopyable {
  var nameStart: Int32
  var nameEnd: Int32
  var valueEnd: Int32
  /// How many `%` the pair holds: each becomes `%25` in the base string.
  var percents: Int32

  /// The pair whose name is `name` and whose value follows it, up to `valueEnd`.
  init(name: Range<Int>, valueEnd: Int, percents: Int) {
    nameStart = Int32(truncatingIfNeeded: name.lowerBound)
    nameEnd = Int32(truncatingIfNeeded: name.upperBound)
    self.valueEnd = Int32(truncatingIfNeeded: valueEnd)
    self.percents = Int32(truncatingIfNeeded: percents)
  }

  var name: Range<Int> { Int(nameStart)..<Int(nameEnd) }
  var value: Range<Int> { Int(nameEnd)..<Int(valueEnd) }

  /// The pair decoded, for display.
  func decoded(_ bytes: borrowing ByteWriter) -> OAuthParameter {
    OAuthParameter(Self.decode(name, bytes), Self.decode(value, bytes))
  }

  /// Canonical bytes decoded: themselves when they hold no escape; kept encoded in the rare
  /// case where they do not decode to UTF-8.
  private static func decode(_ range: Range<Int>, _ bytes: borrowing ByteWriter) -> String {
    guard bytes.firstIndex(of: UInt8(ascii: "%"), in: range) != nil else { return bytes.string(range) }
    return ScratchArena.withBytes { decoded in
      decoded.validString(decoded.appendPercentDecoded(bytes, range, plusAsSpace: false))
    } ?? bytes.string(range)
  }
}

/// Stages 2 and 3 of the engine, for the signer, the verifier and the public stage fronts
/// (``OAuthParameterCollection``, ``OAuthParameterNormalization``): the signed parameters of
/// a request collected from bytes already in the scratch (the query, the form body, a received
/// header's fields), each written in its canonical encoding, listed as an ``EncodedPair`` and
/// sorted in signing order.
enum CanonicalParameters {
  /// The most query, form body and header bytes one signature may hold: the scratch holds
  /// about five times as many, and its offsets are 32-bit.
  static let maximumRawBytes = Int(Int32.max) / 8

  /// Throws ``OAuthError/requestTooLarge(bytes:limit:)`` past ``maximumRawBytes``.
  static func checkSize(_ rawBytes: Int) throws(OAuthError) {
    guard rawBytes <= maximumRawBytes else { throw .requestTooLarge(bytes: rawBytes, limit: maximumRawBytes) }
  }

  /// Adds a decoded pair, encoding it.
  static func append(decoded parameter: OAuthParameter, _ bytes: inout ByteWriter, _ pairs: inout ScratchArena.List<EncodedPair>) {
    let name = bytes.appendEncoded(parameter.name)
    let value = bytes.appendEncoded(parameter.value)
    // Each escape writes two bytes more than it reads.
    let escapes = (value.upperBound - name.lowerBound - parameter.name.utf8.count - parameter.value.utf8.count) / 2
    pairs.append(EncodedPair(name: name, valueEnd: value.upperBound, percents: escapes))
  }

  /// Adds every pair of the `application/x-www-form-urlencoded` text in `source` (a query or a
  /// form body), decoding `+` and `%XX` and re-encoding strictly; `oauth_signature` is
  /// skipped.
  ///
  /// One pass over the bytes: runs of unreserved bytes are copied whole, and the pair and
  /// name/value boundaries are found as each other byte is classified. As in
  /// `PercentEncoding.forEachFormPair`, an empty pair (`&&`) is skipped and a pair without
  /// `=` has an empty value.
  static func appendForm(
    _ source: Range<Int>, from origin: OAuthParameterSource, _ bytes: inout ByteWriter, _ pairs: inout ScratchArena.List<EncodedPair>
  ) throws(OAuthError) {
    var index = source.lowerBound
    let end = source.upperBound
    while index < end {
      if bytes[index] == UInt8(ascii: "&") {
        index += 1
        continue
      }
      let start = bytes.count
      var percents: Int32 = 0
      let nameValid = canonicalize(&bytes, &index, end, .formName, &percents)
      let nameEnd = bytes.count
      if index < end, bytes[index] == UInt8(ascii: "=") { index += 1 }
      let valueValid = canonicalize(&bytes, &index, end, .formValue, &percents)
      guard nameValid else {
        bytes.truncate(to: start)
        throw .invalidParameterEncoding(source: origin, parameter: rawName(bytes, before: index, in: source))
      }
      guard valueValid else {
        let encodedName = bytes.string(start..<nameEnd)
        bytes.truncate(to: start)
        throw .invalidParameterEncoding(source: origin, parameter: PercentEncoding.decode(encodedName) ?? encodedName)
      }
      if bytes.elementsEqual(start..<nameEnd, "oauth_signature") {
        bytes.truncate(to: start)
      } else {
        pairs.append(EncodedPair(name: start..<nameEnd, valueEnd: bytes.count, percents: Int(percents)))
      }
    }
  }

  /// The raw name of the pair that ends before `index`: for an error message only.
  private static func rawName(_ bytes: borrowing ByteWriter, before index: Int, in source: Range<Int>) -> String {
    var start = min(index, source.upperBound)
    while start > source.lowerBound, bytes[start - 1] != UInt8(ascii: "&") { start -= 1 }
    var end = start
    while end < source.upperBound, bytes[end] != UInt8(ascii: "&"), bytes[end] != UInt8(ascii: "=") { end += 1 }
    return bytes.string(start..<end)
  }

  /// Adds the `oauth_*` fields received in an Authorization header, re-encoded strictly from
  /// the bytes they were read from: the verifier signs them with the query and form body.
  static func appendHeader(_ header: RawHeaderPairs, _ bytes: inout ByteWriter, _ pairs: inout ScratchArena.List<EncodedPair>) throws(OAuthError) {
    try header.forEachPair { name, value throws(OAuthError) in
      let start = bytes.count
      let (_, nameEscapes, nameASCII) = bytes.appendCanonical(from: header.bytes, name, .header)
      let nameEnd = bytes.count
      let (_, valueEscapes, valueASCII) = bytes.appendCanonical(from: header.bytes, value, .header)
      guard (nameASCII && valueASCII) || isUTF8(start..<nameEnd, bytes) && isUTF8(nameEnd..<bytes.count, bytes) else {
        bytes.truncate(to: start)
        throw .invalidParameterEncoding(source: .authorizationHeader, parameter: String(decoding: header.bytes[name], as: UTF8.self))
      }
      pairs.append(EncodedPair(name: start..<nameEnd, valueEnd: bytes.count, percents: nameEscapes + valueEscapes))
    }
  }

  /// Whether canonically encoded bytes decode to UTF-8 (the rare non-ASCII field).
  private static func isUTF8(_ range: Range<Int>, _ bytes: borrowing ByteWriter) -> Bool {
    String(validating: PercentEncoding.decodeBytes(bytes.bytes(range)), as: UTF8.self) != nil
  }

  /// Appends the canonical encoding of the bytes from `index` up to the end of `part`
  /// (``ByteWriter/appendCanonical(_:_:)``), leaves `index` on the byte that ended them, and
  /// counts their escapes in `percents`; `false` when the decoded bytes are not UTF-8.
  private static func canonicalize(
    _ bytes: inout ByteWriter, _ index: inout Int, _ end: Int, _ part: ByteWriter.Part, _ percents: inout Int32
  ) -> Bool {
    let start = bytes.count
    let (stop, escapes, ascii) = bytes.appendCanonical(index..<end, part)
    index = stop
    percents &+= Int32(truncatingIfNeeded: escapes)
    // The rare non-ASCII value is checked for UTF-8 from its (strict) encoding.
    return ascii || String(validating: PercentEncoding.decodeBytes(bytes.bytes(start..<bytes.count)), as: UTF8.self) != nil
  }

  /// Calls `body` with the name and value of each raw `name=value` pair of the form text in
  /// `range`, decoding nothing, as `PercentEncoding.forEachFormPair` does on arrays: `&`
  /// separates pairs, empty segments are skipped, and a segment without `=` is a name with an
  /// empty value.
  static func forEachRawPair<E: Error>(
    in range: Range<Int>, _ bytes: borrowing ByteWriter, _ body: (_ name: Range<Int>, _ value: Range<Int>) throws(E) -> Void
  ) throws(E) {
    var start = range.lowerBound
    while start < range.upperBound {
      let end = bytes.firstIndex(of: UInt8(ascii: "&"), in: start..<range.upperBound) ?? range.upperBound
      if end > start {
        let equals = bytes.firstIndex(of: UInt8(ascii: "="), in: start..<end) ?? end
        try body(start..<equals, (equals < end ? equals + 1 : end)..<end)
      }
      start = end + 1
    }
  }

  /// Sorts the pairs of `range` by encoded name, then encoded value, comparing bytes.
  static func sort(_ range: Range<Int>, _ bytes: borrowing ByteWriter, _ pairs: inout ScratchArena.List<EncodedPair>) {
    pairs.sort(range) { lhs, rhs in precedes(lhs, rhs, bytes) }
  }

  /// Signing order: encoded name, then encoded value, comparing bytes.
  @inline(__always)
  static func precedes(_ lhs: EncodedPair, _ rhs: EncodedPair, _ bytes: borrowing ByteWriter) -> Bool {
    let order = bytes.compare(lhs.name, rhs.name)
    return order != 0 ? order < 0 : bytes.compare(lhs.value, rhs.value) < 0
  }

  /// The same for pairs in two writers.
  @inline(__always)
  static func precedes(_ lhs: EncodedPair, in lhsBytes: borrowing ByteWriter, _ rhs: EncodedPair, in rhsBytes: borrowing ByteWriter) -> Bool {
    let order = lhsBytes.compare(lhs.name, with: rhsBytes, rhs.name)
    return order != 0 ? order < 0 : lhsBytes.compare(lhs.value, with: rhsBytes, rhs.value) < 0
  }

  /// The pairs of `range` in their current order, decoded; without the protocol parameters
  /// (`oauth_*`) unless `includingProtocol`.
  static func decoded(
    _ range: Range<Int>, includingProtocol: Bool, _ bytes: borrowing ByteWriter, _ pairs: borrowing ScratchArena.List<EncodedPair>
  ) -> [OAuthParameter] {
    var result: [OAuthParameter] = []
    for index in range {
      let pair = pairs[index]
      // "oauth_" needs no escape, so the encoded name starts with it when the decoded one does.
      if includingProtocol || !bytes.hasPrefix(pair.name, "oauth_") { result.append(pair.decoded(bytes)) }
    }
    return result
  }
}

/// The order a request's pairs are signed in: its own pairs, sorted, with the protocol
/// parameters (listed in name order) merged in where they sort, so that those are never copied
/// or sorted with them; `oauth_signature`'s slot, if any, is skipped. The request's pairs point
/// into the request's writer, the protocol parameters into the signature's protocol writer.
struct SigningOrder {
  /// The request's own pairs (query, form body, received header), sorted.
  var request: Range<Int>
  /// A signer's protocol parameters, in name order.
  var protocolPairs: Range<Int> = 0..<0
  /// The slot of `oauth_signature` among them, which is never signed.
  var signatureSlot: Int = -1

  /// Walks the pairs in signing order; each step only reads the scratch, so the caller may
  /// write to it between steps.
  struct Iterator {
    fileprivate var request: Int
    fileprivate let requestEnd: Int
    fileprivate var protocolIndex: Int
    fileprivate let protocolEnd: Int
    fileprivate let skip: Int

    /// The next pair, and whether it is a protocol parameter.
    @inline(__always)
    mutating func next(
      _ requestBytes: borrowing ByteWriter, _ protocolBytes: borrowing ByteWriter, _ pairs: borrowing ScratchArena.List<EncodedPair>
    ) -> (pair: EncodedPair, isProtocol: Bool)? {
      if protocolIndex == skip { protocolIndex &+= 1 }
      if request < requestEnd {
        let next = pairs[request]
        if protocolIndex < protocolEnd {
          let candidate = pairs[protocolIndex]
          if CanonicalParameters.precedes(candidate, in: protocolBytes, next, in: requestBytes) {
            protocolIndex &+= 1
            return (candidate, true)
          }
        }
        request &+= 1
        return (next, false)
      }
      guard protocolIndex < protocolEnd else { return nil }
      protocolIndex &+= 1
      return (pairs[protocolIndex &- 1], true)
    }
  }

  func makeIterator() -> Iterator {
    Iterator(
      request: request.lowerBound, requestEnd: request.upperBound, protocolIndex: protocolPairs.lowerBound, protocolEnd: protocolPairs.upperBound,
      skip: signatureSlot)
  }

  /// Appends the normalized parameters (stage 3), `name=value` joined with `&`; or,
  /// `forBaseString`, their encoding as the base string's third part (`%` as `%25`, `=` as
  /// `%3D`, `&` as `%26`), written straight from the pairs without the normalized string in
  /// between.
  func append(
    request requestBytes: borrowing ByteWriter, protocol protocolBytes: borrowing ByteWriter, _ pairs: borrowing ScratchArena.List<EncodedPair>,
    to out: inout ByteWriter, forBaseString: Bool
  ) {
    var pairsInOrder = makeIterator()
    var first = true
    while let (pair, isProtocol) = pairsInOrder.next(requestBytes, protocolBytes, pairs) {
      if isProtocol {
        Self.append(pair, first: first, from: protocolBytes, to: &out, forBaseString: forBaseString)
      } else {
        Self.append(pair, first: first, from: requestBytes, to: &out, forBaseString: forBaseString)
      }
      first = false
    }
  }

  @inline(__always)
  private static func append(_ pair: EncodedPair, first: Bool, from bytes: borrowing ByteWriter, to out: inout ByteWriter, forBaseString: Bool) {
    guard forBaseString else {
      if !first { out.append(UInt8(ascii: "&")) }
      out.append(bytes, pair.name)
      out.append(UInt8(ascii: "="))
      out.append(bytes, pair.value)
      return
    }
    if !first { out.append("%26") }
    if pair.percents == 0 {
      // Nothing to escape again: name, "%3D", value.
      out.append(bytes, pair.name)
      out.append("%3D")
      out.append(bytes, pair.value)
    } else {
      out.appendDoublingPercents(bytes, pair.name)
      out.append("%3D")
      out.appendDoublingPercents(bytes, pair.value)
    }
  }

  /// The normalized parameters as a String.
  func normalized(
    request requestBytes: borrowing ByteWriter, protocol protocolBytes: borrowing ByteWriter, _ pairs: borrowing ScratchArena.List<EncodedPair>
  ) -> String {
    ScratchArena.string {
      append(request: requestBytes, protocol: protocolBytes, pairs, to: &$0, forBaseString: false)
    }
  }
}
