internal import CryptoPrimitives
import Foundation

/// The SHA-256 of a file on disk, read in 1 MiB pieces (a video is not held whole), in
/// lowercase hexadecimal: what the archive and the manifest record of each media file, and
/// what a re-run compares to skip a file that is complete.
enum MediaFileDigest {
  /// The size of the pieces read: 1 MiB.
  static let chunkBytes = 1 << 20

  /// The file's size and SHA-256, or `nil` when it cannot be read.
  static func sizeAndSHA256(of file: URL) -> (bytes: Int64, sha256: String)? {
    guard let handle = try? FileHandle(forReadingFrom: file), let digest = try? IncrementalDigest(.sha256) else { return nil }
    defer { try? handle.close() }
    var bytes: Int64 = 0
    while true {
      let read: Data?
      do { read = try handle.read(upToCount: chunkBytes) } catch { return nil }
      // The end of the file: no data (Linux) or empty data (Apple platforms).
      guard let chunk = read, !chunk.isEmpty else { break }
      bytes += Int64(chunk.count)
      guard (try? digest.update(chunk)) != nil else { return nil }
    }
    guard let sum = try? digest.finish() else { return nil }
    return (bytes, sum.map { String(format: "%02x", $0) }.joined())
  }
}
