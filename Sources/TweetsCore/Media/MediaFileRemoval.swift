import Foundation
import XArchive

#if canImport(Glibc)
  import Glibc
#endif

/// Deletes the downloaded file of a media item that `tweets compliance` removed from an
/// archive, and nothing else. The archive's record names the file, and an archive is a file
/// anyone may hand over: a path it records is deleted only when it is what `tweets media
/// download` writes, `FOLDER/<media_key>.<ext>` with FOLDER absolute, free of `.`, `..` and
/// symbolic links (so that the file is inside the folder it was downloaded into), the file a
/// regular one (never a directory, never a link, so `unlink` and not a recursive removal), of
/// the size and SHA-256 recorded (the file downloaded, not another of the same name). Any other
/// is kept, and the caller says which and why.
///
/// ```swift
/// switch MediaFileRemoval.remove(record) {
/// case .removed, .absent: break
/// case .kept(let reason): print("kept \(record.path): \(reason)")
/// }
/// ```
enum MediaFileRemoval {
  /// What became of a recorded file.
  enum Outcome: Equatable {
    /// It was the file downloaded, and it is deleted.
    case removed
    /// Nothing is there any more.
    case absent
    /// It is left where it is, for `reason`.
    case kept(reason: String)
  }

  /// Deletes the file `record` names when it is the one `tweets media download` saved there.
  static func remove(_ record: MediaFileRecord) -> Outcome {
    let path = record.path
    guard path.hasPrefix("/") else {
      return .kept(
        reason:
          "the archive recorded it as a relative path (as tweets did before it recorded absolute ones), which names a file wherever tweets runs: "
          + "delete it in the folder given to --dir")
    }
    let components = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
    guard !components.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }), let name = components.last, components.count > 1 else {
      return .kept(reason: "the path recorded is not that of a file inside a folder (it holds \"..\", \".\" or \"//\")")
    }
    let ext = name.dropFirst(record.mediaKey.count + 1)
    guard name.hasPrefix(record.mediaKey + "."), !ext.isEmpty, ext.count <= 8, ext.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
    else { return .kept(reason: "its name is not that of media \(record.mediaKey)'s file (\(record.mediaKey).EXT)") }
    let folder = String(path.dropLast(name.count + 1))
    guard let resolved = realpath(folder, nil) else {
      return errno == ENOENT ? .absent : .kept(reason: "its folder cannot be resolved: \(String(cString: strerror(errno)))")
    }
    defer { free(resolved) }
    guard String(cString: resolved) == folder else {
      return .kept(reason: "its folder's path goes through a symbolic link (to \(String(cString: resolved)))")
    }
    var status = stat()
    guard lstat(path, &status) == 0 else {
      return errno == ENOENT ? .absent : .kept(reason: String(cString: strerror(errno)))
    }
    switch status.st_mode & S_IFMT {
    case S_IFREG: break
    case S_IFLNK: return .kept(reason: "it is a symbolic link, not the file downloaded")
    case S_IFDIR: return .kept(reason: "it is a directory, which is never deleted")
    default: return .kept(reason: "it is not a regular file")
    }
    guard Int64(status.st_size) == record.bytes, let found = MediaFileDigest.sizeAndSHA256(of: URL(fileURLWithPath: path)),
      found.bytes == record.bytes, found.sha256 == record.sha256
    else { return .kept(reason: "its size or SHA-256 is not that of the file downloaded (it changed since, or is another file)") }
    guard unlink(path) == 0 else {
      return errno == ENOENT ? .absent : .kept(reason: String(cString: strerror(errno)))
    }
    return .removed
  }
}
