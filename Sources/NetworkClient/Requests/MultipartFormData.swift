import Foundation

/// A `multipart/form-data` body (RFC 7578): text fields, bytes and files, each a part with its
/// `Content-Disposition`, separated by a random boundary and exact CRLFs. File parts are read
/// from disk in chunks when the body is written, so a large upload never sits in memory; the
/// client writes such a body to a temporary file that the transport streams.
///
/// The boundary is 40 random characters and is checked against every part's content (files
/// too, as they are read): a body that contains it is refused rather than sent broken. A part's
/// name, file name and content type go into header lines, so one with a control character (CR,
/// LF, NUL) is refused (``Failure/Reason/controlCharacter(part:field:)``) rather than let it end
/// the line and start a header of its own; a given boundary must be 1 to
/// ``maxBoundaryLength`` characters that need no quotes.
///
/// ```swift
/// let form = MultipartFormData([
///   .text(name: "segment_index", value: "0"),
///   .file(name: "media", url: videoURL, filename: "clip.mp4", contentType: "video/mp4"),
/// ])
/// let request = Request<Data>(method: .post, path: "2/media/upload/\(id)/append", body: .multipart(form))
/// ```
public struct MultipartFormData: Sendable {
  /// One part.
  public enum Part: Sendable {
    /// A text field, UTF-8.
    case text(name: String, value: String)
    /// Bytes in memory, with a file name and type (a small image).
    case data(name: String, data: Data, filename: String?, contentType: String)
    /// A file, read from disk while the body is written.
    case file(name: String, url: URL, filename: String?, contentType: String)
  }

  /// Why a body could not be written: ``reason`` for code, ``description`` for people.
  ///
  /// ```swift
  /// do { _ = try form.encoded() } catch { if case .controlCharacter(let part, _) = error.reason { print("fix", part) } }
  /// ```
  public struct Failure: Error, Sendable, CustomStringConvertible {
    /// What went wrong, as a value.
    public enum Reason: Sendable, Hashable {
      /// A part's `name`, `filename` or `content type` (the field) holds a control character
      /// (CR, LF, NUL or another below U+0020 but the tab, or DEL): in a header line it would
      /// end the line and start another header. `part` is the part's name, escaped.
      case controlCharacter(part: String, field: String)
      /// The boundary given is empty, longer than ``MultipartFormData/maxBoundaryLength``, or
      /// holds a character other than letters, digits and `'+_-.`.
      case invalidBoundary
      /// A part's content contains the boundary; send it again with another boundary.
      case boundaryInContent(part: String)
      /// A file part's file cannot be read.
      case unreadableFile(part: String, path: String)
      /// The body cannot be written to its file.
      case unwritable(path: String)
    }

    /// What went wrong, as a value.
    public let reason: Reason
    /// What went wrong, with the part or the file, and what to do.
    public let description: String

    init(_ reason: Reason, _ description: String) {
      self.reason = reason
      self.description = description
    }
  }

  /// The longest boundary, in characters: 70, RFC 2046's limit. A received body whose
  /// `Content-Type` names a longer one is not read (``parts(of:contentType:)`` returns `nil`),
  /// which also bounds the cost of looking for it.
  public static let maxBoundaryLength = 70

  /// The parts, in order.
  public var parts: [Part]
  /// What separates the parts (without the leading `--`).
  public let boundary: String

  /// A body of `parts` with a random boundary (or `boundary`, for a reproducible body).
  public init(_ parts: [Part], boundary: String? = nil) {
    self.parts = parts
    var generator = SystemRandomNumberGenerator()
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
    self.boundary = boundary ?? "NetworkClient-" + String((0..<40).map { _ in alphabet.randomElement(using: &generator)! })
  }

  /// `multipart/form-data; boundary=...`, the request's `Content-Type`.
  public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

  /// Whether a part is a file on disk (then the client streams the body from a temporary file).
  public var hasFiles: Bool {
    parts.contains { if case .file = $0 { return true } else { return false } }
  }

  /// The whole body in memory: for bodies without large files.
  public func encoded() throws(Failure) -> Data {
    var body = Data()
    try write { body.append($0) }
    return body
  }

  /// Writes the body to `url`, reading file parts a chunk at a time; returns its size. The file
  /// is created anew with mode 0600 (whatever was at `url` is removed first, and a link there is
  /// replaced, never written through), and removed again when the body cannot be written whole.
  @discardableResult
  public func write(to url: URL, chunkSize: Int = 1 << 20) throws(Failure) -> Int64 {
    try validate()
    if unlink(url.path) != 0 && errno != ENOENT {
      throw Failure(.unwritable(path: url.path), "cannot replace \(url.path) for the multipart body: \(String(cString: strerror(errno)))")
    }
    let output: FileHandle
    do {
      output = try PrivateFile.create(url)
    } catch {
      throw Failure(.unwritable(path: url.path), "\(error.description) for the multipart body")
    }
    return try write(to: output, at: url, chunkSize: chunkSize)
  }

  /// Writes the body to `output`, a new file at `url`, and closes it; removes the file when the
  /// body cannot be written whole.
  func write(to output: FileHandle, at url: URL, chunkSize: Int = 1 << 20) throws(Failure) -> Int64 {
    var size: Int64 = 0
    var failure: Failure?
    do throws(Failure) {
      try write(chunkSize: chunkSize) { bytes in
        guard failure == nil else { return }
        do {
          try output.write(contentsOf: bytes)
          size += Int64(bytes.count)
        } catch {
          failure = Failure(.unwritable(path: url.path), "cannot write the multipart body to \(url.path): \(error.localizedDescription)")
        }
      }
      if let failure { throw failure }
      try? output.close()
      return size
    } catch {
      try? output.close()
      unlink(url.path)
      throw error
    }
  }

