// network-soak: resident memory and speed of NetworkClient's transports over a long run.
//
// For each transport (CurlTransport, URLSessionTransport), in a process of its own so that one
// transport's memory is not the other's: N requests (1,000,000 by default) with a 2 KB URL (a
// lookup of 100 ids, as X's /2/tweets?ids= takes), each signed with OAuth 1.0a
// (OAuthRequestBehavior), through NetworkClient, to a keep-alive HTTP/1.1 server on loopback
// (Python's asyncio, started here: code this project did not write, and a server that is the
// same for both). Prints resident memory after 10,000 requests and at the end, requests per
// second, and p50 and p99 latency, at 1, 8 and 64 requests in flight; then each figure of curl
// as a ratio to URLSession's, measured in the same run. A benchmark, not a test.
//
//   swift build -c release --product network-soak && .build/release/network-soak [--requests N] [--concurrency 1,8,64]
//     [--transports curl,urlsession]
import Foundation
import NetworkClient
import OAuth1
import OAuthNetworking

let arguments = CommandLine.arguments
func option(_ name: String) -> String? { arguments.firstIndex(of: name).flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil } }
let requests = option("--requests").flatMap(Int.init) ?? 1_000_000
let levels = (option("--concurrency") ?? "1,8,64").split(separator: ",").compactMap { Int($0) }
let checkpoint = min(10_000, requests)
let transports = (option("--transports") ?? "curl,urlsession").split(separator: ",").map(String.init)

/// The resident set now, in MiB (`VmRSS` of /proc/self/status; 0 where there is none).
func residentMiB() -> Double {
  guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
    let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
    let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
  else { return 0 }
  return kilobytes / 1024
}

/// One level's figures.
struct Figures: Codable {
  var concurrency: Int
  var residentAtCheckpoint: Double
  var residentAtEnd: Double
  var perSecond: Double
  var p50: Double
  var p99: Double
}

// MARK: - Child: one transport, every level

