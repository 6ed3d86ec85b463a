import Foundation
import Testing

@testable import TweetsCore

/// `tweets hydrate`: ids from a file or standard input, looked up in batches of 100, written in
/// the input's order, the ids X did not return reported and counted in the exit status.
@Suite("tweets hydrate")
struct HydrateTests {
  final class Buffer: @unchecked Sendable {
    private let lock = NSLock()
    private var text = ""
    func append(_ more: String) { lock.withLock { text += more } }
    var value: String { lock.withLock { text } }
  }

  final class Lines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String]
    init(_ lines: [String]) { self.lines = lines }
    func next() -> String? { lock.withLock { lines.isEmpty ? nil : lines.removeFirst() } }
  }

  let config = FileManager.default.temporaryDirectory.appendingPathComponent("tweets-hydrate-\(UUID().uuidString)")

  func run(_ arguments: [String], stdin: [String] = []) async -> (status: Int32, out: String, err: String) {
    let out = Buffer(), err = Buffer(), input = Lines(stdin)
    let terminal = Terminal(writeOut: out.append, writeError: err.append, readLine: input.next, isInteractive: false, useColor: false)
    let status = await TweetsCLI.run(arguments + ["--sandbox", "--config-dir", config.path], environment: [:], terminal: terminal)
    return (status, out.value, err.value)
  }

  func ids(_ jsonl: String) -> [String] {
    jsonl.split(separator: "\n").compactMap { line in
      (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? String
    }
  }

  @Test func idsAndJSONLinesFromAFileInTheirOrder() async throws {
    defer { try? FileManager.default.removeItem(at: config) }
    // 150 ids (two batches), newest last, with an unknown id in the middle and JSON lines.
    let known = ids(await run(["timeline", "--limit", "150", "--format", "jsonl"]).out).reversed().map { $0 }
    #expect(known.count == 150)
    var input = known.prefix(70).map { $0 }
    input.append("1")
    input += known.dropFirst(70).prefix(40).map { #"{"id": "\#($0)", "text": "kept elsewhere"}"# }
    input += known.dropFirst(110).map { $0 }
    try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
    let file = config.appendingPathComponent("ids.txt")
    try input.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)

    let result = await run(["hydrate", file.path, "--format", "jsonl"])
    #expect(result.status == 4, "an id was not returned: \(result.err)")
    #expect(ids(result.out) == known, "the input's order, without the unknown id")
    #expect(result.err.contains("1 of 151 ids not returned"), "\(result.err)")
  }

  @Test func idsFromStandardInput() async throws {
    defer { try? FileManager.default.removeItem(at: config) }
    let known = ids(await run(["timeline", "--limit", "3", "--format", "jsonl"]).out)
    let result = await run(["hydrate", "-", "--format", "jsonl"], stdin: known.reversed() + [""])
    #expect(result.status == 0, "\(result.err)")
    #expect(ids(result.out) == known.reversed())
  }

  @Test func aLineThatIsNoIdIsAUsageError() async throws {
    defer { try? FileManager.default.removeItem(at: config) }
    let result = await run(["hydrate"], stdin: ["123", "not an id"])
    #expect(result.status == 2 && result.err.contains("line 2 is neither a tweet id"), "\(result.err)")
  }
}
