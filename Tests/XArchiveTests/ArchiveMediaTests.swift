import Foundation
import TestSupport
import Testing
import XAPI

@testable import XArchive

/// The archive keeps each video's variants (schema 3) and each downloaded file's path, size and
/// SHA-256; an archive made before has no variants, which `tweets media download --refetch` fills.
@Suite("Archive media and media files")
struct ArchiveMediaTests {
  @Test func variantsAndFilesAreStoredAndReadBack() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("media-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let archive = try TweetArchive(path: folder.appendingPathComponent("a.sqlite").path)
    defer { archive.close() }
    let variants = [
      MediaVariant(bitRate: 832_000, contentType: "video/mp4", url: "https://video.twimg.com/a.mp4"),
      MediaVariant(bitRate: nil, contentType: "application/x-mpegURL", url: "https://video.twimg.com/a.m3u8"),
    ]
    var tweet = Tweet(id: "20", text: "a video")
    tweet.media = [Media(key: "7_1", type: "video", url: "https://pbs.twimg.com/p.jpg", variants: variants)]
    var before = Tweet(id: "21", text: "the same video, from an answer without variants")
    before.media = [Media(key: "7_1", type: "video", url: "https://pbs.twimg.com/p.jpg")]
    var fetch = try archive.beginFetch(command: ["t"], resume: false)
    try archive.store(lookup: [tweet, before], body: Data(), missing: [], inputDone: 2, in: &fetch, complete: true)
    // An answer without variants keeps those stored.
    #expect(try archive.mediaItems() == [ArchivedMedia(media: tweet.media![0], postID: "20")])

    #expect(try archive.mediaFile("7_1") == nil)
    let record = MediaFileRecord(
      mediaKey: "7_1", path: "media/7_1.mp4", bytes: 10, sha256: String(repeating: "a", count: 64), sourceURL: variants[0].url)
    try archive.record(record)
    try archive.record(record)
    #expect(try archive.mediaFile("7_1") == record)
    #expect(try archive.database.rows("SELECT count(*) FROM media_files").first?.first?.integer == 1)
  }
}
