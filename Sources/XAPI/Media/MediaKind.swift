import Foundation

/// What a file is to X's media upload: its `media_type`, the `media_category` a post uses, and
/// the largest file X takes for it. Known from the file's extension, as X's own command-line
/// tool `xurl` does (`api/media.go`); checked before any byte is sent.
///
/// Limits are the defaults of `x-api/media/quickstart/best-practices.mdx`: images 5 MB, GIFs
/// 15 MB, videos 512 MB (X raises the video limit for some accounts; ``MediaLimits`` can say so).
///
/// ```swift
/// let kind = try MediaKind(file: URL(fileURLWithPath: "clip.mp4"))  // video/mp4, tweet_video
/// ```
public struct MediaKind: Sendable, Equatable {
  /// `image/jpeg`, `video/mp4` ...
  public let mediaType: String
  /// `tweet_image`, `tweet_gif` or `tweet_video`; for a direct message (``forDirectMessage``)
  /// `dm_image`, `dm_gif` or `dm_video`.
  public let category: String

  /// Whether X processes it after the upload (a video or a GIF): then the upload waits for
  /// `processing_info` to say `succeeded`.
  public var isProcessed: Bool { !category.hasSuffix("_image") }

  /// The same file as an attachment of a direct message: X's `dm_` category of its kind.
  ///
  /// ```swift
  /// try MediaKind(file: URL(fileURLWithPath: "fish.jpg")).forDirectMessage.category  // "dm_image"
  /// ```
  public var forDirectMessage: MediaKind {
    MediaKind(mediaType: mediaType, category: "dm_" + (category.split(separator: "_").last.map(String.init) ?? "image"))
  }

  private init(mediaType: String, category: String) {
    self.mediaType = mediaType
    self.category = category
  }

  /// The extensions X takes, and what they are.
  public static let byExtension: [String: String] = [
    "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "webp": "image/webp", "gif": "image/gif", "mp4": "video/mp4",
    "m4v": "video/mp4", "mov": "video/quicktime",
  ]

  /// The kind of `file`, by its extension.
  /// - Throws: ``XError/invalidMedia(message:)`` for a type X does not take in posts.
  public init(file: URL) throws(XError) {
    let ext = file.pathExtension.lowercased()
    guard let type = Self.byExtension[ext] else {
      throw .invalidMedia(
        message:
          "\(file.lastPathComponent): X takes JPEG, PNG, WEBP and GIF images and MP4 and MOV videos in posts, not .\(ext.isEmpty ? "(no extension)" : ext)"
      )
    }
    mediaType = type
    category = type == "image/gif" ? "tweet_gif" : type.hasPrefix("image/") ? "tweet_image" : "tweet_video"
  }
}

/// The largest files X takes, by category (`x-api/media/quickstart/best-practices.mdx`).
public struct MediaLimits: Sendable {
  /// Images: 5 MB.
  public var image: Int64 = 5 * 1_000_000
  /// Animated GIFs: 15 MB.
  public var gif: Int64 = 15 * 1_000_000
  /// Videos: 512 MB by default; X allows more to some accounts.
  public var video: Int64 = 512 * 1_000_000

  /// X's defaults.
  public init() {}

  /// The limit of `kind`.
  public func bytes(for kind: MediaKind) -> Int64 {
    switch kind.category {
    case "tweet_image", "dm_image": image
    case "tweet_gif", "dm_gif": gif
    default: video
    }
  }
}

/// How far an upload is, for a progress display.
public struct MediaUploadProgress: Sendable {
  /// Bytes X has acknowledged so far.
  public let bytesSent: Int64
  /// The file's size.
  public let totalBytes: Int64
  /// The segment just sent (from 0), and how many there are.
  public let segment: Int
  /// How many segments there are.
  public let segments: Int
  /// X's processing state once the bytes are in (`pending`, `in_progress`, `succeeded`), with
  /// its `progress_percent` when it gives one.
  public let processing: (state: String, percent: Int?)?
}

/// An uploaded file, ready for a post.
public struct UploadedMedia: Sendable, Equatable {
  /// What `POST /2/tweets` takes in `media.media_ids`.
  public let id: String
  /// `media_key`, as in a tweet's `attachments`.
  public let mediaKey: String?
  /// The kind it was uploaded as.
  public let kind: MediaKind
}
