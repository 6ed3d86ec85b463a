import Foundation

/// Replaces a file atomically: the data goes to a temporary file in the same directory
/// (mode 0600), is flushed to disk, and is renamed over the old file, whose directory is then
/// flushed too. A crash or a `kill -9` at any moment leaves the old file or the new one, never
/// a mix. The credentials file and `tweets --output`'s checkpoint are written this way.
///
/// ```swift
/// try AtomicFile.write(Data("{}".utf8), to: URL(fileURLWithPath: "/tmp/state.json"))
/// ```
package enum AtomicFile {
  /// Why a file could not be replaced: the path and the system's reason.
  package struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
    /// What failed, with the path.
    package let description: String
    init(_ description: String) { self.description = description }
  }

  /// Replaces `file` with `data`; the temporary file is removed if anything fails.
  package static func write(_ data: Data, to file: URL) throws(Failure) {
    let temporary = file.deletingLastPathComponent()
      .appendingPathComponent(".\(file.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
    let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw Failure("cannot create \(temporary.path): \(String(cString: strerror(errno)))")
    }
    var writeError: Int32 = 0
    do throws(WriteFailure) {
      try CheckedWrite.all(data, to: descriptor, naming: temporary.path)
      if fsync(descriptor) != 0 { writeError = errno }
    } catch {
      writeError = error.code
    }
    let ok = writeError == 0
    close(descriptor)
    guard ok, rename(temporary.path, file.path) == 0 else {
      let reason = String(cString: strerror(ok ? errno : writeError))
      unlink(temporary.path)
      throw Failure("cannot save \(file.path): \(reason)")
    }
    // The rename itself is durable once the directory is synced.
    let directory = open(file.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if directory >= 0 {
      fsync(directory)
      close(directory)
    }
  }

  /// Removes the temporary files of `file` that a killed writer left behind (those whose
  /// process is gone); call it while holding whatever lock serializes the writers.
  package static func removeStaleTemporaries(of file: URL) {
    let directory = file.deletingLastPathComponent()
    let prefix = ".\(file.lastPathComponent)."
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
    for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
      let parts = name.dropFirst(prefix.count).split(separator: ".")
      guard let pid = parts.first.flatMap({ pid_t($0) }), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
      unlink(directory.appendingPathComponent(name).path)
    }
  }
}
