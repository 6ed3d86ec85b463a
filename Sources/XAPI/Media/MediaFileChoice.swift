import Foundation

/// The one file to download for a photo, video or GIF, and the name to save it under: a
/// photo's full size (X's `url` with `name=orig`, the form X's image URLs document for the
/// original), and for a video or GIF the mp4 variant with the highest bit rate (never the
/// HLS playlist, which is an index of segments, not the video).
///
/// ```swift
/// if case .file(let choice) = MediaFileChoice.choose(for: media) {
///   print(choice.url, choice.fileName)  // https://pbs.twimg.com/media/A.jpg?name=orig 3_1.jpg
/// }
/// ```
public struct MediaFileChoice: Sendable, Hashable {
  /// Where the file is.
  public let url: URL
  /// `mp4`, `jpg`, `png`...
  public let fileExtension: String
  /// `<media_key>.<ext>`: the name it is saved under.
  public let fileName: String

  /// What can be downloaded for one media item.
  public enum Outcome: Sendable, Hashable {
    /// The file to fetch.
    case file(MediaFileChoice)
    /// A video or GIF whose variants X was not asked for (an archive made before
    /// `media.fields=variants`): it must be looked up again.
    case needsVariants
    /// Nothing to download, and why (no URL, only a playlist, a key unfit for a file name).
    case none(reason: String)
  }

  /// The longest media key taken as a file name (64 characters); X's are about 22.
  public static let maxKeyLength = 64

  /// The file to download for `media`.
  public static func choose(for media: Media) -> Outcome {
    guard isSafeKey(media.key) else { return .none(reason: "the media key is not a safe file name") }
    switch media.type {
    case "photo":
      guard let text = media.url, let url = URL(string: text), let full = fullSize(url) else { return .none(reason: "the photo has no URL") }
      return make(full.url, full.ext, key: media.key)
    case "video", "animated_gif":
      guard let variants = media.variants else { return .needsVariants }
      let mp4 = variants.filter { $0.contentType.lowercased() == "video/mp4" }
      guard let best = mp4.max(by: { ($0.bitRate ?? 0) < ($1.bitRate ?? 0) }) else {
        return .none(reason: variants.isEmpty ? "X lists no file for it" : "X lists only a streaming playlist")
      }
      guard let url = URL(string: best.url), ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
        return .none(reason: "the variant's URL is not http(s)")
      }
      return make(url, "mp4", key: media.key)
    default:
      return .none(reason: "the media type \(media.type) has no file")
    }
  }

  private static func make(_ url: URL, _ ext: String, key: String) -> Outcome {
    .file(MediaFileChoice(url: url, fileExtension: ext, fileName: "\(key).\(ext)"))
  }

  /// A photo's original size: `name=orig` in the query (replacing a size such as `small`), and
  /// the extension from `format=` or the path (`jpg` when neither says).
  static func fullSize(_ url: URL) -> (url: URL, ext: String)? {
    guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false), ["http", "https"].contains(components.scheme?.lowercased() ?? "")
    else { return nil }
    var items = (components.queryItems ?? []).filter { $0.name != "name" }
    let format = items.first { $0.name == "format" }?.value
    items.append(URLQueryItem(name: "name", value: "orig"))
    components.queryItems = items
    guard let full = components.url else { return nil }
    let candidate = (format ?? (url.path as NSString).pathExtension).lowercased()
    let ext = candidate.count <= 5 && !candidate.isEmpty && candidate.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) ? candidate : "jpg"
    return (full, ext)
  }

  /// Whether `key` is fit for a file name: 1 to ``maxKeyLength`` ASCII letters, digits, `_`
  /// and `-` (X's keys are `3_1234...`), so that no input names a path elsewhere.
  public static func isSafeKey(_ key: String) -> Bool {
    !key.isEmpty && key.utf8.count <= maxKeyLength
      && key.utf8.allSatisfy { byte in
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x5F || byte == 0x2D
      }
  }
}
