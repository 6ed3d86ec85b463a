import Foundation
import Testing

@testable import TweetsCore

/// `tweets hydrate`: ids from a file or standard input, looked up in batches of 100, written in
/// the input's order, the ids X did not return reported and counted in the exit status.
@Suite("tweets hydrate")
struct HydrateTests {
  func ids(_ jsonl: String) -> [String] { InProcessTweets.objects(jsonl).compactMap { $0["id"] as? String } }

  @Test func idsAndJSONLinesFromAFileInTheirOrder() async throws {
    // 150 ids (two batches), newest last, with an unknown id in the middle and JSON lines.
    let known = ids(await InProcessTweets.run(["timeline", "--limit", "150", "--format", "jsonl"]).out).reversed().map { $0 }
    #expect(known.count == 150)
    var input = known.prefix(70).map { $0 }
    input.append("1")
    input += known.dropFirst(70).prefix(40).map { #"{"id": "\#($0)", "text": "kept elsewhere"}"# }
    input += known.dropFirst(110).map { $0 }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tweets-hydrate-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("ids.txt")
    try input.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)

    let result = await InProcessTweets.run(["hydrate", file.path, "--format", "jsonl"])
    #expect(result.status == 4, "an id was not returned: \(result.err)")
    #expect(ids(result.out) == known, "the input's order, without the unknown id")
    #expect(result.err.contains("151 ids looked up, 150 tweets found, 1 not returned"), "\(result.err)")
  }

  @Test func idsFromStandardInput() async throws {
    let known = ids(await InProcessTweets.run(["timeline", "--limit", "3", "--format", "jsonl"]).out)
    let result = await InProcessTweets.run(["hydrate", "-", "--format", "jsonl"], stdin: known.reversed() + [""])
    #expect(result.status == 0, "\(result.err)")
    #expect(ids(result.out) == known.reversed())
  }

  @Test func aLineThatIsNoIdIsAUsageError() async throws {
    let result = await InProcessTweets.run(["hydrate"], stdin: ["123", "not an id"])
    #expect(result.status == 2 && result.err.contains("line 2 is neither a tweet id"), "\(result.err)")
  }
}
