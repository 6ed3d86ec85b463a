/// The signed fields of an Authorization header as received (quoted-string unescaped, still
/// percent-encoded): the header's bytes as the verifier read them, and where each field's name
/// and value are in them. They are re-encoded strictly only when the base string is built
/// (``CanonicalParameters/appendHeader(_:_:_:)``).
struct RawHeaderPairs: Sendable {
  /// The header, then the unescaped copies of the values that held quoted-pairs.
  let bytes: [UInt8]
  /// Per pair: where its name starts and ends, where its value starts and ends, in `bytes`.
  private let bounds: [Int32]
  /// How many bytes the names and values hold.
  let byteCount: Int

  /// No fields.
  init() {
    bytes = []
    bounds = []
    byteCount = 0
  }

  /// The fields `bounds` gives (four offsets per field) in `bytes`.
  init(bytes: [UInt8], bounds: [Int32]) {
    precondition(bounds.count % 4 == 0, "RawHeaderPairs: four offsets per field")
    self.bytes = bytes
    self.bounds = bounds
    var byteCount = 0
    for field in 0..<(bounds.count / 4) {
      byteCount += Int(bounds[4 * field + 1] - bounds[4 * field]) + Int(bounds[4 * field + 3] - bounds[4 * field + 2])
    }
    self.byteCount = byteCount
  }

  /// How many pairs there are.
  var count: Int { bounds.count / 4 }

  /// Calls `body` with each field's name and value, as ranges of ``bytes``.
  func forEachPair(_ body: (_ name: Range<Int>, _ value: Range<Int>) throws(OAuthError) -> Void) throws(OAuthError) {
    for field in 0..<count {
      let name = Int(bounds[4 * field])..<Int(bounds[4 * field + 1])
      try body(name, Int(bounds[4 * field + 2])..<Int(bounds[4 * field + 3]))
    }
  }
}