if let name = option("--child"), let port = option("--port") {
  let transport: any HTTPTransport = name == "curl" ? CurlTransport() : URLSessionTransport()
  let behavior = OAuthRequestBehavior(
    consumer: Credentials(key: "soak-consumer", secret: "soak-consumer-secret"), token: Credentials(key: "soak-token", secret: "soak-token-secret"))
  let client = NetworkClient(baseURL: URL(string: "http://127.0.0.1:\(port)")!, behavior: behavior, transport: transport)
  let ids = (0..<100).map { String(1_800_000_000_000_000_000 + $0 * 1_000) }.joined(separator: ",")
  let request = Request<Data>(path: "2/tweets", query: [("ids", ids), ("tweet.fields", "created_at,public_metrics")])
  var results: [Figures] = []
  var latencies: [Double] = []
  for concurrency in levels {
    // Task t sends requests t, t + concurrency, t + 2 × concurrency ...: each records its
    // latencies in an array made (and its pages touched) before the first request, so that the
    // harness's own memory does not grow during the run.
    let share = (requests + concurrency - 1) / concurrency
    let checkpointMemory = Locked(0.0)
    let endMemory = Locked(0.0)
    let failures = Locked(0)
    let started = DispatchTime.now().uptimeNanoseconds
    latencies = await withTaskGroup(of: [Double].self) { group in
      for task in 0..<concurrency {
        group.addTask {
          var mine = [Double](repeating: -1, count: share)
          for (slot, index) in stride(from: task, to: requests, by: concurrency).enumerated() {
            let begin = DispatchTime.now().uptimeNanoseconds
            do { _ = try await client.send(request) } catch { failures.withLock { $0 += 1 } }
            mine[slot] = Double(DispatchTime.now().uptimeNanoseconds - begin) / 1e6
            if index == checkpoint - 1 { checkpointMemory.withLock { $0 = residentMiB() } }
            // The last request's: before the harness merges and sorts its arrays.
            if index == requests - 1 { endMemory.withLock { $0 = residentMiB() } }
          }
          return mine
        }
      }
      var all: [Double] = []
      for await part in group { all += part.filter { $0 >= 0 } }
      return all
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
    let sorted = latencies.sorted()
    if failures.withLock({ $0 }) > 0 {
      try? FileHandle.standardError.write(contentsOf: Data("\(name): \(failures.withLock { $0 }) requests failed\n".utf8))
    }
    results.append(
      Figures(
        concurrency: concurrency, residentAtCheckpoint: checkpointMemory.withLock { $0 }, residentAtEnd: endMemory.withLock { $0 },
        perSecond: Double(requests) / seconds, p50: sorted[sorted.count / 2], p99: sorted[min(sorted.count - 1, sorted.count * 99 / 100)]))
  }
  print(String(decoding: try JSONEncoder().encode(results), as: UTF8.self))
  exit(0)
}

// MARK: - Parent: the server, a child per transport, the table

let serverScript = """
  import asyncio, sys
  BODY = b'{"data":[{"id":"1800000000000000000","text":"soak"}]}'
  HEAD = b"HTTP/1.1 200 OK\\r\\nContent-Type: application/json\\r\\nContent-Length: %d\\r\\n\\r\\n" % len(BODY)
  class Answer(asyncio.Protocol):
      def connection_made(self, transport):
          self.transport, self.buffer = transport, b""
      def data_received(self, data):
          self.buffer += data
          while b"\\r\\n\\r\\n" in self.buffer:
              _, self.buffer = self.buffer.split(b"\\r\\n\\r\\n", 1)
              self.transport.write(HEAD + BODY)
  async def main():
      server = await asyncio.get_running_loop().create_server(Answer, "127.0.0.1", 0, backlog=1024)
      print("PORT", server.sockets[0].getsockname()[1], flush=True)
      await server.serve_forever()
  asyncio.run(main())
  """
let server = Process()
server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
server.arguments = ["python3", "-c", serverScript]
let serverOutput = Pipe()
server.standardOutput = serverOutput
try server.run()
defer { server.terminate() }
var banner = ""
while !banner.contains("\n") {
  let data = serverOutput.fileHandleForReading.availableData
  if data.isEmpty { break }
  banner += String(decoding: data, as: UTF8.self)
}
guard let line = banner.split(separator: "\n").first(where: { $0.hasPrefix("PORT ") }), let port = line.split(separator: " ").last.map(String.init),
  Int(port) != nil
else {
  print("the server did not start: \(banner)")
  exit(1)
}

func child(_ name: String) throws -> [Figures] {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
  process.arguments = [
    "--child", name, "--port", port, "--requests", String(requests), "--concurrency", levels.map(String.init).joined(separator: ","),
  ]
  let output = Pipe()
  process.standardOutput = output
  try process.run()
  let data = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return try JSONDecoder().decode([Figures].self, from: data)
}

print("network-soak: \(requests) signed requests per level, 2 KB URLs, keep-alive loopback server (Python asyncio)")
let curl = transports.contains("curl") ? try child("curl") : []
let session = transports.contains("urlsession") ? try child("urlsession") : []

func row(_ name: String, _ f: Figures) -> String {
  name.padding(toLength: 10, withPad: " ", startingAt: 0)
    + String(
      format: " %9d %10.1f MB %10.1f MB %+8.1f MB %9.0f/s %7.3f ms %7.3f ms", f.concurrency, f.residentAtCheckpoint, f.residentAtEnd,
      f.residentAtEnd - f.residentAtCheckpoint, f.perSecond, f.p50, f.p99)
}
print("transport  in flight  RSS @\(checkpoint)     RSS @end      growth        rate        p50        p99")
for (c, s) in zip(curl, session) {
  print(row("curl", c))
  print(row("urlsession", s))
  print(
    String(
      format: "  curl / urlsession at %d: rate %.2f×, p50 %.2f×, p99 %.2f×, growth %.1f MB vs %.1f MB", c.concurrency, c.perSecond / s.perSecond,
      c.p50 / s.p50, c.p99 / s.p99, c.residentAtEnd - c.residentAtCheckpoint, s.residentAtEnd - s.residentAtCheckpoint))
}
for figures in curl.count > session.count ? curl : session where curl.isEmpty || session.isEmpty {
  print(row(curl.isEmpty ? "urlsession" : "curl", figures))
}
