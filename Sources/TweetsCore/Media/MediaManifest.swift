import Foundation
import XArchive

#if canImport(Glibc)
  import Glibc
#endif

/// `DIR/manifest.jsonl`: where `tweets media download` records its files when it reads JSON
/// lines (with `--db`, the archive's `media_files` table holds the same): one JSON object a
/// line, `{"media_key", "path", "bytes", "sha256", "source_url"}`, appended as each file is
/// complete; the last line of a key wins. A reader (or a re-run) checks the files against it.
/// It is read and written only as a regular file of its own: a symbolic link planted under its
/// name (to a file of the user's, which each run would append to) is refused, never followed.
struct MediaManifest {
  /// The manifest's name in the media directory.
  static let fileName = "manifest.jsonl"

  let file: URL
  private(set) var records: [String: MediaFileRecord] = [:]

  /// The manifest of `directory`, read when it exists; lines that are not records are ignored
  /// (a line cut short by a kill). A manifest that is a symbolic link, or anything else than a
  /// regular file, is refused.
  init(directory: URL) throws(TweetsFailure) {
    file = directory.appendingPathComponent(Self.fileName)
    guard let handle = try Self.open(file, O_RDONLY) else { return }
    defer { try? handle.close() }
    let data = (try? handle.readToEnd()) ?? Data()
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
    guard let handle = try Self.open(file, O_WRONLY | O_APPEND | O_CREAT) else {
      throw TweetsFailure("cannot write \(file.path)", exitCode: .failure)
    }
    defer { try? handle.close() }
    try handle.write(contentsOf: line)
    records[record.mediaKey] = record
  }

  /// Opens `file` with `flags`, never through a symbolic link (`O_NOFOLLOW`), and only when it
  /// is a regular file; `nil` when it does not exist (and is not being created).
  private static func open(_ file: URL, _ flags: Int32) throws(TweetsFailure) -> FileHandle? {
    let descriptor = Glibc.open(file.path, flags | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0o644)
    guard descriptor >= 0 else {
      if errno == ENOENT { return nil }
      let reason = errno == ELOOP ? "it is a symbolic link, which is not followed" : String(cString: strerror(errno))
      throw TweetsFailure("refusing \(file.path): \(reason); remove it, or use another --dir", exitCode: .failure)
    }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
      close(descriptor)
      throw TweetsFailure("refusing \(file.path): it is not a regular file; remove it, or use another --dir", exitCode: .failure)
    }
    return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
  }
}