  /// Checks what goes into header lines: the boundary, and each part's name, file name and
  /// content type.
  private func validate() throws(Failure) {
    let allowed = Set("'+_-.".unicodeScalars)
    guard !boundary.isEmpty, boundary.unicodeScalars.count <= Self.maxBoundaryLength,
      boundary.unicodeScalars.allSatisfy({ ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || allowed.contains($0) })
    else {
      throw Failure(
        .invalidBoundary,
        "the boundary \(String(reflecting: String(boundary.prefix(80)))) is not 1 to \(Self.maxBoundaryLength) letters, digits and '+_-.; leave it out for a random one"
      )
    }
    for part in parts {
      let fields: [(String, String?)]
      let name: String
      switch part {
      case .text(let partName, _):
        name = partName
        fields = [("name", partName)]
      case .data(let partName, _, let filename, let contentType), .file(let partName, _, let filename, let contentType):
        name = partName
        fields = [("name", partName), ("filename", filename), ("content type", contentType)]
      }
      for case (let field, let value?) in fields where value.unicodeScalars.contains(where: Self.isControl) {
        throw Failure(
          .controlCharacter(part: String(reflecting: name), field: field),
          "the \(field) of the part \(String(reflecting: name)) holds a control character (CR, LF, NUL…), which would end its header line and start another; remove it"
        )
      }
    }
  }

  /// A character a header value must not hold: below U+0020 except the tab, and DEL.
  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    (scalar.value < 0x20 && scalar != "\t") || scalar.value == 0x7F
  }

  /// The body, piece by piece, to `emit`.
  private func write(chunkSize: Int = 1 << 20, _ emit: (Data) -> Void) throws(Failure) {
    try validate()
    let delimiter = Data("--\(boundary)".utf8)
    for part in parts {
      emit(delimiter + Data("\r\n".utf8))
      switch part {
      case .text(let name, let value):
        emit(Data("Content-Disposition: form-data; name=\"\(Self.quoted(name))\"\r\n\r\n".utf8))
        let content = Data(value.utf8)
        try check(content, part: name)
        emit(content)
      case .data(let name, let data, let filename, let contentType):
        emit(Self.head(name: name, filename: filename, contentType: contentType))
        try check(data, part: name)
        emit(data)
      case .file(let name, let url, let filename, let contentType):
        emit(Self.head(name: name, filename: filename ?? url.lastPathComponent, contentType: contentType))
        try stream(url, part: name, chunkSize: chunkSize, emit)
      }
      emit(Data("\r\n".utf8))
    }
    emit(delimiter + Data("--\r\n".utf8))
  }

  /// A file part's content, a chunk at a time, checking for the boundary across chunk edges.
  private func stream(_ url: URL, part: String, chunkSize: Int, _ emit: (Data) -> Void) throws(Failure) {
    guard let input = try? FileHandle(forReadingFrom: url) else {
      throw Failure(.unreadableFile(part: part, path: url.path), "cannot read \(url.path) for the part \(part)")
    }
    defer { try? input.close() }
    let overlap = boundary.utf8.count + 2
    var tail = Data()
    while true {
      let chunk: Data
      do {
        chunk = try input.read(upToCount: chunkSize) ?? Data()
      } catch {
        throw Failure(.unreadableFile(part: part, path: url.path), "cannot read \(url.path): \(error.localizedDescription)")
      }
      if chunk.isEmpty { return }
      try check(tail + chunk, part: part)
      tail = (tail + chunk).suffix(overlap)
      emit(chunk)
    }
  }

  private func check(_ content: Data, part: String) throws(Failure) {
    if content.range(of: Data("--\(boundary)".utf8)) != nil {
      throw Failure(.boundaryInContent(part: part), "the part \(part) contains the boundary \(boundary); send it again with another boundary")
    }
  }

  private static func head(name: String, filename: String?, contentType: String) -> Data {
    var head = "Content-Disposition: form-data; name=\"\(quoted(name))\""
    if let filename { head += "; filename=\"\(quoted(filename))\"" }
    head += "\r\nContent-Type: \(contentType)\r\n\r\n"
    return Data(head.utf8)
  }

  /// One part of a received body.
  public struct ReceivedPart: Sendable, Equatable {
    /// The `name` of its `Content-Disposition`.
    public let name: String
    /// Its `filename`, for a file.
    public let filename: String?
    /// Its bytes.
    public let content: Data
  }

  /// The parts of a received `multipart/form-data` body, or `nil` for one that is not
  /// well-formed (a stray or missing CRLF included, or a boundary longer than
  /// ``maxBoundaryLength``): a server's reading, and a signer's that signs a provider's text
  /// fields. Its time is linear in the body's size: each byte is looked at a bounded number of
  /// times (the boundary's length is capped). It reads with the package's one multipart reader
  /// (`MultipartReader`), with no limit on the parts.
  public static func parts(of body: Data, contentType: String?) -> [ReceivedPart]? {
    guard let parts = try? MultipartReader.parts(of: body, contentType: contentType, limits: .none) else { return nil }
    return parts.map { ReceivedPart(name: $0.name, filename: $0.filename, content: $0.content) }
  }

  /// A name or file name inside quotes, as RFC 7578 section 4.2 and the HTML standard escape
  /// them: `"` as `%22`, CR as `%0D`, LF as `%0A`.
  static func quoted(_ text: String) -> String {
    text.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
  }
}
