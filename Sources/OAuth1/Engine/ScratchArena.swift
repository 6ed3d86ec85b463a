/// The scratch memory of one operation of the engine (a signature, a verification, a public
/// stage): a block of bytes behind a ``ByteWriter`` and a list of fixed-size values (the
/// encoded pairs), on the stack (``blockBytes`` each: the standard library moves a temporary
/// allocation of more than 1,024 bytes to the heap on Linux), so an ordinary signature
/// allocates nothing here. Nothing is sized in advance: a writer or list that outgrows its
/// block moves to a block of its own on the heap, twice as large.
///
/// This is one of the three places that touch memory through pointers (with ``ByteWriter`` and
/// the `CryptoPrimitives` module). Its invariants, each checked:
/// - the block lives exactly as long as the closure it is lent to; what the closure gets is
///   `~Copyable` and lent `inout`, so it cannot be copied out or captured by an escaping
///   closure, and when the closure returns (or throws) the arena checks that the writer or
///   list it holds is still the one it lent the block to (swapping two lent values would
///   otherwise let one outlive its block);
/// - a ``ScratchArena/List`` writes within its `capacity`, in the lent block or in one it
///   allocated and frees; elements `0..<count` are initialized, and every read and write is
///   checked against `count` and `capacity`.
enum ScratchArena {
  /// The bytes of one lent block: the most the standard library keeps on the stack.
  static let blockBytes = 1024

  /// Lends `body` an empty writer.
  static func withBytes<R, E: Error>(_ body: (inout ByteWriter) throws(E) -> R) throws(E) -> R {
    try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: blockBytes) { buffer throws(E) -> R in
      let memory = buffer.baseAddress!
      var writer = ByteWriter(unsafeLent: memory, capacity: blockBytes)
      defer { precondition(writer.wasLent(memory), "ScratchArena: a writer was swapped out of its closure") }
      return try body(&writer)
    }
  }

  /// A String of what `write` appends to an empty writer.
  static func string(_ write: (inout ByteWriter) -> Void) -> String {
    withBytes { out in
      write(&out)
      return out.string
    }
  }

  /// Lends `body` an empty list.
  static func withList<Element: BitwiseCopyable, R, E: Error>(
    of _: Element.Type, _ body: (inout ScratchArena.List<Element>) throws(E) -> R
  ) throws(E) -> R {
    let elements = blockBytes / max(MemoryLayout<Element>.stride, 1)
    return try withUnsafeTemporaryAllocation(of: Element.self, capacity: elements) { buffer throws(E) -> R in
      let memory = buffer.baseAddress!
      var list = ScratchArena.List(unsafeLent: memory, capacity: elements)
      defer { precondition(list.wasLent(memory), "ScratchArena: a list was swapped out of its closure") }
      return try body(&list)
    }
  }

  /// Lends `body` an empty writer and an empty list.
  static func with<Element: BitwiseCopyable, R, E: Error>(
    _: Element.Type, _ body: (inout ByteWriter, inout ScratchArena.List<Element>) throws(E) -> R
  ) throws(E) -> R {
    try withBytes { writer throws(E) -> R in
      try withList(of: Element.self) { list throws(E) -> R in try body(&writer, &list) }
    }
  }
}

extension ScratchArena {
  /// A list of plain values in memory lent by ``ScratchArena``: the encoded pairs of one
  /// signature. Every access is checked (see ``ScratchArena`` for the invariants).
  struct List<Element: BitwiseCopyable>: ~Copyable {
    private var start: UnsafeMutablePointer<Element>
    /// How many elements fit before the list moves.
    private var capacity: Int
    /// How many elements it holds.
    private(set) var count = 0
    /// The block the lender lent: the list's identity for the lender's check.
    private let lent: UnsafeMutablePointer<Element>

    fileprivate init(unsafeLent start: UnsafeMutablePointer<Element>, capacity: Int) {
      precondition(capacity > 0, "ScratchArena.List: an empty block")
      self.start = start
      self.capacity = capacity
      lent = start
    }

    deinit {
      if start != lent { start.deallocate() }
    }

    fileprivate func wasLent(_ memory: UnsafeMutablePointer<Element>) -> Bool { lent == memory }

    /// The element at `index`, which was appended.
    @inline(__always)
    subscript(index: Int) -> Element {
      get {
        precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "ScratchArena.List: index out of range")
        return start[index]
      }
      set {
        precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "ScratchArena.List: index out of range")
        start[index] = newValue
      }
    }

    /// Appends `element`.
    @inline(__always)
    mutating func append(_ element: Element) {
      if _slowPath(count == capacity) { move() }
      (start + count).initialize(to: element)
      count &+= 1
    }

    /// Moves the elements to a block of its own, twice as large.
    @inline(never)
    private mutating func move() {
      let memory = UnsafeMutablePointer<Element>.allocate(capacity: 2 * capacity)
      memory.initialize(from: start, count: count)
      if start != lent { start.deallocate() }
      start = memory
      capacity *= 2
    }

    /// Sorts the elements of `range` in place.
    mutating func sort(_ range: Range<Int>, by areInIncreasingOrder: (Element, Element) -> Bool) {
      precondition(range.lowerBound >= 0 && range.upperBound <= count, "ScratchArena.List: range out of bounds")
      var elements = UnsafeMutableBufferPointer(start: start + range.lowerBound, count: range.count)
      elements.sort(by: areInIncreasingOrder)
    }
  }
}
