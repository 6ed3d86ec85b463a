import CommandLineSupport
import Foundation
import Testing

@testable import TweetsCore

@Suite("Profile store")
struct ProfileStoreTests {
  func temporaryStore() throws -> ProfileStore {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("profiles-\(UUID().uuidString)/tweets")
    return ProfileStore(directory: directory)
  }

  @Test func savesPrivatelyAndReadsBack() throws {
    let store = try temporaryStore()
    defer { try? FileManager.default.removeItem(at: store.directory.deletingLastPathComponent()) }
    let profile = Profile(consumerKey: "ck", consumerSecret: "cs", accessToken: "at", accessTokenSecret: "ats", userID: "1", username: "me")
    try store.save(profile, as: "default")
    try store.save(Profile(consumerKey: "other"), as: "work")
    #expect(try store.profile(named: "default") == profile)
    #expect(try store.names() == ["default", "work"])
    let mode = try FileManager.default.attributesOfItem(atPath: store.file.path)[.posixPermissions] as? NSNumber
    #expect(mode?.intValue == 0o600)
    let directoryMode = try FileManager.default.attributesOfItem(atPath: store.directory.path)[.posixPermissions] as? NSNumber
    #expect(directoryMode?.intValue == 0o700)
    #expect(store.permissionWarning() == nil)
    // No temporary files are left behind (the lock file stays, empty).
    #expect(try FileManager.default.contentsOfDirectory(atPath: store.directory.path).sorted() == [".credentials.lock", "credentials.json"])
    #expect(try store.remove("work"))
    #expect(try !store.remove("work"))
    #expect(!"\(profile)".contains("cs") && !"\(profile)".contains("ats"))
  }

  @Test func warnsWhenOthersCanRead() throws {
    let store = try temporaryStore()
    defer { try? FileManager.default.removeItem(at: store.directory.deletingLastPathComponent()) }
    try store.save(Profile(consumerKey: "ck"), as: "default")
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: store.file.path)
    #expect(store.permissionWarning()?.contains("chmod 600") == true)
  }

  @Test func aCorruptFileIsAClearError() throws {
    let store = try temporaryStore()
    defer { try? FileManager.default.removeItem(at: store.directory.deletingLastPathComponent()) }
    try FileManager.default.createDirectory(at: store.directory, withIntermediateDirectories: true)
    try Data("{\"profiles\": {\"default\": ".utf8).write(to: store.file)
    #expect {
      try store.profile(named: "default")
    } throws: { error in
      (error as? ProfileFileError)?.description.contains("is not a valid credentials file") == true
    }
  }

  @Test func theDefaultDirectory() {
    #expect(ProfileStore.defaultDirectory(environment: ["TWEETS_CONFIG_DIR": "/x/y"]).path == "/x/y")
    #expect(ProfileStore.defaultDirectory(environment: ["XDG_CONFIG_HOME": "/cfg", "HOME": "/h"]).path == "/cfg/tweets")
    #expect(ProfileStore.defaultDirectory(environment: ["HOME": "/h"]).path == "/h/.config/tweets")
  }

  @Test func aKilledWritersTemporaryFileIsRemovedByTheNextSave() throws {
    let store = try temporaryStore()
    defer { try? FileManager.default.removeItem(at: store.directory.deletingLastPathComponent()) }
    try store.save(Profile(consumerKey: "ck"), as: "default")
    // A process that no longer exists (pid 2^22 - 1 is above Linux's default pid_max) and
    // one that does (this one's parent) each left a temporary file.
    let stale = store.directory.appendingPathComponent(".credentials.json.4194303.12345.tmp")
    let live = store.directory.appendingPathComponent(".credentials.json.\(getppid()).678.tmp")
    try Data("{\"profiles\":".utf8).write(to: stale)
    try Data("{".utf8).write(to: live)
    try store.save(Profile(consumerKey: "ck2"), as: "default")
    #expect(!FileManager.default.fileExists(atPath: stale.path), "the dead writer's file is gone")
    #expect(FileManager.default.fileExists(atPath: live.path), "a live writer's file is left alone")
  }

  @Test func concurrentSavesKeepEveryProfile() async throws {
    let store = try temporaryStore()
    defer { try? FileManager.default.removeItem(at: store.directory.deletingLastPathComponent()) }
    try await withThrowingTaskGroup(of: Void.self) { group in
      for index in 0..<40 {
        group.addTask { try store.save(Profile(consumerKey: "key-\(index)"), as: "profile-\(index)") }
      }
      try await group.waitForAll()
    }
    #expect(try store.names().count == 40)
  }

  @Test func aSymlinkedCredentialsFileStaysALink() throws {
    let store = try temporaryStore()
    defer { try? FileManager.default.removeItem(at: store.directory.deletingLastPathComponent()) }
    let elsewhere = store.directory.deletingLastPathComponent().appendingPathComponent("dotfiles")
    try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: store.directory, withIntermediateDirectories: true)
    let target = elsewhere.appendingPathComponent("tweets-credentials.json")
    try Data(#"{"profiles":{"old":{"consumer_key":"k"}}}"#.utf8).write(to: target)
    try FileManager.default.createSymbolicLink(at: store.file, withDestinationURL: target)
    try store.save(Profile(consumerKey: "new"), as: "new")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: store.file.path) == target.path)
    #expect(try store.names() == ["new", "old"])
  }

  @Test func aCredentialsFileThatCannotBeReadIsNotOverwritten() throws {
    let store = try temporaryStore()
    defer { try? FileManager.default.removeItem(at: store.directory.deletingLastPathComponent()) }
    // Something that exists but is no readable file (tests run as root, so modes do not stop reads).
    try FileManager.default.createDirectory(at: store.file, withIntermediateDirectories: true)
    #expect(throws: (any Error).self) { try store.save(Profile(consumerKey: "k"), as: "default") }
    var isDirectory: ObjCBool = false
    #expect(FileManager.default.fileExists(atPath: store.file.path, isDirectory: &isDirectory) && isDirectory.boolValue)
  }
}
