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

    var isProcessed: Bool { !category.hasSuffix("_image") }
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
