/// Reads RESP replies from bytes as they arrive, in time linear in the bytes: each byte is
/// looked at once, whatever the reads' sizes, and a reply larger than the limits is refused
/// as soon as its size or shape says so, before the rest of it arrives.
///
/// A nonce store needs simple replies only (`+OK`, `$-1`, an integer), so the limits are small:
/// a server that answers with megabytes, or streams nested arrays slowly, is refused early and
/// the connection closed, and the verification fails closed.
///
/// ```swift
/// var reader = RESPReader(limits: .init(maximumReplyBytes: 65_536))
/// reader.append(bytesFromTheSocket)
/// if let reply = try reader.next() { … }   // nil: read more
/// ```
struct RESPReader {
  /// How large and how deep one reply may be.
  struct Limits: Sendable, Hashable {
    /// The most bytes one reply may take, all its parts counted.
    var maximumReplyBytes: Int
    /// The deepest nesting of arrays.
    var maximumDepth = 8
    /// The most elements of all the arrays of one reply, counted together.
    var maximumElements = 1024
  }

  let limits: Limits
  /// Bytes read and not yet consumed start at `position`.
  private var bytes: [UInt8] = []
  private var position = 0
  /// Where the search for the current line's CRLF resumes, so a long line is scanned once.
  private var scanned = 0
  /// The arrays under construction, outermost first: their elements so far and how many remain.
  private var open: [(items: [RESP.Reply], remaining: Int)] = []
  /// A bulk string whose header is read: how many bytes of content (then CRLF) it has.
  private var bulkLength: Int?
  /// Bytes and elements of the reply in progress.
  private var replyBytes = 0
  private var elements = 0

  init(limits: Limits) {
    self.limits = limits
  }

  /// How many bytes the replies read so far took.
  private(set) var consumed = 0
  /// Bytes looked at, copied or moved so far: what the fuzz target holds to a budget linear in
  /// the input (wall time is too noisy to judge one small input by).
  private(set) var work = 0

  /// Whether bytes were read that no reply has consumed: after a whole reply, the replies no
  /// longer match the commands.
  var hasUnconsumedBytes: Bool { position < bytes.count || !open.isEmpty || bulkLength != nil }

  /// Adds bytes read from the connection.
  mutating func append(_ newBytes: some Collection<UInt8>) {
    // Drop what was consumed before growing: the buffer holds at most one read beyond the reply.
    if position > 0 && position * 2 >= bytes.count {
      work += bytes.count - position
      bytes.removeFirst(position)
      scanned -= position
      position = 0
    }
    bytes.append(contentsOf: newBytes)
  }

  /// The next whole reply, or `nil` when more bytes are needed.
  /// - Throws: ``RedisNonceStoreError/protocolViolation(_:)`` for bytes that are not RESP or a
  ///   reply past ``limits``; the reader must not be used again.
  mutating func next() throws(RedisNonceStoreError) -> RESP.Reply? {
    while true {
      if let length = bulkLength {
        guard bytes.count - position >= length + 2 else { return nil }
        guard bytes[position + length] == 13, bytes[position + length + 1] == 10 else {
          throw .protocolViolation("a bulk string not ended by CRLF")
        }
        let value = Array(bytes[position..<(position + length)])
        work += length + 2
        position += length + 2
        scanned = position
        replyBytes += length + 2
        bulkLength = nil
        if let reply = complete(.bulk(value)) { return reply }
        continue
      }
      guard let line = try nextLine() else { return nil }
      let (type, text) = line
      switch type {
      case UInt8(ascii: "+"):
        if let reply = complete(.simple(text)) { return reply }
      case UInt8(ascii: "-"):
        if let reply = complete(.error(text)) { return reply }
      case UInt8(ascii: ":"):
        guard let value = Int64(text) else { throw .protocolViolation("integer reply \(RESP.excerpt(text))") }
        if let reply = complete(.integer(value)) { return reply }
      case UInt8(ascii: "$"):
        guard let length = Int(text), length >= -1 else { throw .protocolViolation("bulk length \(RESP.excerpt(text))") }
        if length == -1 {
          if let reply = complete(.bulk(nil)) { return reply }
        } else {
          // Refused from its header: the bytes it announces would pass the limit.
          guard length <= limits.maximumReplyBytes - replyBytes - 2 else {
            throw .protocolViolation("a bulk string of \(length) bytes, over the \(limits.maximumReplyBytes)-byte limit of a reply")
          }
          bulkLength = length
        }
      case UInt8(ascii: "*"):
        guard let count = Int(text), count >= -1 else { throw .protocolViolation("array length \(RESP.excerpt(text))") }
        if count == -1 {
          if let reply = complete(.array(nil)) { return reply }
        } else {
          guard open.count < limits.maximumDepth else { throw .protocolViolation("replies nested more than \(limits.maximumDepth) deep") }
          guard count <= limits.maximumElements - elements else {
            throw .protocolViolation("an array of \(count) elements, over the \(limits.maximumElements)-element limit of a reply")
          }
          elements += count
          if count == 0 {
            if let reply = complete(.array([])) { return reply }
          } else {
            open.append(([], count))
          }
        }
      default:
        throw .protocolViolation("a reply starting with byte \(type)")
      }
    }
  }

  /// The next CRLF-terminated line's type byte and text, consumed; `nil` when its end has not
  /// arrived. Each byte is scanned once: the search resumes where the last one stopped.
  private mutating func nextLine() throws(RedisNonceStoreError) -> (UInt8, String)? {
    let from = Swift.max(scanned, position + 1)
    var index = from
    while index + 1 < bytes.count {
      if bytes[index] == 13 && bytes[index + 1] == 10 { break }
      index += 1
    }
    work += index - from + 2
    guard index + 1 < bytes.count else {
      scanned = Swift.max(position + 1, index)
      guard replyBytes + (bytes.count - position) <= limits.maximumReplyBytes else {
        throw .protocolViolation("a reply over the \(limits.maximumReplyBytes)-byte limit")
      }
      return nil
    }
    let length = index + 2 - position
    guard replyBytes + length <= limits.maximumReplyBytes else {
      throw .protocolViolation("a reply over the \(limits.maximumReplyBytes)-byte limit")
    }
    replyBytes += length
    let type = bytes[position]
    let text = String(decoding: bytes[(position + 1)..<index], as: UTF8.self)
    position = index + 2
    scanned = position
    return (type, text)
  }

  /// Adds a finished value to the array it belongs to; the whole reply once the outermost is done.
  private mutating func complete(_ value: RESP.Reply) -> RESP.Reply? {
    var value = value
    // By index, never through a copy of the frame: a copy would share its items and make each
    // append copy them all (quadratic in the array's length).
    while !open.isEmpty {
      let top = open.count - 1
      open[top].items.append(value)
      open[top].remaining -= 1
      guard open[top].remaining == 0 else { return nil }
      value = .array(open.removeLast().items)
    }
    consumed += replyBytes
    replyBytes = 0
    elements = 0
    return value
  }
}
