import CommandLineSupport
import Foundation
import NetworkClient
import XAPI
import XArchive

/// `tweets media download`: the photos (full size) and videos and GIFs (the mp4 of the highest
/// bit rate) of an archive or of JSON lines, saved as `DIR/<media_key>.<ext>` from X's CDN with
/// no credential sent there, a few at a time, resumable; each file's path, size and SHA-256
/// recorded in the archive's `media_files` (or `DIR/manifest.jsonl` for JSON lines).
struct MediaCommand: TweetsCommand {
  let name = "media"
  let shared: SharedOptions = [.signedIn, .database]
  static let directory = Option<String?>.value("dir", placeholder: "DIR", help: "Where the files go (created if absent).", .string)
  static let input = Option<String?>.value(
    "input", placeholder: "FILE", help: "JSON lines (tweets' jsonl or raw output) instead of --db; standard input for \"-\".", .string)
  static let parallel = Option<Int>.value(
    "parallel", placeholder: "N", default: .value(MediaDownloads.defaultParallel),
    help: "Files downloaded at once (default \(.default), at most \(String(MediaDownloads.maxParallel))).",
    .integer(in: 1...MediaDownloads.maxParallel))
  static let maxBytes = Option<Int>.value(
    "max-bytes", placeholder: "BYTES", default: .value(Int(MediaDownloads.defaultMaxTotalBytes)),
    help: "The most bytes the run receives, all files together (default \(.default), 64 GiB).", .integer(in: 1...Int.max))
  static let refetch = Option.flag(
    "refetch",
    help:
      "With --db: look up again the posts of videos and GIFs stored without their variants (an archive made before media downloads), billed as post lookups and within --max-cost."
  )

