import Foundation
import NetworkClient
import XAPI
import XArchive

/// Downloads media files a few at a time: each to a partial file in the directory, renamed once
/// complete (`FileDownload`), then hashed from disk; a file already recorded with the size
/// and SHA-256 found on disk is skipped. No credential goes with any request: the downloader
/// is a plain one, apart from the X client. A run receives at most ``maxTotalBytes`` over all
/// its files (`--max-bytes`), besides each file's own limit (`FileDownload.Limits.maxBytes`,
/// 4 GiB): a server that answers every file with gigabytes fills no disk.
struct MediaDownloads {
  /// One file to fetch.
  struct Job: Sendable {
    let key: String
    let choice: MediaFileChoice
    /// `DIR/<media_key>.<ext>`, DIR absolute with its symbolic links resolved: what is
    /// recorded, and what `tweets compliance` may later delete (inside DIR, and only there).
    let path: String
  }

  /// The most downloads at once `--parallel` takes (16): X's CDN is not to be flooded.
  static let maxParallel = 16
  /// Downloads at once by default (4).
  static let defaultParallel = 4
  /// The most bytes a run receives, all its files together, by default: 64 GiB (some thirty of
  /// X's longest videos, or tens of thousands of photos); `--max-bytes` sets another.
  static let defaultMaxTotalBytes: Int64 = 64 << 30

  let download: FileDownload
  let parallel: Int
  /// The most bytes the run receives, all its files together (those that fail included, as
  /// they were received): past it, the file being received fails and no other is requested.
  let maxTotalBytes: Int64
  /// The bytes received so far, all downloads together.
  private let received = Locked<Int64>(0)

  /// Downloads with `download`, `parallel` at once, receiving at most `maxTotalBytes` in all.
  init(download: FileDownload, parallel: Int, maxTotalBytes: Int64 = defaultMaxTotalBytes) {
    self.download = download
    self.parallel = parallel
    self.maxTotalBytes = maxTotalBytes
  }

  /// Why a download stops at the run's limit.
  private var overLimit: FileDownloadError {
    .refused(reason: "the run reached its limit of \(maxTotalBytes) bytes received, all files together (--max-bytes)")
  }

  /// Whether `record` describes the file at its path as it is now: same size, same SHA-256.
  static func isComplete(_ record: MediaFileRecord?, job: Job) -> Bool {
    // The size first, from the directory: a file of another size is not read at all.
    guard let record, record.path == job.path,
      (try? FileManager.default.attributesOfItem(atPath: job.path)[.size] as? NSNumber)?.int64Value == record.bytes,
      let found = MediaFileDigest.sizeAndSHA256(of: URL(fileURLWithPath: job.path))
    else { return false }
    return found.bytes == record.bytes && found.sha256 == record.sha256
  }

  /// Fetches `jobs`, at most ``parallel`` at once, and hands each outcome to `finished` as it
  /// comes (on the calling task, so that it may write to the archive).
  func run(_ jobs: [Job], finished: (Job, Result<MediaFileRecord, FileDownloadError>) throws -> Void) async throws {
    try await withThrowingTaskGroup(of: (Job, Result<MediaFileRecord, FileDownloadError>).self) { group in
      var pending = jobs.makeIterator()
      func start() -> Bool {
        guard let job = pending.next() else { return false }
        let download = self.download
        let (received, limit, overLimit) = (self.received, maxTotalBytes, self.overLimit)
        group.addTask {
          do throws(FileDownloadError) {
            // A run at its limit requests no more files.
            if received.withLock({ $0 >= limit }) { throw overLimit }
            let result = try await download.download(from: job.choice.url, to: URL(fileURLWithPath: job.path)) { chunk throws(FileDownloadError) in
              let total = received.withLock { total in
                total += Int64(chunk.count)
                return total
              }
              if total > limit { throw overLimit }
            }
            guard let found = MediaFileDigest.sizeAndSHA256(of: URL(fileURLWithPath: job.path)), found.bytes == result.bytes else {
              return (job, .failure(.file(path: job.path, reason: "the file changed after it was written")))
            }
            let record = MediaFileRecord(
              mediaKey: job.key, path: job.path, bytes: found.bytes, sha256: found.sha256, sourceURL: job.choice.url.absoluteString)
            return (job, .success(record))
          } catch {
            return (job, .failure(error))
          }
        }
        return true
      }
      for _ in 0..<parallel {
        if !start() { break }
      }
      while let (job, outcome) = try await group.next() {
        try finished(job, outcome)
        _ = start()
      }
    }
  }
}
