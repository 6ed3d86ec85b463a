import CommandLineSupport
import Foundation
import Testing

@testable import TweetsCore

/// The credentials' directory: one others can write is refused (they could replace the file or
/// its lock), and a credentials file that is a link is locked beside the file it points to, so
/// that every path to one file takes one lock (issue #35, item 9).
@Suite("Profile store: the directory and the lock")
struct ProfileDirectoryTests {
  let root: URL

  init() throws {
    root = FileManager.default.temporaryDirectory.appendingPathComponent("profile-directory-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
  }

  func directory(_ name: String, mode: Int = 0o700) throws -> URL {
    let url = root.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
    return url
  }

  @Test(arguments: [0o770, 0o775, 0o707, 0o777, 0o1777])
  func aDirectoryOthersCanWriteIsRefused(mode: Int) throws {
    defer { try? FileManager.default.removeItem(at: root) }
    let folder = try directory("shared", mode: mode)
    let store = ProfileStore(directory: folder)
    for (what, action) in [
      ("save", { try store.save(Profile(consumerKey: "ck", consumerSecret: "cs"), as: "default") }), ("read", { _ = try store.names() }),
    ] {
      do {
        try action()
        Issue.record("\(what) in a directory of mode \(String(mode, radix: 8)) was allowed")
      } catch {
        let text = "\(error)"
        #expect(error is ProfileFileError && text.contains("chmod 700 \(folder.path)") && text.contains("other users"), "\(text)")
      }
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "nothing written, not even the lock")
  }

  @Test func aLinkedCredentialsFileIsLockedBesideTheFileItPointsTo() throws {
    defer { try? FileManager.default.removeItem(at: root) }
    let dotfiles = try directory("dotfiles")
    let real = dotfiles.appendingPathComponent("tweets-credentials.json")
    let config = try directory("config")
    try FileManager.default.createSymbolicLink(at: config.appendingPathComponent("credentials.json"), withDestinationURL: real)
    let store = ProfileStore(directory: config)
    try store.save(Profile(consumerKey: "ck"), as: "default")
    #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: store.file.path)) == real.path, "the link stays a link")
    #expect(FileManager.default.fileExists(atPath: dotfiles.appendingPathComponent(".credentials.lock").path), "the lock is beside the real file")
    #expect(!FileManager.default.fileExists(atPath: config.appendingPathComponent(".credentials.lock").path))
    #expect(try store.profile(named: "default")?.consumerKey == "ck")
  }

  /// Two config directories whose `credentials.json` links to one file: with a lock in each
  /// directory, saves through the two paths overlap and lose each other's profiles.
  @Test func twoPathsToOneFileShareOneLock() async throws {
    defer { try? FileManager.default.removeItem(at: root) }
    let real = try directory("dotfiles").appendingPathComponent("credentials.json")
    try Data(#"{"profiles": {}}"#.utf8).write(to: real)
    let stores = try ["a", "b"].map { name in
      let config = try directory(name)
      try FileManager.default.createSymbolicLink(at: config.appendingPathComponent("credentials.json"), withDestinationURL: real)
      return ProfileStore(directory: config)
    }
    let perStore = 25
    await withTaskGroup(of: Void.self) { group in
      for (index, store) in stores.enumerated() {
        group.addTask {
          await withCheckedContinuation { continuation in
            Thread {
              for number in 0..<perStore { try? store.save(Profile(consumerKey: "k"), as: "p\(index)-\(number)") }
              continuation.resume()
            }.start()
          }
        }
      }
    }
    let names = try stores[0].names()
    #expect(names.count == 2 * perStore, "\(2 * perStore - names.count) profiles lost")
  }
}
