import Foundation
import TestSupport
import Testing

/// `tweets media download` (issue #31 item 4) against the sandbox served on loopback, whose
/// media URLs point to its other origin, a CDN stand-in on another port that records every
/// header it receives: a photo, a GIF and a video with three variants saved (the video's best
/// mp4), their checksums recorded and checked with Python's hashlib over the stand-in's own
/// bytes, a kill mid-file resumed, and no credential seen by the stand-in.
@Suite("tweets media download", .sandboxChecks, .tags(.processes, .peers), .tier(.processes, .peers))
struct MediaDownloadTests {
  /// An archive of the three accounts' newest posts, which hold the sandbox's photo, GIF and video.
  static func archive(_ tweets: TweetsRunner) async throws -> String {
    let archive = tweets.configDirectory.appendingPathComponent("a.sqlite").path
    for user in ["sandbox_user", "swift_lang", "oauth_fan"] {
      let fetched = try await tweets.run(["timeline", user, "--limit", "20", "--db", archive])
      precondition(fetched.status == 0, fetched.stderr)
    }
    return archive
  }

  /// Runs Python (code this project did not write) on `script` with `arguments`; its stdout as JSON.
  static func python(_ script: String, _ arguments: [String]) async throws -> Any {
    let result = try await ProcessRunner.run(
      URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script] + arguments, timeout: TweetsRunner.hangTimeout)
    return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
  }

  /// Each media item of the archive: its type, variants (X's JSON), and recorded file, read with sqlite3.
  static func rows(_ archive: String) async throws -> [String: [String: Any]] {
    let script = """
      import json, sqlite3, sys
      db = sqlite3.connect(sys.argv[1])
      rows = db.execute('select m.media_key, m.type, m.variants, f.path, f.bytes, f.sha256, f.source_url from media m left join media_files f using (media_key)')
      print(json.dumps({k: {'type': t, 'variants': json.loads(v) if v else None, 'path': p, 'bytes': b, 'sha256': s, 'source': u} for k, t, v, p, b, s, u in rows}))
      """
    return try await python(script, [archive]) as? [String: [String: Any]] ?? [:]
  }

  /// The SHA-256 of each URL's body as Python's urllib fetches it and hashlib sums it.
  static func sha256(ofURLs urls: [String]) async throws -> [String: String] {
    let script = """
      import hashlib, json, sys, urllib.request
      print(json.dumps({u: hashlib.sha256(urllib.request.urlopen(u).read()).hexdigest() for u in sys.argv[1:]}))
      """
    return try await python(script, urls) as? [String: String] ?? [:]
  }

  /// The SHA-256 of each file on disk, by hashlib.
  static func sha256(ofFiles files: [String]) async throws -> [String: String] {
    let script = "import hashlib, json, sys; print(json.dumps({f: hashlib.sha256(open(f, 'rb').read()).hexdigest() for f in sys.argv[1:]}))"
    return try await python(script, files) as? [String: String] ?? [:]
  }

  /// The best mp4 of X's variants: the highest `bit_rate`.
  static func best(_ variants: [[String: Any]]) -> String? {
    variants.filter { $0["content_type"] as? String == "video/mp4" }.max { ($0["bit_rate"] as? Int ?? 0) < ($1["bit_rate"] as? Int ?? 0) }?["url"]
      as? String
  }

  /// Every header the stand-in received holds none of the run's secrets.
  static func expectNoCredential(_ requests: [VerifiedSandbox.OffsiteRequest]) {
    let secrets = [
      VerifiedSandbox.consumerKey, VerifiedSandbox.consumerSecret, VerifiedSandbox.accessToken, VerifiedSandbox.accessTokenSecret,
      VerifiedSandbox.bearerToken,
    ]
    #expect(!requests.isEmpty)
    for request in requests {
      for (name, value) in request.headers {
        #expect(!["authorization", "proxy-authorization", "cookie"].contains(name.lowercased()), "\(request.target): \(name)")
        #expect(!secrets.contains { value.contains($0) }, "\(request.target): \(name)")
      }
    }
  }

  @Test func thePhotoTheGIFAndTheVideosBestVariantAreSavedAndRecordedWithNoCredentialSent() async throws {
    let server = try await VerifiedSandbox.start()
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()
    let archive = try await Self.archive(tweets)
    let directory = tweets.configDirectory.appendingPathComponent("media").path
    let result = try await tweets.run(["media", "download", "--db", archive, "--dir", directory])
    #expect(result.status == 0, "\(result.stderr)")

    let rows = try await Self.rows(archive)
    let types = Set(rows.values.compactMap { $0["type"] as? String })
    #expect(types == ["photo", "video", "animated_gif"], "\(rows)")
    let video = try #require(rows.first { $0.value["type"] as? String == "video" })
    let variants = try #require(video.value["variants"] as? [[String: Any]])
    #expect(variants.count == 3 && variants.contains { $0["content_type"] as? String == "application/x-mpegURL" })
    #expect(video.value["source"] as? String == Self.best(variants))

    // Each file: where it should be, its size and SHA-256 as recorded, as on disk, and as the stand-in serves it.
    let paths = rows.values.compactMap { $0["path"] as? String }
    let sources = rows.values.compactMap { $0["source"] as? String }
    #expect(paths.count == rows.count && sources.count == rows.count)
    let onDisk = try await Self.sha256(ofFiles: paths)
    let served = try await Self.sha256(ofURLs: sources)
    let offsite = try await server.offsite()
    for (key, row) in rows {
      let path = try #require(row["path"] as? String)
      let source = try #require(row["source"] as? String)
      let ext = row["type"] as? String == "photo" ? "jpg" : "mp4"
      #expect(path == "\(directory)/\(key).\(ext)")
      #expect(row["sha256"] as? String == onDisk[path] && onDisk[path] == served[source] && onDisk[path] != nil, "\(key)")
      let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
      let standIn = URL(string: source).flatMap { offsite.files[$0.path] }
      #expect(row["bytes"] as? Int == size && size == standIn, "\(key)")
      if row["type"] as? String == "photo" { #expect(URL(string: source)?.query?.contains("name=orig") == true) }
    }
    Self.expectNoCredential(offsite.requests)

    // A re-run finds every file complete and downloads none.
    let before = try await server.offsite().requests.count
    let again = try await tweets.run(["media", "download", "--db", archive, "--dir", directory])
    #expect(
      again.status == 0 && again.stderr.contains("0 files downloaded") && again.stderr.contains("\(rows.count) already complete"), "\(again.stderr)")
    #expect(try await server.offsite().requests.count == before)
  }

  @Test func aKillMidFileLeavesNoHalfFileAndTheNextRunCompletesIt() async throws {
    let server = try await VerifiedSandbox.start()
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()
    let archive = try await Self.archive(tweets)
    let directory = tweets.configDirectory.appendingPathComponent("media")
    let video = try #require(try await Self.rows(archive).first { $0.value["type"] as? String == "video" })
    let source = try #require(Self.best(video.value["variants"] as? [[String: Any]] ?? []).flatMap(URL.init(string:)))
    // 136,000 bytes in 8 KiB chunks half a second apart: eight seconds to kill it in.
    try await server.offsiteFault(source.path, ["fault": "slow", "pause": 0.5])

    let run = try tweets.interactive(["media", "download", "--db", archive, "--dir", directory.path, "--parallel", "1"])
    let final = directory.appendingPathComponent("\(video.key).mp4")
    let partial = directory.appendingPathComponent(".\(video.key).mp4.part")
    let deadline = Date().addingTimeInterval(30)
    // Polled with Task.sleep: the suite's tests await their processes off the cooperative
    // threads, so a sleeping task resumes well within the eight seconds.
    while Date() < deadline, ((try? FileManager.default.attributesOfItem(atPath: partial.path)[.size] as? Int) ?? 0) == 0 {
      try await Task.sleep(for: .milliseconds(20))
    }
    kill(run.pid, SIGKILL)
    _ = await run.wait(timeout: 10)
    let written = (try? FileManager.default.attributesOfItem(atPath: partial.path)[.size] as? Int) ?? 0
    #expect(written > 0 && written < 136_000, "the kill landed mid-file: \(written) bytes")
    #expect(!FileManager.default.fileExists(atPath: final.path))

    let resumed = try await tweets.run(["media", "download", "--db", archive, "--dir", directory.path])
    #expect(resumed.status == 0, "\(resumed.stderr)")
    let row = try #require(try await Self.rows(archive)[video.key])
    let onDisk = try await Self.sha256(ofFiles: [final.path])[final.path]
    let served = try await Self.sha256(ofURLs: [source.absoluteString])[source.absoluteString]
    #expect(onDisk != nil && row["sha256"] as? String == onDisk && onDisk == served)
    #expect(!FileManager.default.fileExists(atPath: partial.path))
    Self.expectNoCredential(try await server.offsite().requests)
  }

  @Test func aTruncatedBodyFailsTheFileAndARedirectToAnotherOriginCarriesNoCredential() async throws {
    let server = try await VerifiedSandbox.start()
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()
    let archive = try await Self.archive(tweets)
    let rows = try await Self.rows(archive)
    let gif = try #require(rows.first { $0.value["type"] as? String == "animated_gif" })
    let gifURL = try #require(Self.best(gif.value["variants"] as? [[String: Any]] ?? []).flatMap(URLComponents.init(string:)))
    let video = try #require(rows.first { $0.value["type"] as? String == "video" })
    let videoURL = try #require(Self.best(video.value["variants"] as? [[String: Any]] ?? []).flatMap(URLComponents.init(string:)))
    // The GIF is cut short; the video moves to localhost, another origin (the same stand-in, which logs it).
    try await server.offsiteFault(gifURL.path, ["fault": "truncate"])
    var elsewhere = videoURL
    elsewhere.host = "localhost"
    try await server.offsiteFault(videoURL.path, ["fault": "redirect", "location": try #require(elsewhere.string)])
    let directory = tweets.configDirectory.appendingPathComponent("media").path

    let first = try await tweets.run(["media", "download", "--db", archive, "--dir", directory])
    // libcurl finds the body short of its Content-Length first and says so; FileDownload checks it too.
    #expect(first.status == 1 && first.stderr.contains("\(gif.key): ") && first.stderr.contains("1 failed"), "\(first.stderr)")
    #expect(!FileManager.default.fileExists(atPath: "\(directory)/\(gif.key).mp4"))
    #expect(!FileManager.default.fileExists(atPath: "\(directory)/.\(gif.key).mp4.part"))
    let log = try await server.offsite().requests
    #expect(log.contains { request in request.headers.contains { $0.name.lowercased() == "host" && $0.value.hasPrefix("localhost") } })
    Self.expectNoCredential(log)

    let second = try await tweets.run(["media", "download", "--db", archive, "--dir", directory])
    #expect(second.status == 0 && second.stderr.contains("1 files downloaded"), "\(second.stderr)")
  }

  @Test func anArchiveMadeBeforeIsLookedUpAgainOnlyWithRefetchAndWithinTheBudget() async throws {
    let server = try await VerifiedSandbox.start()
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()
    let archive = try await Self.archive(tweets)
    // As an archive made before media downloads: no variants stored.
    _ = try await Self.python(
      "import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); db.execute('update media set variants = null'); db.commit(); print('[]')", [archive])
    let directory = tweets.configDirectory.appendingPathComponent("media").path
    let photos = try await Self.rows(archive).values.filter { $0["type"] as? String == "photo" }.count
    let without = try await tweets.run(["media", "download", "--db", archive, "--dir", directory])
    #expect(without.status == 0 && without.stderr.contains("2 videos or GIFs were stored without their variants"), "\(without.stderr)")
    #expect(without.stderr.contains("\(photos) files downloaded") && without.stderr.contains("2 need --refetch"), "\(without.stderr)")
    #expect(try await server.stats().attempts("/2/tweets") == 0)

    // Another profile, whose ledger has bought nothing today: the lookup's worst case (two
    // posts) is over a budget of a tenth of a cent, and refused before it is sent.
    let other = try TweetsRunner(server: server)
    try await other.loginWithTokens()
    let refused = try await other.run(["media", "download", "--db", archive, "--dir", directory, "--refetch", "--max-cost", "0.001"])
    #expect(refused.status == 7, "\(refused.stderr)")
    #expect(try await server.stats().attempts("/2/tweets") == 0)

    let refetched = try await other.run(["media", "download", "--db", archive, "--dir", directory, "--refetch"])
    #expect(
      refetched.status == 0 && refetched.stderr.contains("2 files downloaded (") && refetched.stderr.contains("\(photos) already complete"),
      "\(refetched.stderr)")
    #expect(try await server.stats().attempts("/2/tweets") == 1)
    let rows = try await Self.rows(archive)
    for row in rows.values where row["type"] as? String != "photo" {
      #expect(row["source"] as? String == Self.best(row["variants"] as? [[String: Any]] ?? []) && row["source"] != nil)
    }
  }

  @Test func fromJSONLinesTheFilesAreRecordedInAManifest() async throws {
    let server = try await VerifiedSandbox.start()
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()
    let lines = try await tweets.run(["timeline", "swift_lang", "--limit", "20", "--format", "jsonl"])
    #expect(lines.status == 0)
    let directory = tweets.configDirectory.appendingPathComponent("media").path
    let result = try await tweets.run(["media", "download", "--input", "-", "--dir", directory], stdin: lines.stdout)
    #expect(result.status == 0, "\(result.stderr)")
    let manifest = try String(contentsOfFile: "\(directory)/manifest.jsonl", encoding: .utf8)
    let records = manifest.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    #expect(!records.isEmpty)
    let paths = records.compactMap { $0["path"] as? String }
    let onDisk = try await Self.sha256(ofFiles: paths)
    for record in records {
      let path = try #require(record["path"] as? String)
      #expect(record["sha256"] as? String == onDisk[path] && onDisk[path] != nil)
    }
    // Bad input is refused by name, and no flag goes where it does not belong.
    #expect(try await tweets.run(["media", "download", "--input", "-", "--dir", directory], stdin: "not json\n").status == 2)
    #expect(try await tweets.run(["media", "download", "--input", "-", "--dir", directory, "--refetch"]).status == 2)
    #expect(try await tweets.run(["media", "download", "--dir", directory]).status == 2)
    #expect(try await tweets.run(["media", "download", "--db", "x.sqlite"]).status == 2)
    #expect(try await tweets.run(["media", "download", "--input", "-", "--dir", directory, "--parallel", "99"]).status == 2)
  }
}
