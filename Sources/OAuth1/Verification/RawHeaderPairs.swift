/// The signed fields of an Authorization header as received (quoted-string unescaped, still
/// percent-encoded), kept as the verifier reads the header, and re-encoded strictly only when
/// the base string is built (``CanonicalParameters/appendHeader(_:_:_:)``).
struct RawHeaderPairs: Sendable {
  /// Every field's name and value, one after the other.
  private var bytes: [UInt8] = []
  /// Per pair: where its name ends (its value starts) and where its value ends, in `bytes`.
  private var ends: [Int32] = []

  /// Pairs from a header of `capacity` bytes (their fields, unescaped, are never longer).
  init(capacity: Int = 0) {
    bytes.reserveCapacity(capacity)
  }

  /// How many pairs there are.
  var count: Int { ends.count / 2 }
  /// How many raw bytes they hold.
  var byteCount: Int { bytes.count }

  /// Copies a field's name and value from the scratch the header was read into.
  mutating func append(name: Range<Int>, value: Range<Int>, from source: borrowing ByteWriter) {
    if ends.isEmpty { ends.reserveCapacity(2 * ProtocolParameterName.allCases.count) }
    source.copy(name, to: &bytes)
    ends.append(Int32(truncatingIfNeeded: bytes.count))
    source.copy(value, to: &bytes)
    ends.append(Int32(truncatingIfNeeded: bytes.count))
  }

  /// Appends the fields' bytes to `writer` and returns where they start: the offset to add to
  /// the ranges ``forEachPair(_:)`` gives.
  func copy(to writer: inout ByteWriter) -> Int {
    writer.append(contentsOf: bytes).lowerBound
  }

  /// Calls `body` with each field's name and value, as ranges of the bytes ``copy(to:)`` writes.
  func forEachPair(_ body: (_ name: Range<Int>, _ value: Range<Int>) throws(OAuthError) -> Void) throws(OAuthError) {
    var start = 0
    for pair in 0..<count {
      let nameEnd = Int(ends[2 * pair]), valueEnd = Int(ends[2 * pair + 1])
      try body(start..<nameEnd, nameEnd..<valueEnd)
      start = valueEnd
    }
  }
}
