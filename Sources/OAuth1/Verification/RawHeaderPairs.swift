import Foundation

/// The signed fields of an Authorization header as received (quoted-string unescaped, still
/// percent-encoded), copied into one buffer as the verifier reads the header, and re-encoded
/// strictly only when the base string is built (``CanonicalParameters/appendHeader(_:)``).
struct RawHeaderPairs {
  /// Room for the whole header, allocated once: its fields, unescaped, are never longer.
  private var bytes: [UInt8]
  private var used = 0
  /// Per pair: where its name ends (its value starts) and where its value ends.
  private var ends: [Int32] = []

  /// Pairs from a header of `capacity` bytes.
  init(capacity: Int = 0) {
    bytes = [UInt8](repeating: 0, count: capacity)
  }

  /// How many pairs there are.
  var count: Int { ends.count / 2 }
  /// How many raw bytes they hold.
  var byteCount: Int { used }

  /// Copies a field; together they must fit the capacity (a header's fields do).
  mutating func append(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
    precondition(used + name.count + value.count <= bytes.count, "RawHeaderPairs: more than the header holds")
    if ends.isEmpty { ends.reserveCapacity(2 * ProtocolParameterName.allCases.count) }
    let start = used
    bytes.withUnsafeMutableBufferPointer { buffer in
      guard let out = buffer.baseAddress else { return }
      if let base = name.baseAddress { (out + start).update(from: base, count: name.count) }
      if let base = value.baseAddress { (out + start + name.count).update(from: base, count: value.count) }
    }
    used += name.count + value.count
    ends.append(Int32(truncatingIfNeeded: start + name.count))
    ends.append(Int32(truncatingIfNeeded: used))
  }

  func forEachPair(_ body: (_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) throws(OAuthError) -> Void) throws(OAuthError) {
    let outcome: Result<Void, OAuthError> = bytes.withUnsafeBufferPointer { bytes in
      Result { () throws(OAuthError) in
        var start = 0
        for pair in 0..<count {
          let nameEnd = Int(ends[2 * pair]), valueEnd = Int(ends[2 * pair + 1])
          try body(UnsafeBufferPointer(rebasing: bytes[start..<nameEnd]), UnsafeBufferPointer(rebasing: bytes[nameEnd..<valueEnd]))
          start = valueEnd
        }
      }
    }
    try outcome.get()
  }
}
