import PercentEncoding

/// Appends bytes to memory the caller reserved: the one primitive through which the signing
/// engine writes a base string, a header or a normalized parameter string.
///
/// Invariants, which every user keeps by sizing before writing:
/// - `start` points to `capacity` bytes that stay allocated, and are written by no one else,
///   for as long as the writer is used;
/// - an append never passes `capacity` (checked: running over would be a sizing bug, never a
///   property of the input, so it stops the program rather than corrupt memory).
struct ByteWriter {
  let start: UnsafeMutablePointer<UInt8>
  let capacity: Int
  private(set) var count = 0

  init(_ start: UnsafeMutablePointer<UInt8>, capacity: Int) {
    self.start = start
    self.capacity = capacity
  }

  /// A new String of at most `capacity` bytes that `write` appends.
  static func string(capacity: Int, _ write: (inout ByteWriter) -> Void) -> String {
    String(unsafeUninitializedCapacity: max(capacity, 1)) { buffer in
      var out = ByteWriter(buffer.baseAddress!, capacity: capacity)
      write(&out)
      return out.count
    }
  }

  /// What was written so far.
  var written: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: start, count: count) }

  /// What was written so far, as a String (for a trace or a public stage).
  var string: String { String(decoding: written, as: UTF8.self) }

  @inline(__always)
  mutating func append(_ byte: UInt8) {
    precondition(count < capacity, "ByteWriter: sized too small")
    start[count] = byte
    count &+= 1
  }

  @inline(__always)
  mutating func append(_ text: StaticString) {
    let length = text.utf8CodeUnitCount
    precondition(count + length <= capacity, "ByteWriter: sized too small")
    // The separators ("%3D", "%26", "=\"") are a few bytes: stored directly, not by a call.
    if length <= 8 {
      for index in 0..<length { start[count &+ index] = text.utf8Start[index] }
    } else {
      (start + count).update(from: text.utf8Start, count: length)
    }
    count &+= length
  }

  @inline(__always)
  mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    precondition(count + bytes.count <= capacity, "ByteWriter: sized too small")
    if let base = bytes.baseAddress { (start + count).update(from: base, count: bytes.count) }
    count &+= bytes.count
  }

  /// Appends `bytes` percent-encoded (RFC 5849 3.6): at most three bytes per byte.
  @inline(__always)
  mutating func appendEncoded(_ bytes: UnsafeBufferPointer<UInt8>) {
    precondition(count + 3 * bytes.count <= capacity, "ByteWriter: sized too small")
    count &+= PercentEncoding.encode(bytes, into: start + count)
  }

  /// Lets `body` write at most `room` bytes in place and returns what it says it wrote.
  @inline(__always)
  mutating func appendInPlace(room: Int, _ body: (UnsafeMutablePointer<UInt8>) throws(OAuthError) -> Int) throws(OAuthError) {
    precondition(count + room <= capacity, "ByteWriter: sized too small")
    let written = try body(start + count)
    precondition(written <= room, "ByteWriter: wrote past the room it asked for")
    count &+= written
  }
}

/// A name and value already in their canonical encoding, pointing into memory that outlives
/// the pair's use (a signer's constants, or one signature's scratch).
struct EncodedPair {
  var name: UnsafeBufferPointer<UInt8>
  var value: UnsafeBufferPointer<UInt8>
  /// How many `%` the pair holds: each becomes `%25` in the base string.
  var percents: Int32

  init(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
    let percent = UInt8(ascii: "%")
    self.init(name: name, value: value, percents: Int32(occurrences(of: percent, in: name) + occurrences(of: percent, in: value)))
  }

  /// A pair whose `%` count the caller knows (it wrote the value).
  init(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>, percents: Int32) {
    self.name = name
    self.value = value
    self.percents = percents
  }

  /// The pair decoded, for display.
  var decoded: OAuthParameter {
    OAuthParameter(Self.decode(name), Self.decode(value))
  }

  private static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    let text = String(decoding: bytes, as: UTF8.self)
    return PercentEncoding.decode(text) ?? text
  }
}
