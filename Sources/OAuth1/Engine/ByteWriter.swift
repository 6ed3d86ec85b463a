internal import CryptoPrimitives
import Foundation
import PercentEncoding

/// The one writer of the signing engine: appends bytes to a block of memory lent by
/// ``ScratchArena`` and reads back what it wrote. Every byte the engine works on goes through it
/// (the request's URL and form body are copied in first), and the engine refers to bytes by
/// their offsets (`Range<Int>`), never by address, so no one sizes a writer: one that outgrows
/// its block moves, with what it wrote, to a block of its own twice as large.
///
/// This is one of the three places that touch memory through pointers (with ``ScratchArena``
/// and the `CryptoPrimitives` module). Its invariants, each checked:
/// - `start` points to `capacity` bytes that no one else writes: the block its lender lent it
///   (`lent`), which stays allocated for the writer's whole life, or, once it outgrew that, a
///   block it allocated itself and frees in `deinit`. Only ``ScratchArena`` makes a writer; it
///   lends it `inout` to a closure and checks, when the closure returns, that the writer it
///   holds is still the one it lent that block to. A writer is `~Copyable`, so it cannot be
///   copied out of that closure, nor captured by an escaping one;
/// - bytes `0..<count` are initialized: every read is checked against `count`;
/// - every write reserves its length first (``reserve(_:)``): within `capacity`, or after
///   moving to a larger block; the block it leaves is wiped (it may hold key material).
struct ByteWriter: ~Copyable {
  private var start: UnsafeMutablePointer<UInt8>
  /// How many bytes fit before the writer moves.
  private var capacity: Int
  /// How many bytes were written.
  private(set) var count = 0
  /// The block the lender lent: the writer's identity for the lender's check.
  private let lent: UnsafeMutablePointer<UInt8>

  /// For ``ScratchArena`` only: `start` must point to `capacity` bytes that stay allocated and
  /// unshared for the writer's whole life.
  init(unsafeLent start: UnsafeMutablePointer<UInt8>, capacity: Int) {
    precondition(capacity > 0, "ByteWriter: an empty block")
    self.start = start
    self.capacity = capacity
    lent = start
  }

  deinit {
    if start != lent { start.deallocate() }
  }

  /// Whether this writer was lent `memory`: the check its lender makes when it takes it back.
  func wasLent(_ memory: UnsafeMutablePointer<UInt8>) -> Bool { lent == memory }

  /// Makes sure `length` more bytes fit. Every write reserves what it needs; a caller that
  /// knows a large request is coming reserves it first, so that the writer moves once, not once
  /// per doubling (each move touches fresh pages: a 1 MiB form took twice as long without).
  @inline(__always)
  mutating func reserve(_ length: Int) {
    if _slowPath(length > capacity &- count) { move(toFit: length) }
  }

  /// Moves what was written to a block of its own, at least twice as large, wiping the one it
  /// leaves.
  @inline(never)
  private mutating func move(toFit length: Int) {
    precondition(length >= 0 && length <= Int.max / 4 - count, "ByteWriter: a write of \(length) bytes")
    let newCapacity = max(2 &* capacity, count &+ length)
    let memory = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
    memory.update(from: start, count: count)
    SecureMemory.wipe(UnsafeMutableBufferPointer(start: start, count: count))
    if start != lent { start.deallocate() }
    start = memory
    capacity = newCapacity
  }

  // MARK: - Reading what was written

  @inline(__always)
  private func checkWritten(_ range: Range<Int>) {
    precondition(range.lowerBound >= 0 && range.upperBound <= count, "ByteWriter: read past what was written")
  }

