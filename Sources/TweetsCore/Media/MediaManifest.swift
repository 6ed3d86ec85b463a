import Foundation
import XArchive

/// `DIR/manifest.jsonl`: where `tweets media download` records its files when it reads JSON
/// lines (with `--db`, the archive's `media_files` table holds the same): one JSON object a
/// line, `{"media_key", "path", "bytes", "sha256", "source_url"}`, appended as each file is
/// complete; the last line of a key wins. A reader (or a re-run) checks the files against it.
struct MediaManifest {
  /// The manifest's name in the media directory.
  static let fileName = "manifest.jsonl"

  let file: URL
  private(set) var records: [String: MediaFileRecord] = [:]

  /// The manifest of `directory`, read when it exists; lines that are not records are ignored
  /// (a line cut short by a kill).
  init(directory: URL) {
    file = directory.appendingPathComponent(Self.fileName)
    guard let data = FileManager.default.contents(atPath: file.path) else { return }
    for line in data.split(separator: UInt8(ascii: "\n")) {
      guard let object = (try? JSONSerialization.jsonObject(with: line)) as? [String: Any], let key = object["media_key"] as? String,
        let path = object["path"] as? String, let bytes = (object["bytes"] as? NSNumber)?.int64Value, let sha = object["sha256"] as? String
      else { continue }
      records[key] = MediaFileRecord(mediaKey: key, path: path, bytes: bytes, sha256: sha, sourceURL: object["source_url"] as? String ?? "")
    }
  }

  /// Appends `record` (one line, written at once).
  mutating func append(_ record: MediaFileRecord) throws {
    let object: [String: Any] = [
      "media_key": record.mediaKey, "path": record.path, "bytes": record.bytes, "sha256": record.sha256, "source_url": record.sourceURL,
    ]
    var line = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    line.append(UInt8(ascii: "\n"))
    if !FileManager.default.fileExists(atPath: file.path) { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
    let handle = try FileHandle(forWritingTo: file)
    defer { try? handle.close() }
    try handle.seekToEnd()
    try handle.write(contentsOf: line)
    records[record.mediaKey] = record
  }
}
