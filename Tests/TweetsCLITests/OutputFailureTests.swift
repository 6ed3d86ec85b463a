import Foundation
import TestSupport
import Testing

/// Every write is checked: an output that refuses a write (a full disk: `/dev/full`, where every
/// write fails with ENOSPC) ends the command with one line on stderr and status 1, never a
/// signal (Foundation's `FileHandle.write(_:)` stopped the process with SIGILL and a
/// backtrace), and a fetch stops at the page that could not be written instead of paying for
/// the next. A reader that went away (`| head -1`) ends it quietly, killed by SIGPIPE as a Unix
/// tool is, even when SIGPIPE was ignored by the parent.
@Suite("tweets: output that cannot be written", .tags(.processes), .tier(.processes))
struct OutputFailureTests {
  static let full = "tweets: error: cannot write to standard output: No space left on device\n"

  /// Runs `tweets` with its standard output `output`; with `shell`, through `/bin/sh -c`, whose
  /// command (`trap '' PIPE`, `2>/dev/full`) comes before the `exec` of `tweets`.
  func run(_ arguments: [String], to output: ChildOutput, shell: String? = nil) async throws -> ProcessResult {
    let config = FileManager.default.temporaryDirectory.appendingPathComponent("tweets-output-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: config) }
    var environment = ProcessInfo.processInfo.environment
    for key in environment.keys where key.hasPrefix("X_") || key.hasPrefix("TWITTER_") || key.hasPrefix("TWEETS_") {
      environment.removeValue(forKey: key)
    }
    environment["TWEETS_CONFIG_DIR"] = config.path
    let tweets = PackagePaths.executable("tweets")
    let (executable, words) =
      shell.map { (URL(fileURLWithPath: "/bin/sh"), ["-c", $0, tweets.path] + arguments) } ?? (tweets, arguments)
    return try await ProcessRunner.run(executable, words, environment: environment, standardOutput: output, timeout: 60)
  }

  @Test func timelineToAFullDisk() async throws {
    let result = try await run(["--sandbox", "timeline"], to: .file("/dev/full"))
    #expect(result.signal == nil && result.status == 1, "\(result.status) \(result.stderr)")
    #expect(result.stderr == Self.full)
  }

  /// What the dispatch answers itself (help, version) is checked too.
  @Test(arguments: [["--help"], ["--version"], ["help", "timeline"], ["timeline", "--help"], ["--sandbox", "whoami"]])
  func everyAnswerToAFullDiskIsAnError(arguments: [String]) async throws {
    let result = try await run(arguments, to: .file("/dev/full"))
    #expect(result.signal == nil && result.status == 1, "\(result.status) \(result.stderr)")
    #expect(result.stderr == Self.full)
  }

  @Test func searchAllStopsAtThePageThatCouldNotBeWritten() async throws {
    let result = try await run(["--sandbox", "search", "a", "--all", "--format", "jsonl"], to: .file("/dev/full"))
    #expect(result.signal == nil && result.status == 1, "\(result.status) \(result.stderr)")
    #expect(result.stderr == Self.full)
    // The search has two pages: only the first is fetched.
    let verbose = try await run(["--sandbox", "search", "a", "--all", "--format", "jsonl", "--verbose"], to: .file("/dev/full"))
    #expect(verbose.status == 1 && verbose.stderr.hasSuffix(Self.full), "\(verbose.stderr)")
    #expect(verbose.stderr.components(separatedBy: "→ GET").count - 1 == 1, "\(verbose.stderr)")
  }

  /// `hydrate` looks ids up 100 at a time: the second batch is not asked for.
  @Test func hydrateStopsAtTheBatchThatCouldNotBeWritten() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hydrate-full-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let ids = folder.appendingPathComponent("ids.txt")
    // The sandbox's tweets: every 1,000th id from 1800000000000000000 down.
    try Data((0..<150).map { "\(1_800_000_000_000_000_000 - $0 * 1000)\n" }.joined().utf8).write(to: ids)
    let result = try await run(["--sandbox", "hydrate", ids.path, "--verbose"], to: .file("/dev/full"))
    #expect(result.signal == nil && result.status == 1, "\(result.status) \(result.stderr)")
    let said = result.stderr.split(separator: "\n").filter { !$0.hasPrefix("[verbose]") }
    #expect(said == [Substring(Self.full.dropLast())], "\(said)")
    #expect(result.stderr.components(separatedBy: "→ GET").count - 1 == 1, "\(result.stderr)")
  }

  @Test func streamToAFullDiskOrFile() async throws {
    let result = try await run(["--sandbox", "stream", "--limit", "3"], to: .file("/dev/full"))
    #expect(result.signal == nil && result.status == 1, "\(result.status) \(result.stderr)")
    #expect(result.stderr == "tweets: connected to the filtered stream (Ctrl-C to stop).\n" + Self.full)
    let file = try await run(["--sandbox", "stream", "--limit", "3", "--output", "/dev/full"], to: .captured)
    #expect(file.signal == nil && file.status == 1, "\(file.status) \(file.stderr)")
    #expect(file.stderr.hasSuffix("tweets: error: cannot write to /dev/full: No space left on device\n"), "\(file.stderr)")
  }

