import Foundation
import TestSupport
import Testing

/// `tweets media download` against a hostile server (issue #43 item 8): `Tests/Peers/canned_server.py`
/// on loopback answers each file as a test says (zeros, or a gzip bomb sent whatever was
/// asked) and logs every request; the media URLs come from a JSON-lines file (`--input`), as
/// anyone may write one.
@Suite("tweets media download against a hostile server", .tags(.processes, .peers), .tier(.processes, .peers))
struct MediaDownloadHostileTests {
  /// A folder for one test, a canned server answering `answers`, and a way to run `tweets`.
  final class Setup: @unchecked Sendable {
    let folder: URL
    let server: LoopbackServer
    let log: URL

    init(_ answers: [String: Any]) async throws {
      folder = FileManager.default.temporaryDirectory.appendingPathComponent("media-hostile-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let file = folder.appendingPathComponent("answers.json")
      try JSONSerialization.data(withJSONObject: answers).write(to: file)
      log = folder.appendingPathComponent("requests.jsonl")
      server = try await LoopbackServer.start(script: "canned_server.py", arguments: ["--answers", file.path, "--log", log.path])
    }

    deinit {
      server.stop()
      try? FileManager.default.removeItem(at: folder)
    }

    /// `http://127.0.0.1:PORT/path`.
    func url(_ path: String) -> String { server.baseURL.absoluteString + path }

    /// A JSON-lines file of one post whose media are `media` (tweets' own jsonl shape).
    func input(_ media: [[String: Any]]) throws -> URL {
      let file = folder.appendingPathComponent("input-\(UUID().uuidString).jsonl")
      try JSONSerialization.data(withJSONObject: ["id": "1", "media": media]).write(to: file)
      return file
    }

    /// A photo at `url` with key `key`.
    static func photo(_ key: String, _ url: String) -> [String: Any] { ["key": key, "type": "photo", "url": url] }

    /// Runs `tweets media download --input FILE --dir DIR` with `arguments`, against `baseURL`
    /// (the canned server itself by default: the API on this machine, as a sandbox's is).
    func download(_ input: URL, into directory: URL, _ arguments: [String] = [], baseURL: String? = nil) async throws -> ProcessResult {
      try await ProcessRunner.run(
        PackagePaths.executable("tweets"),
        ["media", "download", "--input", input.path, "--dir", directory.path, "--config-dir", folder.appendingPathComponent("config").path]
          + ["--base-url", baseURL ?? server.baseURL.absoluteString] + arguments,
        environment: ["NO_COLOR": "1", "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"], timeout: 60)
    }

    /// The requests the server received: path and headers.
    func requests() throws -> [(path: String, headers: [String: String])] {
      guard let text = try? String(contentsOf: log, encoding: .utf8) else { return [] }
      return text.split(separator: "\n").compactMap { line in
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], let path = object["path"] as? String else {
          return nil
        }
        let pairs = (object["headers"] as? [[String]] ?? []).compactMap { $0.count == 2 ? ($0[0].lowercased(), $0[1]) : nil }
        return (path, Dictionary(pairs) { first, _ in first })
      }
    }
  }

