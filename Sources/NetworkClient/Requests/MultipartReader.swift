import Foundation

/// Reads a received `multipart/form-data` body (RFC 7578): its parts, each with its name, file
/// name, content type and bytes, or why the body is refused. The one reader of the package:
/// ``MultipartFormData/parts(of:contentType:)`` (a signer's reading) and the sandbox's media
/// uploads (`POST /2/media/upload/{id}/append`) both read with it.
///
/// A body may come from anyone before anything has looked at it, so the cost is linear in the
/// body whatever its shape, and counted (``parts(of:contentType:limits:work:)``): each byte is
/// looked at a bounded number of times, delimiters being found with a Knuth-Morris-Pratt search
/// (`ByteSearch`). What no upload needs is refused early: a boundary over RFC 2046's
/// ``MultipartFormData/maxBoundaryLength`` characters, more than ``Limits/maxParts`` parts, a
/// part head over ``Limits/maxPartHeadBytes``. As RFC 2046 allows, a preamble before the first
/// delimiter, spaces after a delimiter and an epilogue after the last are read past.
///
/// ```swift
/// let parts = try MultipartReader.parts(of: body, contentType: "multipart/form-data; boundary=B")
/// parts.first { $0.name == "media" }?.content  // the segment's bytes
/// ```
package enum MultipartReader {
  /// What a body may hold.
  package struct Limits: Sendable {
    /// The parts at most. Default 16: a media upload's append has two (`segment_index`,
    /// `media`), a client may add a few (`media_id`, `command`).
    package var maxParts: Int
    /// A part's head (its header lines) at most, in bytes. Default 8 KiB.
    package var maxPartHeadBytes: Int

    /// Limits of `maxParts` parts and `maxPartHeadBytes` bytes of part head.
    package init(maxParts: Int = 16, maxPartHeadBytes: Int = 8_192) {
      self.maxParts = maxParts
      self.maxPartHeadBytes = maxPartHeadBytes
    }

    /// No limit but the boundary's length: what ``MultipartFormData/parts(of:contentType:)``
    /// reads with.
    package static let none = Limits(maxParts: .max, maxPartHeadBytes: .max)
  }

  /// One part of a body.
  package struct Part: Sendable, Equatable {
    /// The `name` of its `Content-Disposition`.
    package let name: String
    /// Its `filename`, for a file.
    package let filename: String?
    /// Its `Content-Type`, if it has one.
    package let contentType: String?
    /// Its bytes.
    package let content: Data
  }

  /// Why a body was refused: what was wrong, never its content.
  package struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong, in words.
    package let description: String
  }

  /// The most work (bytes looked at, see ``parts(of:contentType:limits:work:)``) one byte of
  /// body and content type may cost: what the fuzz target `multipart-reader` holds it to.
  package static let workPerByte = 8
  /// The work any input may cost on top of ``workPerByte`` per byte.
  package static let workAllowance = 256

  /// The parts of `body`, sent with `contentType` (`multipart/form-data; boundary=...`), or
  /// why it is not a body to read within `limits`.
  package static func parts(of body: Data, contentType: String?, limits: Limits = Limits()) throws(Failure) -> [Part] {
    var work = 0
    return try parts(of: body, contentType: contentType, limits: limits, work: &work)
  }

  /// ``parts(of:contentType:limits:)``, adding to `work` the bytes its loops and the library
  /// calls in them look at (each operation adds the length it is linear in).
  package static func parts(of body: Data, contentType: String?, limits: Limits, work: inout Int) throws(Failure) -> [Part] {
    work += contentType?.utf8.count ?? 0
    let boundary = try Self.boundary(of: contentType)
    work += body.count
    let bytes = [UInt8](body)
    let delimiter = ByteSearch(Array("\r\n--".utf8) + boundary)
    // The first delimiter: at the very start, or after a preamble (then it follows a CR LF).
    var position: Int
    if bytes.starts(with: Array("--".utf8) + boundary) {
      position = 2 + boundary.count
    } else if let found = delimiter.first(in: bytes, from: 0, work: &work) {
      position = found + delimiter.needle.count
    } else {
      throw Failure(description: "no delimiter --BOUNDARY in the body")
    }
    var parts: [Part] = []
    while true {
      // After a delimiter: `--` closes the body; otherwise optional spaces, then CR LF.
      if bytes[position...].starts(with: [45, 45]) { return parts }
      while position < bytes.count, bytes[position] == 32 || bytes[position] == 9 {
        position += 1
        work += 1
      }
      guard bytes[position...].starts(with: [13, 10]) else { throw Failure(description: "a delimiter not followed by CR LF") }
      position += 2
      guard parts.count < limits.maxParts else { throw Failure(description: "more than \(limits.maxParts) parts") }
      let head = try Self.head(in: bytes, from: position, limit: limits.maxPartHeadBytes, work: &work)
      guard let end = delimiter.first(in: bytes, from: head.contentStart, work: &work) else {
        throw Failure(description: "a part not ended by a delimiter (the body is cut short, or the boundary is not the one in the content type)")
      }
      work += end - head.contentStart
      parts.append(Part(name: head.name, filename: head.filename, contentType: head.contentType, content: Data(bytes[head.contentStart..<end])))
      position = end + delimiter.needle.count
    }
  }

  /// The boundary of a `multipart/form-data` content type, unquoted. Read as bytes, not
  /// Characters: a combining mark after a `;` or a quote must not hide it.
  private static func boundary(of contentType: String?) throws(Failure) -> [UInt8] {
    guard let contentType else { throw Failure(description: "no Content-Type") }
    let fields = Array(contentType.utf8).split(separator: 59, omittingEmptySubsequences: false).map { trimmed($0) }
    guard let type = fields.first, lowercased(type) == Array("multipart/form-data".utf8) else {
      throw Failure(description: "a Content-Type other than multipart/form-data")
    }
    let key = Array("boundary=".utf8)
    guard let field = fields.dropFirst().first(where: { lowercased($0.prefix(key.count)) == key }) else {
      throw Failure(description: "no boundary in the Content-Type")
    }
    var value = field.dropFirst(key.count)
    if value.count >= 2, value.first == 34, value.last == 34 { value = value.dropFirst().dropLast() }
    let boundary = Array(value)
    guard (1...MultipartFormData.maxBoundaryLength).contains(boundary.count), boundary.allSatisfy({ (32...126).contains($0) && $0 != 34 }),
      boundary.last != 32
    else {
      throw Failure(description: "a boundary that is not 1 to \(MultipartFormData.maxBoundaryLength) printable characters (RFC 2046)")
    }
    return boundary
  }

  /// `bytes` without the spaces and tabs around them.
  private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    var bytes = bytes
    while let first = bytes.first, first == 32 || first == 9 { bytes = bytes.dropFirst() }
    while let last = bytes.last, last == 32 || last == 9 { bytes = bytes.dropLast() }
    return bytes
  }

  /// ASCII letters in lower case, other bytes as they are.
  private static func lowercased(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
    bytes.map { (65...90).contains($0) ? $0 + 32 : $0 }
  }

  /// A part's head from `start`: its header lines up to the blank line.
  private static func head(in bytes: [UInt8], from start: Int, limit: Int, work: inout Int) throws(Failure) -> (
    name: String, filename: String?, contentType: String?, contentStart: Int
  ) {
    var name: String?
    var filename: String?
    var contentType: String?
    var lineStart = start
    var index = start
    while true {
      guard index - start <= limit else { throw Failure(description: "a part head over \(limit) bytes") }
      guard index + 1 < bytes.count else { throw Failure(description: "a part head not ended by a blank line") }
      work += 1
      guard bytes[index] == 13, bytes[index + 1] == 10 else {
        // A line ends at CR LF only.
        guard bytes[index] != 13, bytes[index] != 10 else { throw Failure(description: "a bare CR or LF in a part head") }
        index += 1
        continue
      }
      if index == lineStart {
        guard let name else { throw Failure(description: "a part without Content-Disposition: form-data; name=\"...\"") }
        return (name, filename, contentType, index + 2)
      }
      let line = bytes[lineStart..<index]
      // The colon found, the field and the value made strings, the value trimmed and parsed.
      work += 5 * line.count
      guard let colon = line.firstIndex(of: 58) else { throw Failure(description: "a part header line without a colon") }
      let value = trimmed(line[(colon + 1)...])
      switch lowercased(line[..<colon]) {
      case Array("content-disposition".utf8):
        let parameters = try Self.disposition(value)
        name = parameters.name
        filename = parameters.filename
      case Array("content-type".utf8):
        contentType = String(decoding: value, as: UTF8.self)
      default:
        break
      }
      index += 2
      lineStart = index
    }
  }

  /// `form-data; name="..."; filename="..."`: its name and file name, unescaped as
  /// `MultipartFormData` escapes them (`%22`, `%0D`, `%0A`). One pass over the value's bytes
  /// (not its Characters: a quote followed by a combining mark is still a quote).
  private static func disposition(_ value: ArraySlice<UInt8>) throws(Failure) -> (name: String, filename: String?) {
    let type = Array("form-data".utf8)
    guard lowercased(value.prefix(type.count)) == type else { throw Failure(description: "a Content-Disposition other than form-data") }
    var rest = value.dropFirst(type.count)
    var parameters: [[UInt8]: String] = [:]
    let isSpace: (UInt8) -> Bool = { $0 == 32 || $0 == 9 }
    while true {
      rest = rest.drop(while: isSpace)
      guard rest.first == 59 else { break }  // ;
      rest = rest.dropFirst().drop(while: isSpace)
      let key = rest.prefix { $0 != 61 && $0 != 59 }  // = ;
      rest = rest.dropFirst(key.count)
      guard rest.first == 61 else { continue }
      rest = rest.dropFirst()
      let text: ArraySlice<UInt8>
      if rest.first == 34 {  // "
        text = rest.dropFirst().prefix { $0 != 34 }
        rest = rest.dropFirst(text.count + 1)
        guard rest.first == 34 else { throw Failure(description: "an unterminated quoted Content-Disposition parameter") }
        rest = rest.dropFirst()
      } else {
        text = rest.prefix { $0 != 59 && !isSpace($0) }
        rest = rest.dropFirst(text.count)
      }
      let name = lowercased(trimmed(key))
      if parameters[name] == nil { parameters[name] = unescape(text) }
    }
    guard let name = parameters[Array("name".utf8)] else { throw Failure(description: "a Content-Disposition without a name") }
    return (name, parameters[Array("filename".utf8)])
  }

  /// `%22`, `%0D` and `%0A` back to `"`, CR and LF (and nothing else), in one pass.
  private static func unescape(_ text: ArraySlice<UInt8>) -> String {
    var result: [UInt8] = []
    result.reserveCapacity(text.count)
    var index = text.startIndex
    while index < text.endIndex {
      if text[index] == 37, index + 2 < text.endIndex {
        let code = lowercased(text[(index + 1)...(index + 2)])
        let byte: UInt8? = code == [50, 50] ? 34 : code == [48, 100] ? 13 : code == [48, 97] ? 10 : nil  // 22, 0d, 0a
        if let byte {
          result.append(byte)
          index += 3
          continue
        }
      }
      result.append(text[index])
      index += 1
    }
    return String(decoding: result, as: UTF8.self)
  }
}
