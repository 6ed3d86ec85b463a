import Foundation
import XAPI

/// A media item of the archive and the first post it belongs to: what `tweets media download`
/// reads, and looks the post up again for when a video's variants were never stored.
public struct ArchivedMedia: Sendable, Hashable {
  /// The item as stored; its `variants` are `nil` when X was not asked for them.
  public var media: Media
  /// The lowest id of the posts it is attached to; `nil` for an item no post refers to.
  public var postID: String?

  /// An item from its parts.
  public init(media: Media, postID: String?) {
    self.media = media
    self.postID = postID
  }
}

/// A downloaded media file as the archive records it (`media_files`): enough to tell, on a
/// re-run, that the file is complete and unchanged.
public struct MediaFileRecord: Sendable, Hashable {
  /// The media item's key, `7_1234...`.
  public var mediaKey: String
  /// Where the file was saved (`DIR/<media_key>.<ext>`), as given.
  public var path: String
  /// Its size in bytes.
  public var bytes: Int64
  /// Its SHA-256, lowercase hexadecimal.
  public var sha256: String
  /// The URL it was downloaded from (after no redirect: the one X listed).
  public var sourceURL: String

  /// A record from its parts.
  public init(mediaKey: String, path: String, bytes: Int64, sha256: String, sourceURL: String) {
    self.mediaKey = mediaKey
    self.path = path
    self.bytes = bytes
    self.sha256 = sha256
    self.sourceURL = sourceURL
  }
}

extension TweetArchive {
  /// The archive's media items, by key, each with the first post it belongs to.
  ///
  /// ```swift
  /// for item in try archive.mediaItems() where item.media.type == "video" { print(item.media.key) }
  /// ```
  public func mediaItems() throws(ArchiveError) -> [ArchivedMedia] {
    try database.rows(
      """
      SELECT m.media_key, m.type, m.url, m.alt_text, m.variants, (SELECT min(tweet_id) FROM tweet_media t WHERE t.media_key = m.media_key)
      FROM media m ORDER BY m.media_key
      """
    ).compactMap { row -> ArchivedMedia? in
      guard let key = row[0].text, let type = row[1].text else { return nil }
      let variants = row[4].text.flatMap { try? JSONDecoder().decode([MediaVariant].self, from: Data($0.utf8)) }
      return ArchivedMedia(
        media: Media(key: key, type: type, url: row[2].text, altText: row[3].text, variants: variants), postID: row[5].integer.map(String.init))
    }
  }

  /// The file recorded for `mediaKey`, if one was downloaded.
  public func mediaFile(_ mediaKey: String) throws(ArchiveError) -> MediaFileRecord? {
    guard let row = try database.rows("SELECT path, bytes, sha256, source_url FROM media_files WHERE media_key = ?", [.text(mediaKey)]).first,
      let path = row[0].text, let bytes = row[1].integer, let sha = row[2].text, let source = row[3].text
    else { return nil }
    return MediaFileRecord(mediaKey: mediaKey, path: path, bytes: bytes, sha256: sha, sourceURL: source)
  }

  /// Records a downloaded file, replacing an earlier record of the same media item.
  public func record(_ file: MediaFileRecord) throws(ArchiveError) {
    try database.run(
      """
      INSERT OR REPLACE INTO media_files (media_key, path, bytes, sha256, source_url, downloaded_at) VALUES (?, ?, ?, ?, ?, ?)
      """, [.text(file.mediaKey), .text(file.path), .integer(file.bytes), .text(file.sha256), .text(file.sourceURL), .text(Self.timestamp())])
  }

  /// Variants as the `media.variants` column holds them: X's JSON of them.
  static func variantsJSON(_ variants: [MediaVariant]) -> String {
    (try? JSONEncoder().encode(variants)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
  }
}
