// tweets-bench: how `tweets hydrate` scales with its input. Prints the peak resident memory and
// the rate of a hydrate of 10,000 ids (the baseline) and of 1,000,000 ids, both into an SQLite
// archive (--db) through `tweets sandbox serve` on loopback, measured in one run, and their ratio.
//
//   swift build --product tweets --product tweets-bench && .build/debug/tweets-bench [IDS]
//
// Each hydrate is its own process, spawned and reaped here with wait4, whose rusage gives its
// own peak resident set (ru_maxrss). A benchmark, not a test: it prints figures and passes no
// judgement, except that it exits 1 when a run fails.
import Foundation

let tweets = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("tweets").path
let large = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 1_000_000
let baseline = 10_000
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tweets-bench-\(getpid())")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }

/// Spawns `arguments` with `environment`, standard output to `output`, and returns its exit
/// status, peak resident set in KiB, and wall time.
func spawn(_ arguments: [String], environment: [String: String], output: String = "/dev/null") -> (status: Int32, kilobytes: Int, seconds: Double) {
  var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
  let argv = arguments.map { strdup($0) } + [nil]
  let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
  defer { for pointer in argv + envp { free(pointer) } }
  var pid: pid_t = 0
  let start = Date()
  guard posix_spawn(&pid, arguments[0], &actions, nil, argv, envp) == 0 else { return (-1, 0, 0) }
  var status: Int32 = 0
  var usage = rusage()
  wait4(pid, &status, 0, &usage)
  return ((status >> 8) & 0xFF, usage.ru_maxrss, Date().timeIntervalSince(start))
}

// The sandbox, over loopback, with 1-second rate-limit windows (X's limits, not held up).
let server = Process()
server.executableURL = URL(fileURLWithPath: tweets)
server.arguments = ["sandbox", "serve", "--port", "0", "--tweets-per-user", "1000", "--rate-window", "1"]
let serverOutput = Pipe()
server.standardOutput = serverOutput
server.standardError = FileHandle.nullDevice
try server.run()
defer { server.terminate() }
let banner = String(decoding: serverOutput.fileHandleForReading.availableData, as: UTF8.self)
guard let url = banner.split(separator: " ").last.map({ $0.trimmingCharacters(in: .whitespacesAndNewlines) }) else {
  print("the sandbox did not start: \(banner)")
  exit(1)
}
var environment = ProcessInfo.processInfo.environment
environment["X_CONSUMER_KEY"] = "sandbox-consumer-key"
environment["X_CONSUMER_SECRET"] = "sandbox-consumer-secret"
environment["X_ACCESS_TOKEN"] = "1001-sandbox-access-token"
environment["X_ACCESS_TOKEN_SECRET"] = "sandbox-access-token-secret"
environment["TWEETS_CONFIG_DIR"] = folder.path

/// An input of `count` ids: the sandbox's 3,000 tweets' ids over and over (every 1,000th id from
/// 1800000000000000000 down), and as many ids that name no tweet.
func input(_ count: Int) throws -> String {
  let path = folder.appendingPathComponent("ids-\(count).txt").path
  _ = FileManager.default.createFile(atPath: path, contents: nil)
  let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
  var chunk = ""
  for index in 0..<count {
    let id: UInt64 = index % 2 == 0 ? 1_800_000_000_000_000_000 - UInt64((index / 2) % 3000) * 1000 : 1_700_000_000_000_000_000 + UInt64(index)
    chunk += "\(id)\n"
    if chunk.utf8.count > 1 << 20 {
      try handle.write(contentsOf: Data(chunk.utf8))
      chunk = ""
    }
  }
  try handle.write(contentsOf: Data(chunk.utf8))
  try handle.close()
  return path
}

print("tweets hydrate --db, through tweets sandbox serve at \(url) (debug or release: as built)")
print("         ids     peak RSS    seconds      ids/s")
var figures: [(ids: Int, kilobytes: Int)] = []
for count in [baseline, large] {
  let ids = try input(count)
  let database = folder.appendingPathComponent("h-\(count).sqlite").path
  let run = spawn([tweets, "hydrate", ids, "--db", database, "--base-url", url, "--max-wait", "60"], environment: environment)
  guard run.status == 0 || run.status == 4 else {
    print("hydrate of \(count) ids failed with status \(run.status)")
    exit(1)
  }
  figures.append((count, run.kilobytes))
  print(
    String(
      format: "%12d %9.1f MB %10.1f %10.0f", count, Double(run.kilobytes) / 1024, run.seconds, Double(count) / run.seconds))
}
print(
  String(
    format: "\(large)-id run against the baseline: %.0fx the ids, %.2fx the peak memory (%+.1f MB)", Double(large) / Double(baseline),
    Double(figures[1].kilobytes) / Double(figures[0].kilobytes), Double(figures[1].kilobytes - figures[0].kilobytes) / 1024))
