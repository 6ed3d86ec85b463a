import Foundation
import TestSupport
import Testing

/// `tweets post` with media, replies and quotes, and `tweets delete`, as processes against the
/// sandbox over loopback; every request, the multipart segments included, signed with OAuth
/// 1.0a and checked by oauthlib in front of the sandbox.
@Suite("tweets post and delete", .serialized, .tags(.peers, .processes), .tier(.peers, .processes))
struct PostCommandTests {
  static func file(_ name: String, bytes: Int) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("post-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let url = folder.appendingPathComponent(name)
    var generator = SystemRandomNumberGenerator()
    try Data((0..<bytes).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: url)
    return url
  }

  static func id(_ result: ProcessResult) -> String? {
    result.stdout.split(separator: " ").dropFirst().first.map { String($0.dropLast()) }
  }

  @Test func twoImagesWithAltTextAsAReplyThenDeleted() async throws {
    let server = try VerifiedSandbox(tweetsPerUser: 20)
    let tweets = try TweetsRunner(server: server)
    try tweets.loginWithTokens()
    let one = try Self.file("one.jpg", bytes: 200_000), two = try Self.file("two.png", bytes: 100_000)
    let post = try tweets.run([
      "post", "Two", "photos", "--media", one.path, "--alt", "The first", "--media", two.path, "--reply-to", "1800000000000000000",
    ])
    #expect(post.status == 0 && post.stdout.hasPrefix("Posted "), "\(post.stderr)")
    let id = try #require(Self.id(post))
    #expect(post.stdout == "Posted \(id): https://x.com/i/status/\(id)\n")
    let shown = try tweets.run(["show", id, "--format", "jsonl"])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
    let media = try #require(object["media"] as? [[String: Any]])
    #expect(media.count == 2 && media[0]["alt_text"] as? String == "The first" && media[1]["alt_text"] == nil, "\(media)")
    #expect((object["referenced_tweets"] as? [[String: Any]])?.first?["type"] as? String == "replied_to")
    let stats = try await server.stats()
    #expect(stats.oauthlib.disagreements.isEmpty && stats.oauthlib.valid >= 8, "every request signed, multipart included: \(stats.oauthlib)")

    let deleted = try tweets.run(["delete", id])
    #expect(deleted.status == 0 && deleted.stdout == "Deleted \(id).\n")
    #expect(try tweets.run(["show", id]).status == 4)
  }

  @Test func aVideoInThreeSegmentsOneAnswered503OncePendingForThreePolls() async throws {
    let server = try VerifiedSandbox(tweetsPerUser: 20)
    let tweets = try TweetsRunner(server: server)
    try tweets.loginWithTokens()
    try await server.setMediaProcessing(pendingPolls: 3)
    try await server.script("/2/media/upload/1880000000000000001/append", [["status": 503]])
    let video = try Self.file("clip.mp4", bytes: 10_000_000)
    let post = try tweets.run(["post", "A", "clip", "--media", video.path, "--quote", "1800000000000000000", "--format", "json"])
    #expect(post.status == 0, "\(post.stderr)")
    let answer = try #require(try post.json() as? [String: Any])
    #expect((answer["data"] as? [String: Any])?["id"] != nil, "X's whole answer: \(answer)")
    let received = try await server.media(id: "1880000000000000001")
    let expected = try Data(contentsOf: video)
    #expect(received.bytes == expected.count && received.segments == 3)
    let stats = try await server.stats()
    let appends = stats.requests.filter { $0.path.hasSuffix("/append") }.map(\.status)
    #expect(appends == [503, 200, 200, 200], "the failed segment alone was sent again")
    #expect(stats.requests.filter { $0.path == "/2/media/upload" }.count == 3, "three status polls")
    #expect(stats.oauthlib.disagreements.isEmpty)
  }

  @Test func failuresAndRefusals() async throws {
    let server = try VerifiedSandbox(tweetsPerUser: 20)
    let tweets = try TweetsRunner(server: server)
    try tweets.loginWithTokens()
    let text = try Self.file("notes.txt", bytes: 10)
    let unsupported = try tweets.run(["post", "x", "--media", text.path])
    #expect(unsupported.status == 2 && unsupported.stderr.contains("not .txt"), "\(unsupported.stderr)")
    let big = try Self.file("big.gif", bytes: 15_000_001)
    let oversized = try tweets.run(["post", "x", "--media", big.path])
    #expect(oversized.status == 2 && oversized.stderr.contains("X takes gifs up to 15.0 MB"), "\(oversized.stderr)")
    let five = try (0..<5).map { try Self.file("p\($0).jpg", bytes: 10) }
    let tooMany = try tweets.run(["post", "x"] + five.flatMap { ["--media", $0.path] })
    #expect(tooMany.status == 2 && tooMany.stderr.contains("up to 4 images"))
    let long = try tweets.run(["post", String(repeating: "日", count: 141)])
    #expect(long.status == 2 && long.stderr.contains("the post is 282 characters as X counts them"), "\(long.stderr)")
    let url = try tweets.run(["post", String(repeating: "a", count: 256) + " https://example.com/" + String(repeating: "x", count: 100)])
    #expect(url.status == 0, "a URL counts 23: \(url.stderr)")
    let loneAlt = try tweets.run(["post", "x", "--alt", "no media"])
    #expect(loneAlt.status == 2 && loneAlt.stderr.contains("--alt describes the --media before it"))
    let requests = try await server.stats().requests
    #expect(!requests.contains { $0.path.hasPrefix("/2/media") }, "nothing was uploaded for a refused post")

    try await server.setMediaProcessing(pendingPolls: 1, fail: true)
    let gif = try Self.file("party.gif", bytes: 50_000)
    let failed = try tweets.run(["post", "party", "--media", gif.path])
    #expect(failed.status == 1 && failed.stderr.contains("X could not process party.gif"), "\(failed.stderr)")
  }
}