  /// `--output /dev/full`: a device, written in place, whose refusal is named as such.
  @Test func exportToAFullDisk() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("export-full-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("posts.jsonl")
    try Data(#"{"data":[{"id":"1","text":"a"},{"id":"2","text":"b"}]}"#.utf8).write(to: input)
    let file = try await run(["export", input.path, "-o", "/dev/full", "--columns", "id,text"], to: .captured)
    #expect(file.signal == nil && file.status == 1)
    #expect(file.stderr == "tweets: error: cannot write to /dev/full: No space left on device\n", "\(file.stderr)")
    let standard = try await run(["export", input.path, "--columns", "id,text"], to: .file("/dev/full"))
    #expect(standard.signal == nil && standard.status == 1)
    #expect(standard.stderr == Self.full, "\(standard.stderr)")
  }

  /// `tweets search a --all | head -1`: nothing on stderr, and the end of a process whose
  /// reader left (SIGPIPE), whether the parent left SIGPIPE's default action or ignored it.
  ///
  /// A shell's `trap '' PIPE` is inherited through exec: the child starts with SIGPIPE ignored,
  /// as under a parent that ignores it, and its writes to a closed pipe fail with EPIPE.
  @Test(arguments: [#"exec "$0" "$@""#, #"trap '' PIPE; exec "$0" "$@""#])
  func closedPipeIsQuiet(shell: String) async throws {
    for arguments in [["--sandbox", "search", "a", "--all", "--format", "jsonl"], ["--sandbox", "timeline"]] {
      let result = try await run(arguments, to: .closedPipe, shell: shell)
      #expect(result.signal == SIGPIPE, "\(arguments) \(result.status) \(result.stderr)")
      #expect(result.stderr == "", "\(arguments)")
    }
  }

  /// Standard error refusing a write (`2>/dev/full`) loses those messages, nothing else: the
  /// fetch goes on and is stored whole.
  @Test func aFullStandardErrorIsDropped() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stderr-full-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let archive = folder.appendingPathComponent("posts.sqlite").path
    let arguments = ["--sandbox", "search", "a", "--all", "--db", archive]
    let stored = try await run(arguments, to: .captured, shell: #"exec "$0" "$@" 2>/dev/full"#)
    #expect(stored.signal == nil && stored.status == 0, "\(stored.status)")
    let again = try await run(arguments + ["--resume"], to: .captured)
    #expect(again.status == 0 && again.stderr.contains("is complete (169 tweets)"), "\(again.stderr)")
  }

  /// Whether a file system can be made small enough to fill: a tmpfs in a mount namespace of
  /// an unprivileged user namespace (`unshare -rm`), seen by the child alone.
  static let canFillAFileSystem: Bool = {
    let unshare = URL(fileURLWithPath: "/usr/bin/unshare")
    guard FileManager.default.isExecutableFile(atPath: unshare.path) else { return false }
    let probe = try? ProcessRunner.runBlocking(unshare, ["-rm", "sh", "-c", "mount -t tmpfs -o size=16k none /tmp"], timeout: 30)
    return probe?.status == 0
  }()

  /// `--output FILE` on a file system that fills up at the second page (an 80 KiB tmpfs; the
  /// first page is about 60 KB): the first page and its checkpoint are kept, the resume command
  /// is printed, and once the file system has room (remounted larger) it finishes the fetch
  /// with every tweet once.
  @Test(.enabled(if: canFillAFileSystem, "needs unshare -rm and tmpfs"))
  func outputOnAFullFileSystemKeepsWhatWasCommitted() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("full-fs-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let script = #"""
      dir=$1; shift
      mount -t tmpfs -o size=80k none "$dir" || exit 99
      "$0" "$@" --output "$dir/out.jsonl"; echo "first: $?"
      tr -d ' \n' < "$dir/out.jsonl.checkpoint"; echo
      mount -o remount,size=1m none "$dir" || exit 98
      "$0" "$@" --output "$dir/out.jsonl" --resume >/dev/null 2>&1; echo "second: $?"
      wc -l < "$dir/out.jsonl"; sort "$dir/out.jsonl" | uniq | wc -l
      """#
    let file = folder.appendingPathComponent("out.jsonl").path
    let result = try await run(
      ["sh", "-c", script, PackagePaths.executable("tweets").path, folder.path, "--sandbox", "timeline", "--all", "--format", "jsonl"],
      to: .captured, shell: #"exec unshare -rm "$@""#)
    #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
    #expect(
      result.stderr == """
        tweets: stopped after 100 tweets in \(file); the checkpoint is saved. Resume with:
          tweets timeline --sandbox --all --format jsonl --output \(file) --resume
        tweets: error: cannot write \(file): No space left on device

        """)
    let lines = result.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    #expect(lines.count == 5, "\(result.stdout)")
    guard lines.count == 5 else { return }
    #expect(lines[0] == "first: 1")
    #expect(lines[1].contains(#""pages":1,"records":100"#), "\(lines[1])")
    #expect(lines[2] == "second: 0")
    #expect(lines[3] == "180" && lines[4] == "180", "every tweet once")
  }
}
