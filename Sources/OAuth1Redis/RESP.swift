/// The Redis serialization protocol (RESP2), the part a nonce store needs: commands as arrays
/// of bulk strings, and the five reply types.
enum RESP {
  /// One reply.
  enum Reply: Sendable, Hashable {
    /// `+OK`
    case simple(String)
    /// `-ERR ...`, `-NOAUTH ...`: the server refused the command.
    case error(String)
    /// `:1`
    case integer(Int64)
    /// `$3\r\nabc`, or `$-1` (`nil`): a missing key, a `SET NX` that did not set.
    case bulk([UInt8]?)
    /// `*2\r\n...`, or `*-1` (`nil`).
    case array([Reply]?)
  }

  /// Replies nest no deeper than this; deeper is refused as a protocol violation.
  static let maximumDepth = 8
  /// A bulk string or array longer than this is refused (a nonce store reads short replies).
  static let maximumLength = 1 << 20

  /// `command` encoded as RESP: `*N`, then `$len` and the bytes of each part.
  static func encode(_ command: [String]) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(16 + command.reduce(0) { $0 + $1.utf8.count + 16 })
    bytes.append(UInt8(ascii: "*"))
    bytes.append(contentsOf: String(command.count).utf8)
    bytes.append(contentsOf: [13, 10])
    for part in command {
      bytes.append(UInt8(ascii: "$"))
      bytes.append(contentsOf: String(part.utf8.count).utf8)
      bytes.append(contentsOf: [13, 10])
      bytes.append(contentsOf: part.utf8)
      bytes.append(contentsOf: [13, 10])
    }
    return bytes
  }

  /// The reply at `start` of `bytes` and where it ends, or `nil` when the bytes hold only part
  /// of it (read more). Throws on bytes that are not RESP.
  static func parse(_ bytes: [UInt8], from start: Int, depth: Int = 0) throws(RedisNonceStoreError) -> (Reply, end: Int)? {
    guard depth <= maximumDepth else { throw .protocolViolation("replies nested more than \(maximumDepth) deep") }
    guard start < bytes.count else { return nil }
    guard let lineEnd = lineEnd(bytes, from: start + 1) else {
      if bytes.count - start > 64 * 1024 { throw .protocolViolation("a reply line longer than 64 KiB") }
      return nil
    }
    let line = String(decoding: bytes[(start + 1)..<lineEnd], as: UTF8.self)
    let next = lineEnd + 2
    switch bytes[start] {
    case UInt8(ascii: "+"):
      return (.simple(line), next)
    case UInt8(ascii: "-"):
      return (.error(line), next)
    case UInt8(ascii: ":"):
      guard let value = Int64(line) else { throw .protocolViolation("integer reply \"\(line.prefix(32))\"") }
      return (.integer(value), next)
    case UInt8(ascii: "$"):
      guard let length = Int(line), length >= -1, length <= maximumLength else { throw .protocolViolation("bulk length \"\(line.prefix(32))\"") }
      if length == -1 { return (.bulk(nil), next) }
      guard bytes.count >= next + length + 2 else { return nil }
      guard bytes[next + length] == 13, bytes[next + length + 1] == 10 else { throw .protocolViolation("a bulk string not ended by CRLF") }
      return (.bulk(Array(bytes[next..<(next + length)])), next + length + 2)
    case UInt8(ascii: "*"):
      guard let count = Int(line), count >= -1, count <= maximumLength else { throw .protocolViolation("array length \"\(line.prefix(32))\"") }
      if count == -1 { return (.array(nil), next) }
      var items: [Reply] = []
      var position = next
      for _ in 0..<count {
        guard let (item, end) = try parse(bytes, from: position, depth: depth + 1) else { return nil }
        items.append(item)
        position = end
      }
      return (.array(items), position)
    default:
      throw .protocolViolation("a reply starting with byte \(bytes[start])")
    }
  }

  /// Where the CRLF that ends the line starting at `start` is, or `nil` if it has not arrived.
  private static func lineEnd(_ bytes: [UInt8], from start: Int) -> Int? {
    var index = start
    while index + 1 < bytes.count {
      if bytes[index] == 13 && bytes[index + 1] == 10 { return index }
      index += 1
    }
    return nil
  }
}
