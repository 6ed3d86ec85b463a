import Dispatch
import Foundation
import OAuth1
import OAuth1Redis
import TestSupport

// oauth1-redis-bench: verifications per second and their p50/p99 latency with the in-memory
// nonce store and with RedisNonceStore on loopback, at 1, 8 and 64 concurrent verifications.
// It starts its own redis-server (no persistence) on a free loopback port. Build in release mode:
//
//   swift build -c release --product oauth1-redis-bench && .build/release/oauth1-redis-bench
//   .build/release/oauth1-redis-bench --quick        fewer verifications per figure
//
// Each figure is one run of N verifications (N = 20,000, or 2,000 with --quick) of distinct
// signed requests, spread over `concurrency` tasks; the Redis store's pool has as many
// connections as there are concurrent verifications. Latency is one `verify` call, from the
// call to its return, including the wait for a free connection.

let quick = CommandLine.arguments.contains("--quick")
let count = quick ? 2_000 : 20_000
let concurrencies = [1, 8, 64]

let consumer = Credentials(key: "xvz1evFS4wEEPTGEFPHBog", secret: "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw")
let token = Credentials(key: "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb", secret: "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE")
let request = OAuthRequest(
  method: "POST", url: "https://api.x.com/1.1/statuses/update.json?include_entities=true",
  body: Data("status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21".utf8),
  contentType: "application/x-www-form-urlencoded")
let lookup = InMemoryCredentialLookup(consumers: [consumer.key: OAuthConsumer(secret: consumer.secret)], tokens: [token.key: token.secret])
let timestamp = Int64(Date().timeIntervalSince1970)

/// One figure: how many verifications per second, and the latency percentiles.
struct Figure {
  let perSecond: Double
  let p50: Double
  let p99: Double
}

/// Runs `headers.count` verifications over `concurrency` tasks; every one must be accepted.
func measure(_ verifier: OAuthVerifier, headers: [String], concurrency: Int) async throws -> Figure {
  let start = DispatchTime.now().uptimeNanoseconds
  let latencies = try await withThrowingTaskGroup(of: [UInt64].self) { group in
    for worker in 0..<concurrency {
      group.addTask {
        var mine: [UInt64] = []
        mine.reserveCapacity(headers.count / concurrency + 1)
        for index in stride(from: worker, to: headers.count, by: concurrency) {
          let before = DispatchTime.now().uptimeNanoseconds
          _ = try await verifier.verify(request, authorization: headers[index])
          mine.append(DispatchTime.now().uptimeNanoseconds - before)
        }
        return mine
      }
    }
    var all: [UInt64] = []
    for try await part in group { all += part }
    return all.sorted()
  }
  let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  func percentile(_ fraction: Double) -> Double {
    Double(latencies[min(latencies.count - 1, Int(Double(latencies.count) * fraction))]) / 1000
  }
  return Figure(perSecond: Double(latencies.count) / elapsed, p50: percentile(0.50), p99: percentile(0.99))
}

/// Signed Authorization headers with distinct nonces, so that every verification is a first use.
func headers(_ label: String) throws -> [String] {
  let signer = try OAuthSigner(consumer: consumer, token: token)
  return try (0..<count).map { try signer.authorizationHeader(for: request, nonce: "\(label)-\($0)", timestamp: timestamp) }
}

func run() async throws {
  let redis = try LocalRedisServer()
  defer { redis.stop() }
  let options = OAuthVerifier.Options(allowedSignatureMethods: [.hmacSHA1], clock: FixedClock(seconds: timestamp))
  print("oauth1-redis-bench: \(count) verifications per figure (HMAC-SHA1, a POST with a form body), distinct nonces")
  print(
    "redis-server \(LocalRedisServer.version ?? "?") on 127.0.0.1:\(redis.port), no persistence; \(ProcessInfo.processInfo.activeProcessorCount) cores"
  )
  print("")
  print("store       concurrent  connections   verifications/s    p50 µs    p99 µs")
  for concurrency in concurrencies {
    let memory = OAuthVerifier(credentials: lookup, options: options)
    let figure = try await measure(memory, headers: try headers("memory-\(concurrency)"), concurrency: concurrency)
    print(row("in-memory", concurrency, "-", figure))
  }
  for concurrency in concurrencies {
    let store = try RedisNonceStore(url: redis.url, poolSize: concurrency, window: 2 * options.maxClockSkew)
    try await store.ping()
    let verifier = OAuthVerifier(credentials: lookup, nonceStore: store, options: options)
    let figure = try await measure(verifier, headers: try headers("redis-\(concurrency)"), concurrency: concurrency)
    print(row("Redis", concurrency, String(concurrency), figure))
    store.shutDown()
  }
}

func row(_ store: String, _ concurrency: Int, _ connections: String, _ figure: Figure) -> String {
  store.padding(toLength: 12, withPad: " ", startingAt: 0) + String(format: "%10d", concurrency) + connections.leftPadded(13)
    + String(format: "%18.0f%10.1f%10.1f", figure.perSecond, figure.p50, figure.p99)
}

extension String {
  func leftPadded(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}

let done = DispatchSemaphore(value: 0)
Task.detached {
  do { try await run() } catch {
    try? FileHandle.standardError.write(contentsOf: Data("oauth1-redis-bench: \(error)\n".utf8))
    exit(1)
  }
  done.signal()
}
done.wait()
