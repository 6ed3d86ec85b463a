import Foundation

/// Uploads in progress and done, and how the sandbox is told to process them (tests: a video
/// pending for a few polls, a processing failure). Part of ``SandboxState``.
struct SandboxMediaState: Sendable {
  /// One upload: what initialize declared, the segments received, and its processing.
  struct Upload: Sendable {
    let mediaType: String
    let category: String
    let totalBytes: Int
    var segments: [Int: Data] = [:]
    var finalized = false
    /// Status polls left before processing ends.
    var pollsLeft = 0
    var state = "pending"
    var altText: String?

    var isProcessed: Bool { category != "tweet_image" }
  }

  var uploads: [String: Upload] = [:]
  var nextID: UInt64 = 1_880_000_000_000_000_001
  /// How many status polls a video or GIF stays `in_progress` (control API: `pending_polls`).
  var pendingPolls = 1
  /// Whether processing ends `failed` (control API: `fail_processing`).
  var failProcessing = false

  /// The media types and categories `initialize` takes (X's `InitializeMediaUploadRequest`).
  static let mediaTypes: Set = [
    "video/mp4", "video/webm", "video/mp2t", "video/quicktime", "text/srt", "text/vtt", "image/jpeg", "image/gif", "image/bmp", "image/png",
    "image/webp", "image/pjpeg", "image/tiff",
  ]
  static let categories: Set = ["amplify_video", "tweet_gif", "tweet_image", "tweet_video", "dm_gif", "dm_image", "dm_video", "subtitles"]
}

/// The parts of a `multipart/form-data` body: name, file name, bytes.
enum SandboxMultipart {
  struct Part: Sendable {
    let name: String
    let filename: String?
    let content: Data
  }

  /// The parts, or `nil` for a body that is not well-formed multipart (a stray or missing CRLF
  /// included: X answers it as a bad request, and so does the sandbox).
  static func parts(_ body: Data, contentType: String?) -> [Part]? {
    guard let contentType, let range = contentType.range(of: "boundary=") else { return nil }
    var boundary = String(contentType[range.upperBound...].prefix { $0 != ";" }).trimmingCharacters(in: .whitespaces)
    if boundary.hasPrefix("\""), boundary.hasSuffix("\""), boundary.count >= 2 { boundary = String(boundary.dropFirst().dropLast()) }
    let delimiter = Data("--\(boundary)".utf8), crlf = Data("\r\n".utf8)
    guard body.starts(with: delimiter + crlf) else { return nil }
    var parts: [Part] = []
    var position = body.startIndex + delimiter.count + crlf.count
    while true {
      guard let headEnd = body.range(of: crlf + crlf, in: position..<body.endIndex) else { return nil }
      let head = String(decoding: body[position..<headEnd.lowerBound], as: UTF8.self)
      guard let next = body.range(of: crlf + delimiter, in: headEnd.upperBound..<body.endIndex) else { return nil }
      let content = body[headEnd.upperBound..<next.lowerBound]
      guard let name = Self.parameter("name", in: head) else { return nil }
      parts.append(Part(name: name, filename: Self.parameter("filename", in: head), content: Data(content)))
      let after = next.upperBound
      if body[after...].starts(with: Data("--".utf8)) { return parts }
      guard body[after...].starts(with: crlf) else { return nil }
      position = after + crlf.count
    }
  }

  /// `name="value"` in a `Content-Disposition` line.
  private static func parameter(_ name: String, in head: String) -> String? {
    guard let range = head.range(of: "; \(name)=\"") else { return nil }
    return String(head[range.upperBound...].prefix { $0 != "\"" })
  }
}
