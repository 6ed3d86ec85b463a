import Foundation
import TestSupport
import Testing

/// `--base-url http://user:password@host` (a proxy's credentials, say): the user info goes in
/// no archive, checkpoint or message (issue #35, item 9), as processes against the sandbox.
@Suite("tweets: --base-url user info", .sandboxChecks, .serialized, .tags(.peers, .processes), .tier(.peers, .processes))
struct BaseURLUserInfoTests {
  static let password = "hunter2-pass"

  @Test func theUserInfoIsNeitherStoredNorPrinted() async throws {
    let server = try await VerifiedSandbox.start(tweetsPerUser: 30)
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tweets-userinfo-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var components = try #require(URLComponents(url: server.baseURL, resolvingAgainstBaseURL: false))
    components.user = "archivist"
    components.password = Self.password
    let withUserInfo = try #require(components.url).absoluteString

    let database = folder.appendingPathComponent("archive.sqlite")
    let fetch = try await tweets.run(["timeline", "swift_lang", "--limit", "5", "--db", database.path, "--verbose"], baseURL: withUserInfo)
    #expect(fetch.status == 0, "\(fetch.stderr)")
    let reading = try await ArchiveCommandTests.read(database)
    #expect(
      reading.fetches.map(\.command) == [["timeline", "swift_lang", "--limit", "5", "--base-url", server.baseURL.absoluteString]],
      "\(reading.fetches.map(\.command))")
    // The same command with the user info resumes the same fetch.
    let again = try await tweets.run(["timeline", "swift_lang", "--limit", "5", "--db", database.path, "--resume"], baseURL: withUserInfo)
    let fetches = try await ArchiveCommandTests.read(database).fetches
    #expect(again.status == 0 && fetches.count == 1, "\(again.stderr)")

    let output = folder.appendingPathComponent("tweets.jsonl")
    let written = try await tweets.run(
      ["timeline", "swift_lang", "--limit", "5", "--output", output.path, "--format", "jsonl"], baseURL: withUserInfo)
    #expect(written.status == 0, "\(written.stderr)")

    let refused = try await tweets.run(["whoami"], baseURL: "ftp://archivist:\(Self.password)@127.0.0.1:1/")
    #expect(refused.status == 2, "\(refused.stderr)")

    for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
      let bytes = try Data(contentsOf: folder.appendingPathComponent(file))
      #expect(bytes.range(of: Data(Self.password.utf8)) == nil, "\(file) holds the password")
    }
    #expect(!tweets.everything.contains(Self.password), "printed: \(tweets.everything)")
  }
}
