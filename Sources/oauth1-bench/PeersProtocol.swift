import Foundation
import OAuth1

/// `--peers-protocol`: the output `../shared/bench/peers/run.sh` reads, so that harness times
/// this library next to the C, Go, PHP and Python peers in one run (`EXTRA_PEERS`). The first
/// timed workload is the reused signer, the second the cold one, each building the complete
/// header for the 1.1 URL.
enum PeersProtocol {
  static func run(environment: [String: String]) throws {
    let target = environment["BENCH_TARGET_S"].flatMap(Double.init) ?? 1.0
    let repetitions = environment["BENCH_REPS"].flatMap(Int.init) ?? 5
    let fixed = environment["BENCH_ITERS"].flatMap(Int.init)
    let only = environment["BENCH_ONLY"] ?? ""

    let signer = try OAuthSigner(consumer: TwitterDocRequest.consumer, token: TwitterDocRequest.token)
    let request = TwitterDocRequest.request()
    let workloads: [(String, () throws -> String)] = [
      (
        "swift_oauth1_reused",
        { try signer.authorizationHeader(for: request, nonce: TwitterDocRequest.nonce, timestamp: TwitterDocRequest.timestamp) }
      ),
      (
        "swift_oauth1_cold",
        {
          try OAuthSigner(
            consumer: Credentials(key: TwitterDocRequest.consumer.key, secret: TwitterDocRequest.consumer.secret),
            token: Credentials(key: TwitterDocRequest.token.key, secret: TwitterDocRequest.token.secret)
          ).authorizationHeader(for: request, nonce: TwitterDocRequest.nonce, timestamp: TwitterDocRequest.timestamp)
        }
      ),
    ]
    for (name, work) in workloads where only.isEmpty || name.contains(only) {
      for (label, version) in [("hdr_v1", "1"), ("hdr_v11", "1.1")] {
        let header = try OAuthSigner(consumer: TwitterDocRequest.consumer, token: TwitterDocRequest.token)
          .authorizationHeader(
            for: TwitterDocRequest.request(version: version), nonce: TwitterDocRequest.nonce, timestamp: TwitterDocRequest.timestamp)
        print("\(name)\t\(label)\t\(header)")
      }
      if let fixed {
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<fixed { blackHole(try work()) }
        print("\(name)\tns\t\(Double(DispatchTime.now().uptimeNanoseconds - start) / Double(max(fixed, 1)))")
        continue
      }
      var iterations = 1
      while true {
        let elapsed = try time(iterations, work)
        if elapsed >= 1e8 { break }
        iterations *= 2
      }
      iterations = max(1, Int(Double(iterations) * target * 1e9 / (try time(iterations, work))))
      var samples: [String] = []
      for _ in 0..<repetitions {
        samples.append(String(format: "%.1f", try time(iterations, work) / Double(iterations)))
      }
      print("\(name)\tns\t\(samples.joined(separator: " "))")
      print("\(name)\tnote\tOAuthSigner reused for every header (reused) or made anew each time (cold); nonce and timestamp fixed")
    }
  }

  private static func time(_ iterations: Int, _ work: () throws -> String) throws -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<iterations { blackHole(try work()) }
    return Double(DispatchTime.now().uptimeNanoseconds - start)
  }
}