  static func size(_ file: URL) -> Int? { (try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? Int }

  /// A URL naming this machine or its link, in any spelling, is not requested while the API is
  /// elsewhere; with the API on this machine (a sandbox), the same file downloads.
  @Test func aMediaURLOnThisMachineOrItsLinkIsRefusedUnlessTheAPIIsThereToo() async throws {
    let setup = try await Setup(["/a.jpg": ["zeros": 1000]])
    let port = setup.server.port
    let hosts = [
      "127.0.0.1:\(port)", "localhost:\(port)", "[::1]:\(port)", "127.1:\(port)", "2130706433:\(port)", "[::ffff:127.0.0.1]:\(port)",
      "169.254.169.254", "[fe80::1]", "0.0.0.0:\(port)",
    ]
    let input = try setup.input(hosts.enumerated().map { Setup.photo("3_\($0.offset)", "http://\($0.element)/a.jpg") })
    let directory = setup.folder.appendingPathComponent("media")
    let refused = try await setup.download(input, into: directory, baseURL: "https://api.x.com")
    #expect(refused.status == 1, "\(refused.stderr)")
    #expect(refused.stderr.contains("0 files downloaded") && refused.stderr.contains("\(hosts.count) failed"), "\(refused.stderr)")
    #expect(refused.stderr.contains("refused http://169.254.169.254: a media file is not fetched from this machine"), "\(refused.stderr)")
    #expect(try setup.requests().isEmpty, "a local URL was requested")
    #expect(Self.size(directory.appendingPathComponent("3_0.jpg")) == nil)

    // The API on this machine (a sandbox served on loopback, whose CDN stand-in is there too).
    let local = try await setup.download(try setup.input([Setup.photo("3_0", setup.url("/a.jpg"))]), into: directory)
    #expect(local.status == 0, "\(local.stderr)")
    #expect(Self.size(directory.appendingPathComponent("3_0.jpg")) == 1000)
  }

  /// A server that compresses though the file's own bytes were asked for (`Accept-Encoding:
  /// identity`) gets its bytes written as sent: 64 MiB of zeros gzipped stay some 65 KB.
  @Test func aGzipAnswerIsWrittenAsSentAndNeverInflated() async throws {
    let setup = try await Setup(["/v.mp4": ["gzip_zeros": 64 << 20]])
    let input = try setup.input([
      ["key": "7_1", "type": "video", "variants": [["bit_rate": 1, "content_type": "video/mp4", "url": setup.url("/v.mp4")]]]
    ])
    let directory = setup.folder.appendingPathComponent("media")
    let result = try await setup.download(input, into: directory)
    #expect(result.status == 0, "\(result.stderr)")
    let size = try #require(Self.size(directory.appendingPathComponent("7_1.mp4")))
    #expect(size > 0 && size < 1 << 20, "the file is \(size) bytes: the gzip answer was inflated")
    let requests = try setup.requests()
    #expect(requests.count == 1 && requests.allSatisfy { $0.headers["accept-encoding"] == "identity" }, "\(requests)")
  }

  /// `--max-bytes` bounds what a run receives over all its files: at the limit every file is
  /// kept; one byte under, the file that passes it fails (and is not left), and so would the
  /// rest; the default is named in the help.
  @Test func theRunsByteLimitHoldsAtItAndStopsPastIt() async throws {
    let setup = try await Setup(["/a.jpg": ["zeros": 1000], "/b.jpg": ["zeros": 1000], "/c.jpg": ["zeros": 1000]])
    let input = try setup.input(["a", "b", "c"].enumerated().map { Setup.photo("3_\($0.offset)", setup.url("/\($0.element).jpg")) })
    let at = setup.folder.appendingPathComponent("at")
    let atLimit = try await setup.download(input, into: at, ["--max-bytes", "3000", "--parallel", "1"])
    #expect(atLimit.status == 0 && atLimit.stderr.contains("3 files downloaded (3000 bytes)"), "\(atLimit.stderr)")

    let past = setup.folder.appendingPathComponent("past")
    let pastLimit = try await setup.download(input, into: past, ["--max-bytes", "2999", "--parallel", "1"])
    #expect(pastLimit.status == 1, "\(pastLimit.stderr)")
    #expect(pastLimit.stderr.contains("2 files downloaded (2000 bytes)") && pastLimit.stderr.contains("1 failed"), "\(pastLimit.stderr)")
    #expect(pastLimit.stderr.contains("3_2: the run reached its limit of 2999 bytes"), "\(pastLimit.stderr)")
    let left = try FileManager.default.contentsOfDirectory(atPath: past.path).filter { $0 != "manifest.jsonl" }.sorted()
    #expect(left == ["3_0.jpg", "3_1.jpg"])

    let help = try await ProcessRunner.run(PackagePaths.executable("tweets"), ["help", "media"], timeout: 60)
    #expect(help.stdout.contains("--max-bytes") && help.stdout.contains("default \(64 << 30)"), "\(help.stdout)")
  }

  /// A manifest planted as a symbolic link (to a file of the user's) is refused: the file it
  /// points to is neither read nor appended to.
  @Test func aManifestThatIsASymbolicLinkIsNotFollowed() async throws {
    let setup = try await Setup(["/a.jpg": ["zeros": 1000]])
    let directory = setup.folder.appendingPathComponent("media")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let victim = setup.folder.appendingPathComponent("notes.txt")
    try Data("mine\n".utf8).write(to: victim)
    try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("manifest.jsonl").path, withDestinationPath: victim.path)
    let result = try await setup.download(try setup.input([Setup.photo("3_1", setup.url("/a.jpg"))]), into: directory)
    #expect(result.status == 1 && result.stderr.contains("manifest.jsonl: it is a symbolic link"), "\(result.stderr)")
    #expect(try String(contentsOf: victim, encoding: .utf8) == "mine\n")
  }
}
