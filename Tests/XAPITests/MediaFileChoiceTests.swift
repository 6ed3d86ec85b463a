import Foundation
import NetworkClient
import NetworkClientTesting
import OAuth1
import TestSupport
import Testing
import XAPI

/// Which file `tweets media download` fetches, chosen from real X answers (tweepy's and
/// twarc's recordings, `Recordings/PROVENANCE.md`): a video's mp4 of the highest bit rate, never
/// its playlist; a photo at its original size; nothing for a key that could name a path.
@Suite("MediaFileChoice")
struct MediaFileChoiceTests {
  func media(_ recording: String, _ id: String) async throws -> Media {
    let file = PackagePaths.root.appendingPathComponent("Tests/XAPITests/Recordings/\(recording).json")
    let replay = ReplayTransport(try Cassette(contentsOf: file), matching: .methodAndPath)
    let client = XClient(
      authentication: .oauth1(consumer: Credentials(key: "k", secret: "s"), token: Credentials(key: "t", secret: "u")),
      baseURL: URL(string: "https://api.twitter.com")!, transport: replay, retry: nil)
    return try #require(try await client.v2.tweets(ids: [id]).tweets.first?.media?.first)
  }

  @Test func theBestMP4OfARealVideoAndTheOriginalOfARealPhoto() async throws {
    let video = try await media("v2-tweet-lookup-video-variants", "1558553189766631429")
    let variants = try #require(video.variants)
    // The recording lists 256, then the playlist, then 2176, then 832 kbit/s: the best is not first nor last.
    #expect(variants.count == 4 && variants.compactMap(\.bitRate) == [256_000, 2_176_000, 832_000])
    guard case .file(let choice) = MediaFileChoice.choose(for: video) else {
      Issue.record("no file for the video")
      return
    }
    #expect(choice.url.absoluteString == variants[2].url && choice.fileName == "7_1558552952549277696.mp4")

    let photo = try await media("v2-tweet-lookup-photo-alt-text-edited", "1576994746135764992")
    guard case .file(let full) = MediaFileChoice.choose(for: photo) else {
      Issue.record("no file for the photo")
      return
    }
    #expect(full.url.absoluteString == "https://pbs.twimg.com/media/FeKcHsVaUAEYpU_.jpg?name=orig" && full.fileName == "3_1576994475507077121.jpg")
  }

  @Test func videosWithoutVariantsOrWithOnlyAPlaylistAndUnsafeKeys() {
    #expect(MediaFileChoice.choose(for: Media(key: "7_1", type: "video", url: "https://pbs.twimg.com/x.jpg")) == .needsVariants)
    let playlist = Media(
      key: "7_1", type: "video", variants: [MediaVariant(bitRate: nil, contentType: "application/x-mpegURL", url: "https://v/x.m3u8")])
    #expect(MediaFileChoice.choose(for: playlist) == .none(reason: "X lists only a streaming playlist"))
    let sized = Media(key: "3_1", type: "photo", url: "https://pbs.twimg.com/media/A?format=png&name=small")
    guard case .file(let choice) = MediaFileChoice.choose(for: sized) else {
      Issue.record("no file")
      return
    }
    #expect(choice.fileName == "3_1.png" && choice.url.query == "format=png&name=orig")
    for key in ["../../etc/passwd", "", "a/b", String(repeating: "7", count: 65), "7_1\0", "7_1.mp4"] {
      #expect(
        MediaFileChoice.choose(for: Media(key: key, type: "photo", url: "https://pbs.twimg.com/a.jpg"))
          == .none(reason: "the media key is not a safe file name"))
    }
    let file = Media(key: "7_1", type: "video", variants: [MediaVariant(bitRate: 1, contentType: "video/mp4", url: "file:///etc/passwd")])
    #expect(MediaFileChoice.choose(for: file) == .none(reason: "the variant's URL is not http(s)"))
  }
}
