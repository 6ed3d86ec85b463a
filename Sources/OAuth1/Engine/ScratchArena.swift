/// The scratch memory of one operation of the engine (a signature, a verification, a public
/// stage): bytes behind a ``ByteWriter`` and a list of fixed-size values (the encoded pairs),
/// on the stack when they are small (the standard library moves one of more than 1,024 bytes
/// to the heap on Linux), so a signature allocates nothing here.
///
/// This is one of the three places that touch memory through pointers (with ``ByteWriter`` and
/// the `CryptoPrimitives` module). Its invariants, each checked:
/// - the memory lives exactly as long as the closure it is lent to; what the closure gets is
///   `~Copyable` and lent `inout`, so it cannot be copied out or captured by an escaping
///   closure, and when the closure returns (or throws) the arena checks that the writer or
///   list it holds is still the one it made (swapping two lent values would otherwise let one
///   outlive its memory);
/// - a ``ScratchArena.FixedList`` holds at most `capacity` elements; elements `0..<count` are initialized,
///   and every read and write is checked against `count` and `capacity`.
enum ScratchArena {
  /// Lends `body` an empty writer of `capacity` bytes.
  static func withBytes<R, E: Error>(capacity: Int, _ body: (inout ByteWriter) throws(E) -> R) throws(E) -> R {
    try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(capacity, 1)) { buffer throws(E) -> R in
      let memory = buffer.baseAddress!
      var writer = ByteWriter(unsafeStart: memory, capacity: capacity)
      defer { precondition(writer.writes(to: memory), "ScratchArena: a writer was swapped out of its closure") }
      return try body(&writer)
    }
  }

  /// Lends `body` an empty list of at most `capacity` elements.
  static func withList<Element: BitwiseCopyable, R, E: Error>(
    of _: Element.Type, capacity: Int, _ body: (inout ScratchArena.FixedList<Element>) throws(E) -> R
  ) throws(E) -> R {
    try withUnsafeTemporaryAllocation(of: Element.self, capacity: max(capacity, 1)) { buffer throws(E) -> R in
      let memory = buffer.baseAddress!
      var list = ScratchArena.FixedList(unsafeStart: memory, capacity: capacity)
      defer { precondition(list.isStored(at: memory), "ScratchArena: a list was swapped out of its closure") }
      return try body(&list)
    }
  }

  /// Lends `body` an empty writer of `bytes` bytes and an empty list of at most `capacity`
  /// elements.
  static func with<Element: BitwiseCopyable, R, E: Error>(
    bytes: Int, list capacity: Int, of _: Element.Type, _ body: (inout ByteWriter, inout ScratchArena.FixedList<Element>) throws(E) -> R
  ) throws(E) -> R {
    try withBytes(capacity: bytes) { writer throws(E) -> R in
      try withList(of: Element.self, capacity: capacity) { list throws(E) -> R in try body(&writer, &list) }
    }
  }
}

extension ScratchArena {
  /// A list of at most `capacity` plain values in memory lent by ``ScratchArena``: the encoded
  /// pairs of one signature. Every access is checked (see ``ScratchArena`` for the invariants).
  struct FixedList<Element: BitwiseCopyable>: ~Copyable {
    private let start: UnsafeMutablePointer<Element>
    /// How many elements the list may hold.
    let capacity: Int
    /// How many elements it holds.
    private(set) var count = 0

    fileprivate init(unsafeStart start: UnsafeMutablePointer<Element>, capacity: Int) {
      precondition(capacity >= 0, "ScratchArena.FixedList: negative capacity")
      self.start = start
      self.capacity = capacity
    }

    fileprivate func isStored(at memory: UnsafeMutablePointer<Element>) -> Bool { start == memory }

    /// The element at `index`, which was appended.
    @inline(__always)
    subscript(index: Int) -> Element {
      get {
        precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "ScratchArena.FixedList: index out of range")
        return start[index]
      }
      set {
        precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "ScratchArena.FixedList: index out of range")
        start[index] = newValue
      }
    }

    /// Appends `element`.
    @inline(__always)
    mutating func append(_ element: Element) {
      precondition(count < capacity, "ScratchArena.FixedList: sized too small")
      (start + count).initialize(to: element)
      count &+= 1
    }

    /// Sorts the elements of `range` in place.
    mutating func sort(_ range: Range<Int>, by areInIncreasingOrder: (Element, Element) -> Bool) {
      precondition(range.lowerBound >= 0 && range.upperBound <= count, "ScratchArena.FixedList: range out of bounds")
      var elements = UnsafeMutableBufferPointer(start: start + range.lowerBound, count: range.count)
      elements.sort(by: areInIncreasingOrder)
    }
  }
}
