import Foundation

/// Why a ``FileDownload`` failed; nothing is left under the destination's name, and the
/// partial file is removed (a killed process leaves only the partial file, which the next
/// download of the same destination replaces).
public enum FileDownloadError: Error, Sendable, CustomStringConvertible {
  /// The exchange failed: no answer, a status that is not 2xx, a redirect refused (too many,
  /// https to http), or cancellation.
  case network(NetworkError)
  /// The file is larger than ``FileDownload/Limits/maxBytes``: announced so by
  /// `Content-Length` (nothing read), or found so while reading (the rest not read).
  case tooLarge(limit: Int64, announced: Int64?)
  /// The body ended before its `Content-Length` (a connection lost mid-file, a server that
  /// sends a wrong length).
  case truncated(expected: Int64, received: Int64)
  /// The partial file could not be written, or not renamed to the destination.
  case file(path: String, reason: String)
  /// The caller refused the download: its URL or a redirect's target (the downloader's
  /// `screen`), or a chunk (its `eachChunk` threw this), for `reason`, in the caller's words.
  case refused(reason: String)

  /// What failed, in a sentence.
  public var description: String {
    switch self {
    case .network(let error):
      "\(error)"
    case .tooLarge(let limit, let announced):
      announced.map { "the file is \($0) bytes, over the limit of \(limit)" } ?? "the file grew past the limit of \(limit) bytes"
    case .truncated(let expected, let received):
      "the body ended after \(received) of its \(expected) bytes"
    case .file(let path, let reason):
      "cannot write \(path): \(reason)"
    case .refused(let reason):
      reason
    }
  }
}
