import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A new file that only its owner can read or write: created with `O_CREAT | O_EXCL |
/// O_NOFOLLOW` and mode 0600 in one system call, so that nothing already at the path (a file, or
/// a link another user planted in a shared temporary directory) is opened, and the bytes are
/// never readable by others, not even for a moment (a file created first and `chmod`ed after
/// would be). The client writes multipart bodies with files to one (``MultipartFormData``).
///
/// Invariant: a returned handle owns the descriptor `open` returned and closes it when
/// released; no other code holds that descriptor.
enum PrivateFile {
  /// Why the file could not be created: its path and the system's reason.
  struct Failure: Error, Sendable, CustomStringConvertible {
    let description: String
  }

  /// Creates `url`, which must not exist (not even as a link), mode 0600.
  static func create(_ url: URL) throws(Failure) -> FileHandle {
    let descriptor = openNew(url)
    guard descriptor >= 0 else { throw Failure(description: "cannot create \(url.path): \(String(cString: strerror(errno)))") }
    return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
  }

  /// Creates a new file named `prefix` and a random UUID in `directory`, trying another name
  /// when one is taken (at most ``attempts`` names).
  static func createUnique(in directory: URL, prefix: String) throws(Failure) -> (url: URL, handle: FileHandle) {
    for _ in 0..<attempts {
      let url = directory.appendingPathComponent(prefix + UUID().uuidString)
      let descriptor = openNew(url)
      if descriptor >= 0 { return (url, FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)) }
      guard errno == EEXIST else { throw Failure(description: "cannot create \(url.path): \(String(cString: strerror(errno)))") }
    }
    throw Failure(description: "cannot create a file named \(prefix)… in \(directory.path): \(attempts) random names were all taken")
  }

  /// How many random names ``createUnique(in:prefix:)`` tries.
  static let attempts = 8

  private static func openNew(_ url: URL) -> Int32 {
    open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
  }
}
