/// A photo, video or GIF attached to a tweet (`includes.media`).
struct SandboxMedia: Sendable {
  enum Kind: String, Sendable {
    case photo
    case video
    case animatedGIF = "animated_gif"
  }

  /// One file of a video or GIF.
  struct Variant: Sendable {
    let bitRate: Int?
    let contentType: String
    let url: String
  }

  /// The media id (v1.1's `id`); the `media_key` is it behind the kind's prefix.
  let id: UInt64
  let kind: Kind
  let width: Int
  let height: Int
  /// A photo's image.
  var url: String? = nil
  /// A video's or GIF's still image.
  var previewImageURL: String? = nil
  /// The description the author wrote, if any.
  var altText: String? = nil
  /// Where the tweet's t.co link to it leads (`https://x.com/user/status/ID/photo/1`).
  let expandedURL: String
  var durationMS: Int? = nil
  var variants: [Variant] = []

  /// `3_<id>` (photo), `7_<id>` (video), `16_<id>` (GIF), as X's keys.
  var key: String {
    switch kind {
    case .photo: return "3_\(id)"
    case .video: return "7_\(id)"
    case .animatedGIF: return "16_\(id)"
    }
  }
}