  /// The byte at `index`, which was written (and may be written again).
  @inline(__always)
  subscript(index: Int) -> UInt8 {
    get {
      precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "ByteWriter: read past what was written")
      return start[index]
    }
    set {
      precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "ByteWriter: write past what was written")
      start[index] = newValue
    }
  }

  /// The bytes of `range` as a String (invalid UTF-8 repaired).
  func string(_ range: Range<Int>) -> String {
    checkWritten(range)
    return String(decoding: UnsafeBufferPointer(start: start + range.lowerBound, count: range.count), as: UTF8.self)
  }

  /// Everything written, as a String.
  var string: String { string(0..<count) }

  /// The bytes of `range` as a String if they are UTF-8, else `nil`. ASCII, the usual case,
  /// is recognized without the standard library's generic validation.
  func validString(_ range: Range<Int>) -> String? {
    checkWritten(range)
    let bytes = UnsafeBufferPointer(start: start + range.lowerBound, count: range.count)
    if !bytes.contains(where: { $0 >= 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
    return String(validating: bytes, as: UTF8.self)
  }

  /// A copy of the bytes of `range`.
  func bytes(_ range: Range<Int>) -> [UInt8] {
    checkWritten(range)
    return Array(UnsafeBufferPointer(start: start + range.lowerBound, count: range.count))
  }

  /// The first index of `byte` in `range`, found with `memchr`.
  @inline(__always)
  func firstIndex(of byte: UInt8, in range: Range<Int>) -> Int? {
    checkWritten(range)
    guard !range.isEmpty, let found = memchr(start + range.lowerBound, Int32(byte), range.count) else { return nil }
    return UnsafeRawPointer(found) - UnsafeRawPointer(start)
  }

  /// How many times `byte` occurs in `range` (the bytes counted are rare: a form's `&`, a
  /// value's `%`).
  func occurrences(of byte: UInt8, in range: Range<Int>) -> Int {
    var found = 0
    var rest = range
    while let index = firstIndex(of: byte, in: rest) {
      found += 1
      rest = (index + 1)..<rest.upperBound
    }
    return found
  }

  /// The first index in `range` whose byte satisfies `predicate`.
  @inline(__always)
  func firstIndex(in range: Range<Int>, where predicate: (UInt8) -> Bool) -> Int? {
    checkWritten(range)
    var index = range.lowerBound
    while index < range.upperBound {
      if predicate(start[index]) { return index }
      index &+= 1
    }
    return nil
  }

  /// Where the run of bytes that `table` accepts (256 characters, one per byte value, `1` for a
  /// byte of the run), from the start of `range`, ends.
  @inline(__always)
  func endOfRun(in range: Range<Int>, _ table: StaticString) -> Int {
    checkWritten(range)
    precondition(table.utf8CodeUnitCount == 256, "ByteWriter: a byte table has 256 entries")
    let accepts = table.utf8Start
    var index = range.lowerBound
    while index < range.upperBound, accepts[Int(start[index])] == UInt8(ascii: "1") { index &+= 1 }
    return index
  }

  /// Compares the bytes of two ranges in byte order: negative, zero or positive.
  @inline(__always)
  func compare(_ a: Range<Int>, _ b: Range<Int>) -> Int {
    checkWritten(b)
    return compare(a, with: start + b.lowerBound, b.count)
  }

  /// Compares the bytes of `a` with those of `b` in `other`, in byte order.
  @inline(__always)
  func compare(_ a: Range<Int>, with other: borrowing ByteWriter, _ b: Range<Int>) -> Int {
    other.checkWritten(b)
    return compare(a, with: other.start + b.lowerBound, b.count)
  }

  @inline(__always)
  private func compare(_ a: Range<Int>, with b: UnsafeMutablePointer<UInt8>, _ lengthB: Int) -> Int {
    checkWritten(a)
    let lengthA = a.count
    let x = start + a.lowerBound
    // Eight bytes at a time first: many names share the "oauth_" prefix, and comparing
    // big-endian words orders as the bytes do.
    if lengthA >= 8 && lengthB >= 8 {
      let wordA = UInt64(bigEndian: UnsafeRawPointer(x).loadUnaligned(as: UInt64.self))
      let wordB = UInt64(bigEndian: UnsafeRawPointer(b).loadUnaligned(as: UInt64.self))
      if wordA != wordB { return wordA < wordB ? -1 : 1 }
    } else if lengthA > 0 && lengthB > 0 && x[0] != b[0] {
      // Short names mostly differ in their first byte: no call for those.
      return Int(x[0]) - Int(b[0])
    }
    let common = min(lengthA, lengthB)
    if common > 0 {
      let order = memcmp(x, b, common)
      if order != 0 { return Int(order) }
    }
    return lengthA - lengthB
  }

  /// Whether the bytes of `range` are `text`.
  func elementsEqual(_ range: Range<Int>, _ text: StaticString) -> Bool {
    checkWritten(range)
    return range.count == text.utf8CodeUnitCount && memcmp(start + range.lowerBound, text.utf8Start, range.count) == 0
  }

  /// Whether the bytes of `range` begin with `prefix`.
  func hasPrefix(_ range: Range<Int>, _ prefix: StaticString) -> Bool {
    checkWritten(range)
    return range.count >= prefix.utf8CodeUnitCount && memcmp(start + range.lowerBound, prefix.utf8Start, prefix.utf8CodeUnitCount) == 0
  }

  // MARK: - Writing

  /// Appends one byte.
  @inline(__always)
  mutating func append(_ byte: UInt8) {
    reserve(1)
    start[count] = byte
    count &+= 1
  }

  /// Appends a constant.
  @inline(__always)
  mutating func append(_ text: StaticString) {
    let length = text.utf8CodeUnitCount
    reserve(length)
    // The separators ("%3D", "%26", "=\"") are a few bytes: stored directly, not by a call.
    if length <= 8 {
      for index in 0..<length { start[count &+ index] = text.utf8Start[index] }
    } else {
      (start + count).update(from: text.utf8Start, count: length)
    }
    count &+= length
  }

  /// Appends a String's UTF-8 bytes and returns where they are.
  @discardableResult
  mutating func append(contentsOf text: String) -> Range<Int> {
    let begin = count
    if text.utf8.withContiguousStorageIfAvailable({ append(unsafeBytes: $0) }) == nil {
      Array(text.utf8).withUnsafeBufferPointer { append(unsafeBytes: $0) }
    }
    return begin..<count
  }

  /// Appends bytes and returns where they are.
  @discardableResult
  mutating func append(contentsOf bytes: [UInt8]) -> Range<Int> {
    let begin = count
    bytes.withUnsafeBufferPointer { append(unsafeBytes: $0) }
    return begin..<count
  }

  /// Appends a body's bytes and returns where they are; `nil` for no body.
  @discardableResult
  mutating func append(contentsOf data: borrowing Data?) -> Range<Int>? {
    let begin = count
    guard data?.withUnsafeBytes({ append(unsafeBytes: $0.bindMemory(to: UInt8.self)) }) != nil else { return nil }
    return begin..<count
  }

  /// Appends bytes another writer wrote in their canonical encoding as the base string carries
  /// them: each `%` as `%25` (two bytes more per `%`, reserved at each one).
  @inline(__always)
  mutating func appendDoublingPercents(_ other: borrowing ByteWriter, _ range: Range<Int>) {
    other.checkWritten(range)
    reserve(range.count)
    var position = count
    var index = range.lowerBound
    while index < range.upperBound {
      let byte = other.start[index]
      start[position] = byte
      position &+= 1
      index &+= 1
      if byte == UInt8(ascii: "%") {
        // Two more bytes on top of the ones still to copy.
        if position &+ 2 &+ (range.upperBound &- index) > capacity {
          count = position
          reserve(2 &+ range.upperBound &- index)
        }
        start[position] = UInt8(ascii: "2")
        start[position &+ 1] = UInt8(ascii: "5")
        position &+= 2
      }
    }
    count = position
  }

  /// Appends the decimal digits of `value` (a timestamp): counted first, then written two at a
  /// time from the last, from a table of the hundred pairs.
  mutating func appendDecimal(_ value: UInt64) {
    var digits = 1
    var power: UInt64 = 10
    while digits < 20 && value >= power {
      digits &+= 1
      power = power &* 10
    }
    reserve(digits)
    let pairs = Self.decimalPairs.utf8Start
    var magnitude = value
    var index = count &+ digits
    while magnitude >= 10 {
      let pair = Int(magnitude % 100) &* 2
      magnitude /= 100
      start[index &- 1] = pairs[pair &+ 1]
      start[index &- 2] = pairs[pair]
      index &-= 2
    }
    if index > count { start[index &- 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude) }
    count &+= digits
  }

  /// "00" to "99", each pair's digits at twice its value.
  private static var decimalPairs: StaticString {
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
  }

  /// Appends a copy of bytes another writer wrote.
  @inline(__always)
  mutating func append(_ other: borrowing ByteWriter, _ range: Range<Int>) {
    other.checkWritten(range)
    append(unsafeBytes: UnsafeBufferPointer(start: other.start + range.lowerBound, count: range.count))
  }

  @inline(__always)
  private mutating func append(unsafeBytes bytes: UnsafeBufferPointer<UInt8>) {
    reserve(bytes.count)
    guard let base = bytes.baseAddress else { return }
    Self.copy(base, to: start + count, bytes.count)
    count &+= bytes.count
  }

  /// Copies `length` bytes: a short run (a name, a value between escapes) with two
  /// overlapping loads and stores, not a call. Both loads come before the stores.
  @inline(__always)
  private static func copy(_ source: UnsafePointer<UInt8>, to destination: UnsafeMutablePointer<UInt8>, _ length: Int) {
    let from = UnsafeRawPointer(source), to = UnsafeMutableRawPointer(destination)
    if length >= 8 && length <= 16 {
      let head = from.loadUnaligned(as: UInt64.self), tail = from.loadUnaligned(fromByteOffset: length &- 8, as: UInt64.self)
      to.storeBytes(of: head, as: UInt64.self)
      to.storeBytes(of: tail, toByteOffset: length &- 8, as: UInt64.self)
    } else if length >= 4 && length < 8 {
      let head = from.loadUnaligned(as: UInt32.self), tail = from.loadUnaligned(fromByteOffset: length &- 4, as: UInt32.self)
      to.storeBytes(of: head, as: UInt32.self)
      to.storeBytes(of: tail, toByteOffset: length &- 4, as: UInt32.self)
    } else if length < 4 {
      for index in 0..<length { destination[index] = source[index] }
    } else {
      destination.update(from: source, count: length)
    }
  }

  /// Appends a String percent-encoded (RFC 5849 3.6: all but the unreserved set as `%XX`) and
  /// returns where it is.
  @discardableResult
  mutating func appendEncoded(_ text: String) -> Range<Int> {
    let begin = count
    if text.utf8.withContiguousStorageIfAvailable({ appendEncoded(unsafeBytes: $0) }) == nil {
      Array(text.utf8).withUnsafeBufferPointer { appendEncoded(unsafeBytes: $0) }
    }
    return begin..<count
  }

  /// Appends bytes already written, percent-encoded.
  mutating func appendEncoded(copyOf range: Range<Int>) {
    checkWritten(range)
    reserve(3 * range.count)  // first: the bytes may move
    appendEncoded(unsafeBytes: UnsafeBufferPointer(start: start + range.lowerBound, count: range.count))
  }

  /// Appends bytes another writer wrote, percent-encoded.
  mutating func appendEncoded(_ other: borrowing ByteWriter, _ range: Range<Int>) {
    other.checkWritten(range)
    appendEncoded(unsafeBytes: UnsafeBufferPointer(start: other.start + range.lowerBound, count: range.count))
  }

  /// The engine's percent-encoder: three bytes per byte are reserved first.
  /// Eight bytes are classified per step: eight unreserved bytes (most of a key, a secret, a
  /// nonce) are copied as one word; otherwise those eight are encoded one by one.
  private mutating func appendEncoded(unsafeBytes bytes: UnsafeBufferPointer<UInt8>) {
    reserve(3 * bytes.count)
    guard let input = bytes.baseAddress else { return }
    let classes = Self.byteClasses.utf8Start, total = bytes.count
    var written = count
    var index = 0
    while index < total {
      var end = total
      if index &+ 8 <= total {
        if Self.eightUnreserved(input + index) {
          UnsafeMutableRawPointer(start + written).storeBytes(of: UnsafeRawPointer(input + index).loadUnaligned(as: UInt64.self), as: UInt64.self)
          index &+= 8
          written &+= 8
          continue
        }
        end = index &+ 8
      }
      while index < end {
        let byte = input[index]
        if classes[Int(byte)] == Self.unreserved {
          start[written] = byte
          written &+= 1
        } else {
          Self.writeEscape(byte, at: start + written)
          written &+= 3
        }
        index &+= 1
      }
    }
    count = written
  }

  @inline(__always)
  private static func writeEscape(_ byte: UInt8, at out: UnsafeMutablePointer<UInt8>) {
    out[0] = UInt8(ascii: "%")
    out[1] = PercentEncoding.hexDigit(byte >> 4)
    out[2] = PercentEncoding.hexDigit(byte & 0x0F)
  }

  /// The signer's base64 encoder (``OAuthBase64`` holds its forms): appends the bytes of
  /// `source` (already written) with `alphabet`'s 64 symbols, `=` padding when `padded`, and
  /// `+`, `/` and `=` as `%2B`, `%2F` and `%3D` when `percentEncoded`; returns where they are.
  /// Four bytes (twelve percent-encoded) per three are reserved first.
  mutating func appendBase64(_ source: Range<Int>, alphabet: StaticString, padded: Bool, percentEncoded: Bool) -> Range<Int> {
    checkWritten(source)
    reserve((source.count + 2) / 3 * (percentEncoded ? 12 : 4))
    precondition(alphabet.utf8CodeUnitCount == 64, "ByteWriter: a base64 alphabet has 64 symbols")
    let symbols = alphabet.utf8Start
    let begin = count
    var position = count
    @inline(__always) func put(_ symbol: UInt8) {
      if percentEncoded && (symbol == UInt8(ascii: "+") || symbol == UInt8(ascii: "/") || symbol == UInt8(ascii: "=")) {
        Self.writeEscape(symbol, at: start + position)
        position &+= 3
      } else {
        start[position] = symbol
        position &+= 1
      }
    }
    var index = source.lowerBound
    let end = source.upperBound
    while index &+ 3 <= end {
      let value = UInt32(start[index]) << 16 | UInt32(start[index &+ 1]) << 8 | UInt32(start[index &+ 2])
      put(symbols[Int(value >> 18 & 0x3F)])
      put(symbols[Int(value >> 12 & 0x3F)])
      put(symbols[Int(value >> 6 & 0x3F)])
      put(symbols[Int(value & 0x3F)])
      index &+= 3
    }
    if index < end {
      let twoLeft = index &+ 1 < end
      let value = UInt32(start[index]) << 16 | (twoLeft ? UInt32(start[index &+ 1]) << 8 : 0)
      put(symbols[Int(value >> 18 & 0x3F)])
      put(symbols[Int(value >> 12 & 0x3F)])
      if twoLeft { put(symbols[Int(value >> 6 & 0x3F)]) } else if padded { put(UInt8(ascii: "=")) }
      if padded { put(UInt8(ascii: "=")) }
    }
    count = position
    return begin..<count
  }

  /// Whether the eight bytes from `input` are all unreserved: their classes ("0" to "5")
  /// together are "0" only when all eight are.
  @inline(__always)
  private static func eightUnreserved(_ input: UnsafePointer<UInt8>) -> Bool {
    let classes = byteClasses.utf8Start
    let together =
      classes[Int(input[0])] | classes[Int(input[1])] | classes[Int(input[2])] | classes[Int(input[3])] | classes[Int(input[4])]
      | classes[Int(input[5])] | classes[Int(input[6])] | classes[Int(input[7])]
    return together == unreserved
  }

  /// Whether every byte of `text` is unreserved, so that it is its own percent-encoding.
  static func isUnreserved(_ text: String) -> Bool {
    func check(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
      guard let input = bytes.baseAddress else { return true }
      var index = 0
      while index &+ 8 <= bytes.count && eightUnreserved(input + index) { index &+= 8 }
      return bytes[index...].allSatisfy { byteClasses.utf8Start[Int($0)] == unreserved }
    }
    return text.utf8.withContiguousStorageIfAvailable(check) ?? Array(text.utf8).withUnsafeBufferPointer(check)
  }

  /// What a part of a form or header ends at, for ``appendCanonical(_:_:)``.
  enum Part {
    /// A form's name: ends at `=` or `&`; `+` is a space.
    case formName
    /// A form's value: ends at `&`; `+` is a space.
    case formValue
    /// A header field's name or value, whole: `+`, `&` and `=` are themselves (RFC 5849 3.5.1).
    case header
  }

  /// The canonical re-encoding of stage 2 (RFC 5849 3.4.1.3.2: decoded, then encoded with the
  /// strict set), in one pass: appends the bytes of `source` from its start up to the first
  /// byte that ends `part`, with `%XX` decoded (a `%` not followed by two hex digits is kept)
  /// and every byte outside the unreserved set written as `%XX`. Returns where it stopped, how
  /// many escapes it wrote, and whether every decoded byte was ASCII. Three bytes per
  /// byte of `source` are reserved first.
  mutating func appendCanonical(_ source: Range<Int>, _ part: Part) -> (stop: Int, escapes: Int, ascii: Bool) {
    checkWritten(source)
    reserve(3 * source.count)  // first: the bytes may move
    return appendCanonical(from: UnsafePointer(start), source, part)
  }

  /// The same from bytes of `array` (a received header's fields, kept as read).
  mutating func appendCanonical(from array: [UInt8], _ source: Range<Int>, _ part: Part) -> (stop: Int, escapes: Int, ascii: Bool) {
    precondition(source.lowerBound >= 0 && source.upperBound <= array.count, "ByteWriter: read past the array")
    return array.withUnsafeBufferPointer { appendCanonical(from: $0.baseAddress!, source, part) }
  }

  private mutating func appendCanonical(
    from input: UnsafePointer<UInt8>, _ source: Range<Int>, _ part: Part
  ) -> (stop: Int, escapes: Int, ascii: Bool) {
    reserve(3 * source.count)
    let classes = Self.byteClasses.utf8Start
    var position = count  // locals: no exclusivity check per byte
    var at = source.lowerBound
    let end = source.upperBound
    var escapes = 0
    var ascii = true
    while at < end {
      var byte = input[at]
      let kind = classes[Int(byte)]
      if kind == Self.unreserved {
        start[position] = byte
        position &+= 1
        at &+= 1
        continue
      }
      if part != .header && (kind == Self.ampersand || (kind == Self.equals && part == .formName)) { break }
      at &+= 1
      if kind == Self.percent, at &+ 1 < end {
        if let high = PercentEncoding.hexValue(input[at]), let low = PercentEncoding.hexValue(input[at &+ 1]) {
          byte = high << 4 | low
          at &+= 2
          if classes[Int(byte)] == Self.unreserved {
            start[position] = byte
            position &+= 1
            continue
          }
        }
      } else if kind == Self.plus && part != .header {
        byte = UInt8(ascii: " ")
      }
      if byte >= 0x80 { ascii = false }
      Self.writeEscape(byte, at: start + position)
      position &+= 3
      escapes &+= 1
    }
    count = position
    return (at, escapes, ascii)
  }

  /// Appends the bytes of `source` (already written, or in `other`) with `%XX` decoded, and
  /// `+` as a space when `plusAsSpace` (a `%` not followed by two hex digits is kept): the
  /// verifier reads the protocol parameters' names and values this way. The source's length
  /// is reserved first.
  mutating func appendPercentDecoded(_ other: borrowing ByteWriter, _ source: Range<Int>, plusAsSpace: Bool) -> Range<Int> {
    other.checkWritten(source)
    reserve(source.count)
    let input = other.start
    let begin = count
    var position = count
    var at = source.lowerBound
    let end = source.upperBound
    while at < end {
      let byte = input[at]
      if byte == UInt8(ascii: "%"), at &+ 2 < end, let high = PercentEncoding.hexValue(input[at &+ 1]),
        let low = PercentEncoding.hexValue(input[at &+ 2])
      {
        start[position] = high << 4 | low
        at &+= 3
      } else {
        start[position] = byte == UInt8(ascii: "+") && plusAsSpace ? UInt8(ascii: " ") : byte
        at &+= 1
      }
      position &+= 1
    }
    count = position
    return begin..<count
  }

  // The package's one percent table and its classes (PercentEncoding's ByteClasses.swift).
  @inline(__always) private static var byteClasses: StaticString { PercentEncoding.byteClasses }
  @inline(__always) private static var unreserved: UInt8 { PercentEncoding.ByteClass.unreserved }
  @inline(__always) private static var plus: UInt8 { PercentEncoding.ByteClass.plus }
  @inline(__always) private static var percent: UInt8 { PercentEncoding.ByteClass.percent }
  @inline(__always) private static var ampersand: UInt8 { PercentEncoding.ByteClass.ampersand }
  @inline(__always) private static var equals: UInt8 { PercentEncoding.ByteClass.equals }

  /// Lowercases the ASCII letters of bytes already written (a host name).
  mutating func lowercaseASCII(_ range: Range<Int>) {
    checkWritten(range)
    for index in range where start[index] &- UInt8(ascii: "A") < 26 { start[index] |= 0x20 }
  }

  /// Forgets what was written from `newCount` on (to write it again).
  mutating func truncate(to newCount: Int) {
    precondition(newCount >= 0 && newCount <= count, "ByteWriter: truncated past what was written")
    count = newCount
  }

  // MARK: - For the crypto primitives (Crypto/)

  /// Lends the crypto primitives the bytes of `range`, for the duration of `body`.
  func withUnsafeBytes<R>(_ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    checkWritten(range)
    return body(UnsafeBufferPointer(start: start + range.lowerBound, count: range.count))
  }

  /// Lends the crypto primitives the bytes of `source` (already written) and `length` bytes
  /// after the last one written; `body` returns how many of those it wrote (checked).
  mutating func appendUnsafe<E: Error>(
    upTo length: Int, reading source: Range<Int> = 0..<0,
    _ body: (_ source: UnsafeBufferPointer<UInt8>, _ out: UnsafeMutableBufferPointer<UInt8>) throws(E) -> Int
  ) throws(E) {
    checkWritten(source)
    reserve(length)  // first: the bytes may move
    let written = try body(
      UnsafeBufferPointer(start: start + source.lowerBound, count: source.count), UnsafeMutableBufferPointer(start: start + count, count: length))
    precondition(written >= 0 && written <= length, "ByteWriter: wrote past the length it asked for")
    count &+= written
  }

  /// Lends the crypto primitives the bytes of `range` of `other` and `length` bytes after the
  /// last one written here; `body` returns how many of those it wrote (checked).
  mutating func appendUnsafe<E: Error>(
    upTo length: Int, reading other: borrowing ByteWriter, _ range: Range<Int>,
    _ body: (_ source: UnsafeBufferPointer<UInt8>, _ out: UnsafeMutableBufferPointer<UInt8>) throws(E) -> Int
  ) throws(E) {
    other.checkWritten(range)
    reserve(length)
    let written = try body(
      UnsafeBufferPointer(start: other.start + range.lowerBound, count: range.count), UnsafeMutableBufferPointer(start: start + count, count: length))
    precondition(written >= 0 && written <= length, "ByteWriter: wrote past the length it asked for")
    count &+= written
  }

  /// Lends the crypto primitives everything written, to wipe it.
  mutating func withUnsafeMutableWritten(_ body: (UnsafeMutableBufferPointer<UInt8>) -> Void) {
    body(UnsafeMutableBufferPointer(start: start, count: count))
  }
}
