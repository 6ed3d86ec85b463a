import Foundation

/// A credentials file: one JSON object of named profiles, `credentials.json` in a program's
/// config directory. `tweets` keeps its X profiles in one, `oauth1` its provider profiles in
/// another; both go through this one type.
///
/// The file is created with mode 0600 in a 0700 directory and replaced atomically (written to a
/// temporary file in the same directory, flushed, then renamed over the old one), so a crash or
/// a kill while saving leaves either the old file or the new one, never a truncated one.
/// Changes hold an exclusive lock (`flock` on `.credentials.lock`) from reading to renaming, so
/// two processes saving different profiles at once both keep their profile.
///
/// Each operation resolves its paths once, at its start: the directory's real path, and, when
/// `credentials.json` is a link (a dotfiles manager's), the file it points to, which is the
/// file read and replaced (the link stays a link) and beside which the lock is taken, so that
/// every path to one file takes one lock. A directory that others can write (group or world
/// writable, the config directory or the one the link points into) is refused, reading and
/// writing alike: whoever can write it can replace the credentials or their lock. The error
/// says `chmod 700 DIR`.
///
/// ```swift
/// let store = ProfileFile<Profile>(directory: URL(fileURLWithPath: "/home/me/.config/tweets"))
/// try store.save(Profile(consumerKey: "k", consumerSecret: "s"), as: "default")
/// ```
package struct ProfileFile<Profile: Codable & Sendable>: Sendable {
  /// The folder holding `credentials.json`, created 0700 on the first save.
  package let directory: URL
  /// `credentials.json` in ``directory``: every profile, 0600, replaced atomically on save.
  package var file: URL { directory.appendingPathComponent("credentials.json") }

  struct Contents: Codable {
    var profiles: [String: Profile]
  }

  /// A store in `directory` (see ``defaultDirectory(program:environment:)``); nothing is read yet.
  package init(directory: URL) {
    self.directory = directory
  }

  /// A program's default directory: `$<PROGRAM>_CONFIG_DIR` (`TWEETS_CONFIG_DIR`), else
  /// `$XDG_CONFIG_HOME/<program>`, else `~/.config/<program>`.
  package static func defaultDirectory(program: String, environment: [String: String]) -> URL {
    let variable = program.uppercased().replacingOccurrences(of: "-", with: "_") + "_CONFIG_DIR"
    if let explicit = environment[variable], !explicit.isEmpty { return URL(fileURLWithPath: explicit) }
    if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty { return URL(fileURLWithPath: xdg).appendingPathComponent(program) }
    let home = environment["HOME"] ?? NSHomeDirectory()
    return URL(fileURLWithPath: home).appendingPathComponent(".config/" + program)
  }

  /// The profile stored under `name`, or `nil`.
  package func profile(named name: String) throws -> Profile? {
    try load(from: resolve(creating: false)).profiles[name]
  }

  /// The names of the stored profiles.
  package func names() throws -> [String] {
    try load(from: resolve(creating: false)).profiles.keys.sorted()
  }

  /// Stores `profile` under `name`, keeping every other profile, even when another `tweets`
  /// saves at the same time.
  /// - Throws: when the folder or the file cannot be written or the existing file cannot be read.
  package func save(_ profile: Profile, as name: String) throws {
    try locked { location in
      var contents = try load(from: location)
      contents.profiles[name] = profile
      try write(contents, to: location)
    }
  }

  /// Removes a profile; `false` when there was none.
  @discardableResult
  package func remove(_ name: String) throws -> Bool {
    try locked { location in
      var contents = try load(from: location)
      guard contents.profiles.removeValue(forKey: name) != nil else { return false }
      try write(contents, to: location)
      return true
    }
  }

  /// Changes one profile holding the store's lock from reading to writing: `change` gets the
  /// profile stored now (maybe just saved by another process) and returns what to store, or
  /// `nil` to remove it. Its work may be asynchronous (a token renewal): another process that
  /// wants the lock waits until it is done.
  package func update<R: Sendable>(_ name: String, _ change: (Profile?) async throws -> (Profile?, R)) async throws -> R {
    let location = try resolve(creating: true)
    let descriptor = try lock(location)
    defer { unlock(descriptor) }
    var contents = try load(from: location)
    let (profile, result) = try await change(contents.profiles[name])
    contents.profiles[name] = profile
    try write(contents, to: location)
    return result
  }

  /// Runs `change` holding the store's exclusive lock (released when the process dies, too).
  func locked<R>(_ change: (Location) throws -> R) throws -> R {
    let location = try resolve(creating: true)
    let descriptor = try lock(location)
    defer { unlock(descriptor) }
    return try change(location)
  }

  /// Where one operation reads, locks and writes, resolved once at its start.
  struct Location {
    /// The credentials file itself: `credentials.json` in the directory's real path, or the
    /// file it links to.
    let file: URL
    /// `.credentials.lock`, beside ``file``.
    let lock: URL
  }

  /// The paths of one operation: the directory (created 0700 when `creating` and missing)
  /// resolved to its real path, and `credentials.json` to the file it links to, if it is a
  /// link. Refuses a directory that others can write.
  func resolve(creating: Bool) throws -> Location {
    let fileManager = FileManager.default
    var isDirectory: ObjCBool = false
    if !fileManager.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
      guard creating else { return Location(file: file, lock: directory.appendingPathComponent(".credentials.lock")) }
      do {
        try fileManager.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      } catch {
        throw ProfileFileError("cannot create \(directory.path): \((error as NSError).localizedDescription)")
      }
    }
    let realDirectory = try Self.realPath(directory)
    try Self.refuseIfOthersCanWrite(realDirectory)
    var credentials = realDirectory.appendingPathComponent("credentials.json")
    if let destination = try? fileManager.destinationOfSymbolicLink(atPath: credentials.path) {
      let target = destination.hasPrefix("/") ? URL(fileURLWithPath: destination) : realDirectory.appendingPathComponent(destination)
      let targetDirectory = try Self.realPath(target.deletingLastPathComponent())
      credentials = targetDirectory.appendingPathComponent(target.lastPathComponent)
      // A chain of links ends at the file realpath finds, when it exists.
      if fileManager.fileExists(atPath: credentials.path) { credentials = try Self.realPath(credentials) }
      try Self.refuseIfOthersCanWrite(credentials.deletingLastPathComponent())
    }
    return Location(file: credentials, lock: credentials.deletingLastPathComponent().appendingPathComponent(".credentials.lock"))
  }

  /// `url` with every link resolved (`realpath`).
  static func realPath(_ url: URL) throws -> URL {
    // realpath allocates the result with malloc; it is copied into a String, then freed here.
    guard let resolved = realpath(url.path, nil) else {
      throw ProfileFileError("cannot resolve \(url.path): \(String(cString: strerror(errno)))")
    }
    defer { free(resolved) }
    return URL(fileURLWithPath: String(cString: resolved))
  }

  /// Throws when others than the owner can write `directory` (group or world writable).
  static func refuseIfOthersCanWrite(_ directory: URL) throws {
    var status = stat()
    guard stat(directory.path, &status) == 0 else {
      throw ProfileFileError("cannot read the permissions of \(directory.path): \(String(cString: strerror(errno)))")
    }
    let mode = Int(status.st_mode) & 0o7777
    guard mode & 0o022 != 0 else { return }
    throw ProfileFileError(
      "\(directory.path) can be written by other users (mode \(String(mode, radix: 8))), who could replace the credentials or their lock; nothing was read or written. Run: chmod 700 \(directory.path)"
    )
  }

  /// Takes the store's exclusive lock (`flock` on `.credentials.lock` beside the credentials
  /// file), waiting for another process that holds it; the descriptor to give back to
  /// ``unlock(_:)``. A lock file that is a link is refused (`O_NOFOLLOW`).
  private func lock(_ location: Location) throws -> Int32 {
    let lockFile = location.lock
    let descriptor = open(lockFile.path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
    guard descriptor >= 0 else {
      throw ProfileFileError("cannot open \(lockFile.path): \(String(cString: strerror(errno)))")
    }
    while flock(descriptor, LOCK_EX) != 0 {
      guard errno == EINTR else {
        let reason = String(cString: strerror(errno))
        close(descriptor)
        throw ProfileFileError("cannot lock \(lockFile.path): \(reason)")
      }
    }
    AtomicFile.removeStaleTemporaries(of: location.file)
    return descriptor
  }

  private func unlock(_ descriptor: Int32) {
    flock(descriptor, LOCK_UN)
    close(descriptor)
  }

  /// A warning when the file can be read by others than its owner, else `nil`.
  package func permissionWarning() -> String? {
    let file = (try? resolve(creating: false))?.file ?? self.file
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: file.path),
      let mode = (attributes[.posixPermissions] as? NSNumber)?.uint16Value, mode & 0o077 != 0
    else { return nil }
    return "warning: \(file.path) can be read by other users (mode \(String(mode, radix: 8))); run: chmod 600 \(file.path)"
  }

  // MARK: - Reading and writing

  func load(from location: Location) throws -> Contents {
    let file = location.file
    let data: Data
    do {
      data = try Data(contentsOf: file)
    } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
      // Only "there is no file" means no profiles: any other failure (permissions, a broken
      // link) must not let the next save replace the profiles it could not read.
      return Contents(profiles: [:])
    } catch {
      throw ProfileFileError("cannot read \(file.path): \((error as NSError).localizedDescription)")
    }
    do {
      return try JSONDecoder().decode(Contents.self, from: data)
    } catch {
      throw ProfileFileError(
        "\(file.path) is not a valid credentials file (\(Self.reason(error))); fix it or remove it and log in again")
    }
  }

  func write(_ contents: Contents, to location: Location) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    let data = try encoder.encode(contents)
    do {
      // A credentials file that is a symbolic link (a dotfiles manager's) stays one: the
      // file it points to (resolved once, with the lock beside it) is replaced.
      try AtomicFile.write(data, to: location.file)
    } catch {
      throw ProfileFileError(error.description)
    }
  }

  /// A decoding error in words: the corrupt place, not the type's internals.
  static func reason(_ error: any Error) -> String {
    if case .dataCorrupted(let context) = error as? DecodingError { return context.debugDescription }
    return "\(error)"
  }
}

/// Why the credentials file could not be read, locked or written: the path and the system's reason.
package struct ProfileFileError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What failed, with the path, and what to do.
  package let description: String
  init(_ description: String) { self.description = description }
}
