import Foundation

/// Reads one HTTP/1.1 request from bytes as they arrive, with no socket: the head (request
/// line and header fields), then the body by `Content-Length` or chunked. It is what
/// ``LoopbackHTTPServer`` runs on every connection, kept pure so that it can be fuzzed and
/// timed apart from any socket.
///
/// Why it is strict: it reads requests from any process on the machine, before anything is
/// authenticated. So every byte is looked at once (the cost is linear in the input, however
/// it is split into reads), lines end at CRLF bytes only (a U+2028 or a bare LF inside a
/// header value cannot start a forged second header), sizes are checked before anything is
/// stored (a `Content-Length` or a chunk size over ``Limits/maxBodyBytes`` is refused at
/// once, and a chunk size of any length cannot overflow), and what no real client sends is
/// refused with the status that says so: 400 (malformed), 413 (body too large), 431 (head too
/// large), 501 (a transfer coding other than chunked), 505 (not HTTP/1.x).
///
/// ```swift
/// var parser = HTTPRequestParser()
/// do {
///   try parser.consume(Array("POST /2/tweets HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n\r\n{}".utf8))
///   if parser.isComplete { print(parser.head!.method, parser.body) }  // POST 2 bytes
/// } catch {
///   print(error.status, error)  // 400, 413, 431, 501 or 505, and what was wrong
/// }
/// ```
package struct HTTPRequestParser: Sendable {
  /// The sizes a request must keep to. Both are checked before the bytes are kept, so that a
  /// client's claim (a `Content-Length` of 10^15) costs nothing.
  package struct Limits: Sendable, Equatable {
    /// The head's size at most, request line, header fields and the blank line included, and
    /// with the trailer fields of a chunked body; past it: 431.
    package var maxHeadBytes: Int
    /// The body's size at most, after de-chunking; past it (or claimed past it): 413.
    package var maxBodyBytes: Int

    /// 64 KiB: a browser's head is under 8 KiB; the tests' largest signed requests are far
    /// under it.
    package static let defaultMaxHeadBytes = 65_536
    /// 16 MiB: twice the largest media segment X takes in one upload request (8 MiB, which
    /// the sandbox enforces with X's own error), so that a segment a little too large still
    /// gets X's answer and not a 413.
    package static let defaultMaxBodyBytes = 16 * 1_048_576

    /// The defaults, or others (a test's tiny limits; a server that takes larger bodies).
    package init(maxHeadBytes: Int = defaultMaxHeadBytes, maxBodyBytes: Int = defaultMaxBodyBytes) {
      self.maxHeadBytes = max(0, maxHeadBytes)
      self.maxBodyBytes = max(0, maxBodyBytes)
    }
  }

  /// The longest line of chunked framing: a chunk size with its extensions (which are
  /// ignored). No client needs more than a few bytes; past it: 400.
  package static let maxFramingLineBytes = 4096

  /// Why a request was refused: the status to answer with, and what was wrong. The text never
  /// repeats a header's value (it may be a credential).
  package struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// 400, 413, 431, 501 or 505.
    package let status: Int
    /// What was wrong, and what to do about it.
    package let description: String

    static func malformed(_ what: String) -> Self { Self(status: 400, description: "a malformed request: \(what)") }
  }

  /// A request's head: its request line's parts and its header fields, in order.
  package struct Head: Sendable {
    /// `GET`, `POST`...
    package let method: String
    /// The request target as sent (`/path?query`).
    package let target: String
    /// `HTTP/1.1` or `HTTP/1.0`.
    package let version: String
    /// The header fields, in order, their values without the spaces around them.
    package let headers: [(name: String, value: String)]

    /// The last value of a header, by name in any case.
    package func header(_ name: String) -> String? { headers.last { $0.name.lowercased() == name.lowercased() }?.value }
  }

  /// What ``parse(_:limits:)`` made of a whole input.
  package enum Outcome: Sendable {
    /// A whole request: its head and its body.
    case complete(Head, Data)
    /// A valid beginning that needs more bytes.
    case incomplete
    /// Refused: the status and the reason.
    case refused(Refusal)
  }

  private enum Stage: Sendable, Equatable {
    case head
    case fixed(remaining: Int)
    case chunkSize
    case chunkExtension
    case chunkSizeEnd
    case chunkData(remaining: Int)
    case chunkDataCR
    case chunkDataLF
    case trailer
    case trailerEnd
    case complete
  }

  /// The limits it checks.
  package let limits: Limits
  /// The head, once it has been read whole.
  package private(set) var head: Head?
  /// The body read so far (whole once ``isComplete``).
  package private(set) var body = Data()
  /// How many bytes its loops and the library calls in them have looked at so far: each
  /// operation adds the length it is linear in. The fuzz target and the tests check it stays
  /// within a small multiple of the input (``workPerByte``), so that a change that scans again
  /// what was scanned shows at once.
  package private(set) var work = 0
  /// The most ``work`` one input byte may cost, with ``workAllowance`` for any input: what
  /// the fuzz target `http-request-head` holds the parser to.
  package static let workPerByte = 12
  /// The work any input may cost on top of ``workPerByte`` per byte.
  package static let workAllowance = 64
  /// Once refused, every later call throws the same refusal.
  private var refusal: Refusal?
  private var stage = Stage.head
  /// The head's bytes so far, at most `limits.maxHeadBytes`.
  private var headBytes: [UInt8] = []
  /// How many bytes of the blank line's CR LF CR LF end `headBytes`.
  private var matched = 0
  /// The chunk size being read, its digits, and the framing line's length.
  private var chunkSize = 0
  private var chunkDigits = 0
  private var lineLength = 0
  /// The trailer section's bytes so far, counted with the head's.
  private var trailerBytes = 0

  /// A parser for one request.
  package init(limits: Limits = Limits()) {
    self.limits = limits
  }

  /// Whether the request has been read whole.
  package var isComplete: Bool { stage == .complete }

  /// Reads `bytes`, the next ones the client sent. Returns whether the request is complete;
  /// bytes past its end are ignored (one request per connection). Throws the refusal, now
  /// and on every later call.
  @discardableResult
  package mutating func consume(_ bytes: [UInt8]) throws(Refusal) -> Bool {
    if let refusal { throw refusal }
    do {
      try read(bytes[...])
    } catch {
      refusal = error
      throw error
    }
    return isComplete
  }

  /// `bytes` read whole by a fresh parser: for tests and fuzzing.
  package static func parse(_ bytes: [UInt8], limits: Limits = Limits()) -> Outcome {
    var parser = HTTPRequestParser(limits: limits)
    do {
      try parser.consume(bytes)
    } catch {
      return .refused(error)
    }
    guard let head = parser.head, parser.isComplete else { return .incomplete }
    return .complete(head, parser.body)
  }

  private mutating func read(_ input: ArraySlice<UInt8>) throws(Refusal) {
    var index = input.startIndex
    while index < input.endIndex {
      switch stage {
      case .head:
        index = try readHead(input, from: index)
      case .fixed(let remaining):
        let end = index + min(remaining, input.endIndex - index)
        work += end - index
        body.append(contentsOf: input[index..<end])
        stage = remaining - (end - index) == 0 ? .complete : .fixed(remaining: remaining - (end - index))
        index = end
      case .chunkData(let remaining):
        let end = index + min(remaining, input.endIndex - index)
        work += end - index
        body.append(contentsOf: input[index..<end])
        stage = remaining - (end - index) == 0 ? .chunkDataCR : .chunkData(remaining: remaining - (end - index))
        index = end
      case .complete:
        return
      default:
        work += 1
        try readFraming(input[index])
        index += 1
      }
    }
  }

  /// Reads head bytes from `start`, looking at each once; returns where the head's part of
  /// `input` ends.
  private mutating func readHead(_ input: ArraySlice<UInt8>, from start: Int) throws(Refusal) -> Int {
    var index = start
    while index < input.endIndex && matched < 4 {
      // Refused at the first byte past the limit, before it is kept.
      guard headBytes.count + (index - start) < limits.maxHeadBytes else {
        throw Refusal(
          status: 431,
          description: "the request's head is over \(limits.maxHeadBytes) bytes (the server's head limit); send fewer or shorter header fields")
      }
      let byte = input[index]
      // The blank line: CR LF CR LF. A line ends at CR LF only: a LF with no CR before it, or
      // a CR with no LF after it, is refused at once (no line can be read two ways).
      if matched % 2 == 1 {
        guard byte == 10 else { throw .malformed("a CR without a LF after it in the head") }
        matched += 1
      } else if byte == 13 {
        matched += 1
      } else {
        guard byte != 10 else { throw .malformed("a LF without a CR before it in the head") }
        matched = 0
      }
      index += 1
    }
    work += index - start
    headBytes.append(contentsOf: input[start..<index])
    guard matched == 4 else { return index }
    let head = try Self.parseHead(headBytes[..<(headBytes.count - 2)], work: &work)
    self.head = head
    stage = try bodyStage(of: head)
    return index
  }

  /// How the body is framed, checked against the limits before any of it is read.
  private mutating func bodyStage(of head: Head) throws(Refusal) -> Stage {
    var lengths: [String] = []
    var codings: [String] = []
    var hosts = 0
    for (name, value) in head.headers {
      // Names are ASCII (checked); a value made a string may be up to three times its bytes
      // (U+FFFD for each byte that is not UTF-8), and only these two are looked at.
      work += name.utf8.count
      switch name.lowercased() {
      case "content-length":
        work += value.utf8.count
        lengths.append(value)
      case "transfer-encoding":
        work += value.utf8.count
        codings.append(value)
      case "host": hosts += 1
      default: break
      }
    }
    guard hosts <= 1 else { throw .malformed("more than one Host header field") }
    if !codings.isEmpty {
      guard lengths.isEmpty else { throw .malformed("both Content-Length and Transfer-Encoding; send one") }
      guard codings.count == 1, codings[0].lowercased() == "chunked" else {
        throw Refusal(status: 501, description: "a transfer coding other than chunked; send the body as it is, or chunked")
      }
      return .chunkSize
    }
    guard let length = lengths.first else { return .complete }
    guard lengths.allSatisfy({ $0 == length }), !length.isEmpty, length.utf8.allSatisfy({ (48...57).contains($0) }) else {
      throw .malformed("a Content-Length that is not one decimal number")
    }
    // At most 18 digits fit in an Int; more are surely over any limit.
    guard length.utf8.count <= 18, let count = Int(length), count <= limits.maxBodyBytes else {
      throw tooLarge()
    }
    return count == 0 ? .complete : .fixed(remaining: count)
  }

  private func tooLarge() -> Refusal {
    Refusal(status: 413, description: "the request's body is over \(limits.maxBodyBytes) bytes (the server's body limit); send a smaller one")
  }

  /// One byte of chunked framing: a size line, the CR LF after a chunk's data, a trailer.
  private mutating func readFraming(_ byte: UInt8) throws(Refusal) {
    switch stage {
    case .chunkSize:
      lineLength += 1
      if let digit = Self.hexValue(byte) {
        // Overflow-safe: the size never exceeds what the body may still take.
        let room = limits.maxBodyBytes - body.count
        guard chunkSize <= (room - digit) / 16 else { throw tooLarge() }
        chunkSize = chunkSize * 16 + digit
        chunkDigits += 1
      } else if chunkDigits > 0 && (byte == 59 || byte == 32 || byte == 9) {  // ; SP HTAB
        stage = .chunkExtension
      } else if chunkDigits > 0 && byte == 13 {
        stage = .chunkSizeEnd
      } else {
        throw .malformed("a chunk size that is not a hexadecimal number")
      }
    case .chunkExtension:
      lineLength += 1
      if byte == 13 {
        stage = .chunkSizeEnd
      } else if byte == 10 || byte == 0 {
        throw .malformed("a chunk extension with a bare LF or a NUL")
      }
    case .chunkSizeEnd:
      guard byte == 10 else { throw .malformed("a chunk size line not ended by CR LF") }
      stage = chunkSize == 0 ? .trailer : .chunkData(remaining: chunkSize)
      chunkSize = 0
      chunkDigits = 0
      lineLength = 0
      return
    case .chunkDataCR:
      guard byte == 13 else { throw .malformed("a chunk longer than its size") }
      stage = .chunkDataLF
    case .chunkDataLF:
      guard byte == 10 else { throw .malformed("a chunk not ended by CR LF") }
      stage = .chunkSize
    case .trailer:
      trailerBytes += 1
      guard headBytes.count + trailerBytes <= limits.maxHeadBytes else {
        throw Refusal(
          status: 431, description: "the request's head and trailer fields are over \(limits.maxHeadBytes) bytes (the server's head limit)")
      }
      if byte == 13 {
        stage = .trailerEnd
      } else if byte == 10 || byte == 0 {
        throw .malformed("a trailer field with a bare LF or a NUL")
      } else {
        lineLength += 1
      }
    case .trailerEnd:
      guard byte == 10 else { throw .malformed("a trailer field not ended by CR LF") }
      stage = lineLength == 0 ? .complete : .trailer
      lineLength = 0
      return
    default:
      return
    }
    guard lineLength <= Self.maxFramingLineBytes else {
      throw .malformed("a chunked framing line over \(Self.maxFramingLineBytes) bytes")
    }
  }

  private static func hexValue(_ byte: UInt8) -> Int? {
    switch byte {
    case 48...57: Int(byte - 48)
    case 65...70: Int(byte - 55)
    case 97...102: Int(byte - 87)
    default: nil
    }
  }

  /// A head's bytes up to its last line's CR LF (the blank line's second CR LF left out): the
  /// request line and the header fields, split at CR LF only.
  package static func parseHead(_ bytes: ArraySlice<UInt8>) throws(Refusal) -> Head {
    var work = 0
    return try parseHead(bytes, work: &work)
  }

  /// ``parseHead(_:)``, adding to `work` the bytes it looks at.
  static func parseHead(_ bytes: ArraySlice<UInt8>, work: inout Int) throws(Refusal) -> Head {
    work += bytes.count
    var lines: [ArraySlice<UInt8>] = []
    var lineStart = bytes.startIndex
    var index = bytes.startIndex
    while index < bytes.endIndex {
      if bytes[index] == 13 && index + 1 < bytes.endIndex && bytes[index + 1] == 10 {
        lines.append(bytes[lineStart..<index])
        index += 2
        lineStart = index
      } else {
        index += 1
      }
    }
    if lineStart < bytes.endIndex { lines.append(bytes[lineStart...]) }
    guard let requestLine = lines.first else { throw .malformed("no request line") }
    // Split, checked, made strings: three passes.
    work += 3 * requestLine.count
    let parts = requestLine.split(separator: 32, maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(isTokenByte) else {
      throw .malformed("a request line that is not METHOD TARGET HTTP/1.1")
    }
    guard !parts[1].isEmpty, parts[1].allSatisfy({ $0 > 32 && $0 != 127 }) else {
      throw .malformed("a request target that is empty or holds a space or a control character")
    }
    let version = String(decoding: parts[2], as: UTF8.self)
    guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
      if version.utf8.count == 8 && version.hasPrefix("HTTP/") {
        throw Refusal(status: 505, description: "an HTTP version other than 1.0 and 1.1; this server speaks HTTP/1.1")
      }
      throw .malformed("a request line that is not METHOD TARGET HTTP/1.1")
    }
    var headers: [(name: String, value: String)] = []
    headers.reserveCapacity(lines.count - 1)
    for line in lines.dropFirst() {
      // The colon found, the name and the value checked, trimmed and made strings.
      work += 4 * line.count
      guard let colon = line.firstIndex(of: 58), colon > line.startIndex else { throw .malformed("a header line without a name and a colon") }
      let name = line[..<colon]
      guard name.allSatisfy(isTokenByte) else {
        throw .malformed("a header name with a character no token holds (a space before the colon, a folded line)")
      }
      var value = line[(colon + 1)...]
      guard !value.contains(where: { $0 == 13 || $0 == 10 || $0 == 0 }) else {
        throw .malformed("a header value holding a CR, a LF or a NUL")
      }
      while let first = value.first, first == 32 || first == 9 { value = value.dropFirst() }
      while let last = value.last, last == 32 || last == 9 { value = value.dropLast() }
      headers.append((String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)))
    }
    return Head(
      method: String(decoding: parts[0], as: UTF8.self), target: String(decoding: parts[1], as: UTF8.self), version: version,
      headers: headers)
  }

  /// RFC 9110's `tchar`: what a method or a field name is made of.
  private static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case 48...57, 65...90, 97...122: true
    case 33, 35, 36, 37, 38, 39, 42, 43, 45, 46, 94, 95, 96, 124, 126: true
    default: false
    }
  }
}
