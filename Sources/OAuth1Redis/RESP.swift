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

  /// The reply at the start of `bytes` and where it ends, or `nil` when the bytes hold only
  /// part of it. Throws on bytes that are not RESP or a reply past `limits`.
  static func parse(_ bytes: [UInt8], from start: Int, limits: RESPReader.Limits = .init(maximumReplyBytes: 1 << 20))
    throws(RedisNonceStoreError) -> (Reply, end: Int)?
  {
    var reader = RESPReader(limits: limits)
    reader.append(bytes[start...])
    guard let reply = try reader.next() else { return nil }
    return (reply, start + reader.consumed)
  }

  /// `text` for an error message, quoted: at most 32 characters, control characters escaped.
  static func excerpt(_ text: String) -> String { "\"" + shown(text, limit: 32) + "\"" }

  /// What a server said, for an error message: at most `limit` characters (then `…`), control
  /// characters escaped, so that it can neither flood a log nor forge a line in it.
  static func shown(_ text: String, limit: Int = 200) -> String {
    var shown = ""
    for scalar in text.unicodeScalars.prefix(limit) {
      shown += scalar.properties.generalCategory == .control ? scalar.escaped(asASCII: true) : String(scalar)
    }
    return shown + (text.unicodeScalars.count > limit ? "…" : "")
  }
}

extension RESP.Reply {
  /// What the reply is, in a few words, for an error message: never its whole content, which a
  /// hostile server could make megabytes long.
  var summary: String {
    switch self {
    case .simple(let text): return "the simple string \(RESP.excerpt(text))"
    case .error(let text): return "the error \(RESP.excerpt(text))"
    case .integer(let value): return "the integer \(value)"
    case .bulk(nil): return "a nil bulk string"
    case .bulk(let bytes?): return "a bulk string of \(bytes.count) bytes"
    case .array(nil): return "a nil array"
    case .array(let items?): return "an array of \(items.count) elements"
    }
  }
}
