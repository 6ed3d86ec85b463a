/// One file of a video or animated GIF, as X lists them in `variants` (`media.fields=variants`
/// in v2, `video_info.variants` in v1.1): an mp4 at a bit rate, or an HLS playlist (`m3u8`)
/// without one.
///
/// ```swift
/// let best = media.variants?.filter { $0.contentType == "video/mp4" }.max { ($0.bitRate ?? 0) < ($1.bitRate ?? 0) }
/// print(best?.url ?? "none")  // https://video.twimg.com/ext_tw_video/.../1280x720/....mp4?tag=12
/// ```
public struct MediaVariant: Sendable, Hashable, Codable {
  /// Bits per second (v2's `bit_rate`, v1.1's `bitrate`); `nil` for a playlist, 0 for a GIF's mp4.
  public var bitRate: Int?
  /// `video/mp4` or `application/x-mpegURL`.
  public var contentType: String
  /// Where the file is, on X's CDN (`video.twimg.com`).
  public var url: String

  /// A variant from its parts.
  public init(bitRate: Int?, contentType: String, url: String) {
    self.bitRate = bitRate
    self.contentType = contentType
    self.url = url
  }

  enum CodingKeys: String, CodingKey {
    case url
    case bitRate = "bit_rate"
    case contentType = "content_type"
  }
}

/// A v1.1 variant: its bit rate is `bitrate`.
struct V1MediaVariant: Decodable, Sendable {
  let bitrate: Int?
  let contentType: String
  let url: String

  enum CodingKeys: String, CodingKey {
    case bitrate, url
    case contentType = "content_type"
  }

  var variant: MediaVariant { MediaVariant(bitRate: bitrate, contentType: contentType, url: url) }
}