  var spec: CommandSpec {
    makeSpec(
      summary: "Download the photos, videos and GIFs of an archive (--db) or of JSON lines (--input) into a directory.",
      options: [Self.directory, Self.input, Self.parallel, Self.maxBytes, Self.refetch],
      positionals: [PositionalSpec("action", help: "download")],
      discussion: """
        Photos come at full size (name=orig); a video or GIF as its mp4 of the highest bit rate.
        Each file is saved as DIR/<media_key>.<ext>, written to DIR/.<name>.part first and renamed
        once complete, so a killed run leaves no half file under the final name; a re-run skips
        each file whose size and SHA-256 match what was recorded: in the archive's media_files
        table (--db), or in DIR/manifest.jsonl (--input). X's CDN gets no credential, on the first
        request or after a redirect. A file is at most 4 GiB, a run receives at most --max-bytes
        (64 GiB by default) over all its files, and a silence of 60 s fails a file. The files'
        own bytes are asked for (no compression undone), only over http or https, and never
        from this machine or its link (localhost, 127.0.0.0/8, ::1, 169.254.0.0/16, fe80::/10,
        0.0.0.0) unless --base-url is on this machine too (a sandbox served there).
        Example: tweets media download --db climate.sqlite --dir media --parallel 8
        """)
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    guard arguments.positionals == ["download"] else { throw UsageError("media has one action, download: tweets media download --db FILE --dir DIR") }
    guard let written = try arguments.value(Self.directory), !written.isEmpty else { throw UsageError("give --dir DIR, where the files go") }
    let directory = URL(fileURLWithPath: written)
    let input = try arguments.value(Self.input)
    let refetch = arguments[Self.refetch]
    let parallel = try arguments.value(Self.parallel)
    let maxBytes = Int64(try arguments.value(Self.maxBytes))
    let database = session.options.database
    switch (database, input) {
    case (nil, nil): throw UsageError("give --db FILE or --input FILE (JSON lines; - for standard input)")
    case (.some, .some): throw UsageError("give --db FILE or --input FILE, not both")
    default: break
    }
    if refetch && database == nil { throw UsageError("--refetch looks posts up again into an archive: give --db FILE") }
    if session.sandbox != nil {
      throw UsageError("the in-process sandbox has no CDN: serve it (tweets sandbox serve) and give --base-url instead of --sandbox")
    }
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
      throw TweetsFailure("cannot create \(directory.path): \(error.localizedDescription)", exitCode: .failure)
    }
    // The paths recorded are absolute and resolved: `tweets compliance`, run from anywhere,
    // deletes the files downloaded here and nothing of the same name elsewhere.
    guard let resolved = realpath(directory.path, nil) else {
      throw TweetsFailure("cannot resolve \(directory.path): \(String(cString: strerror(errno)))", exitCode: .failure)
    }
    let folder = String(cString: resolved)
    free(resolved)
    // A media URL on this machine or its link is X's only when the API is there too (a sandbox).
    let localAPI = session.options.baseURL.host.map(LocalHosts.isLocal) ?? false
    let download = FileDownload(screen: { MediaURLPolicy.refusal($0, allowingLocal: localAPI) })
    let downloads = MediaDownloads(download: download, parallel: parallel, maxTotalBytes: maxBytes)
    if let database {
      guard FileManager.default.fileExists(atPath: database.path) else { throw UsageError("no archive at \(database.path)") }
      let archive = try TweetArchive(path: database.path)
      defer { archive.close() }
      if refetch { try await Self.refetchVariants(archive, session) }
      let items = try archive.mediaItems().map(\.media)
      return try await Self.download(items, into: folder, with: downloads, session) { key in
        try archive.mediaFile(key)
      } record: {
        try archive.record($0)
      }
    }
    let lines: [Substring]
    if input == "-" {
      var all: [Substring] = []
      while let line = session.terminal.readLine() { all.append(Substring(line)) }
      lines = all
    } else {
      guard let data = FileManager.default.contents(atPath: input!) else { throw UsageError("cannot read \(input!)") }
      lines = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
    }
    var manifest = try MediaManifest(directory: URL(fileURLWithPath: folder))
    let found = manifest.records
    return try await Self.download(try MediaInput.items(lines), into: folder, with: downloads, session) {
      found[$0]
    } record: {
      try manifest.append($0)
    }
  }

  /// Looks up again (v2, 100 ids a request, billed and within the run's budget as `hydrate`'s
  /// lookups are) the posts of the videos and GIFs stored without variants, and stores them.
  static func refetchVariants(_ archive: TweetArchive, _ session: Session) async throws {
    var seen = Set<String>()
    let ids = try archive.mediaItems().filter { MediaFileChoice.choose(for: $0.media) == .needsVariants }.compactMap(\.postID).filter {
      seen.insert($0).inserted
    }
    guard !ids.isEmpty else { return }
    session.terminal.err("tweets: looking up \(ids.count) posts again for their videos' and GIFs' variants (billed as post lookups)")
    let (client, _) = try session.client(api: .v2)
    var fetch = try archive.beginFetch(command: session.options.commandLine, resume: false)
    var done = 0
    for start in stride(from: 0, to: ids.count, by: 100) {
      let batch = Array(ids[start..<min(ids.count, start + 100)])
      let found = try await IDLookup.lookUp(batch, client: client, session)
      done += batch.count
      try archive.store(lookup: found.tweets, body: found.body, missing: found.missing, inputDone: done, in: &fetch, complete: done == ids.count)
    }
  }

  /// Downloads what `items` have to download into `directory`, skipping each file `recorded`
  /// shows complete, and `record`s each new one.
  static func download(
    _ items: [Media], into directory: String, with downloads: MediaDownloads, _ session: Session,
    recorded: (String) throws -> MediaFileRecord?, record: (MediaFileRecord) throws -> Void
  ) async throws -> ExitCode {
    let terminal = session.terminal
    var jobs: [MediaDownloads.Job] = []
    var skipped = 0, needVariants = 0, unavailable = 0
    let base = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
    for media in items {
      switch MediaFileChoice.choose(for: media) {
      case .file(let choice):
        let job = MediaDownloads.Job(key: media.key, choice: choice, path: base + "/" + choice.fileName)
        if MediaDownloads.isComplete(try recorded(media.key), job: job) { skipped += 1 } else { jobs.append(job) }
      case .needsVariants:
        needVariants += 1
      case .none(let reason):
        unavailable += 1
        terminal.err(TerminalText.visible("tweets: \(media.key): nothing to download: \(reason)"))
      }
    }
    if needVariants > 0 {
      terminal.err(
        "tweets: \(needVariants) videos or GIFs were stored without their variants (before tweets asked X for them); add --refetch to look their posts up again (billed as post lookups)"
      )
    }
    var done = 0, failed = 0
    var bytes: Int64 = 0
    try await downloads.run(jobs) { job, outcome in
      done += 1
      switch outcome {
      case .success(let file):
        bytes += file.bytes
        try record(file)
      case .failure(let error):
        failed += 1
        terminal.status("")
        terminal.err(TerminalText.visible("tweets: \(job.key): \(error)"))
      }
      terminal.status("… \(done) of \(jobs.count) files, \(ByteCountFormatter.string(fromByteCount: bytes, countStyle: .file))")
    }
    terminal.status("")
    terminal.err(
      "tweets: \(done - failed) files downloaded (\(bytes) bytes), \(skipped) already complete, \(failed) failed"
        + (needVariants > 0 ? ", \(needVariants) need --refetch" : "") + (unavailable > 0 ? ", \(unavailable) with no file" : "") + ".")
    return failed > 0 ? .failure : .success
  }
}
