import CommandLineSupport
import Foundation
import Testing
import XAPI
import XArchive

@testable import TweetsCore

/// What `tweets media download --input` reads (tweets' jsonl and X's raw answers) and the
/// manifest it keeps in the directory: both shapes read, each item once; bad lines refused by
/// name; a line cut short by a kill ignored; the last record of a key wins.
@Suite("Media input and manifest")
struct MediaInputTests {
  @Test func bothShapesAreReadEachItemOnce() throws {
    let own =
      #"{"id":"1","media":[{"key":"7_1","type":"video","url":"https://p/1.jpg","variants":[{"bit_rate":832000,"content_type":"video/mp4","url":"https://v/1.mp4"}]}]}"#
    let raw =
      #"{"data":[{"id":"2"}],"includes":{"media":[{"media_key":"3_2","type":"photo","url":"https://p/2.jpg"},{"media_key":"7_1","type":"video"}]}}"#
    let items = try MediaInput.items(["", Substring(own), Substring(raw)])
    #expect(items.map(\.key) == ["7_1", "3_2"])
    #expect(items[0].variants == [MediaVariant(bitRate: 832_000, contentType: "video/mp4", url: "https://v/1.mp4")])
    #expect(items[1].url == "https://p/2.jpg" && items[1].variants == nil)
  }

  @Test func badLinesAreRefusedByName() {
    for (line, words) in [("not json", "line 1 is not a JSON object"), ("[1, 2]", "line 1 is not a JSON object")] {
      #expect {
        try MediaInput.items([Substring(line)])
      } throws: { error in
        "\(error)".contains(words)
      }
    }
    let long = Substring(String(repeating: " ", count: MediaInput.maxLineBytes) + "{}")
    #expect {
      try MediaInput.items([long])
    } throws: { error in
      "\(error)".contains("longer than \(MediaInput.maxLineBytes) bytes")
    }
  }

  @Test func theManifestKeepsTheLastRecordOfAKeyAndIgnoresACutLine() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var manifest = try MediaManifest(directory: folder)
    let first = MediaFileRecord(mediaKey: "7_1", path: "m/7_1.mp4", bytes: 1, sha256: "aa", sourceURL: "https://v/1.mp4")
    var second = first
    second.bytes = 2
    try manifest.append(first)
    try manifest.append(second)
    // A kill mid-line leaves a line that is no record.
    let handle = try FileHandle(forWritingTo: manifest.file)
    try handle.seekToEnd()
    try handle.write(contentsOf: Data(#"{"media_key":"3_9","pa"#.utf8))
    try handle.close()
    #expect(try MediaManifest(directory: folder).records == ["7_1": second])
  }
}
