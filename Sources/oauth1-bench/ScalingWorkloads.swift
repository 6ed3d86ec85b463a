import Foundation
import OAuth1

/// How the reused signer's cost grows with the request: 10 to 10,000 query parameters, and a
/// 1 MiB form body. The figure to watch is the cost per parameter.
enum ScalingWorkloads {
  static func run(_ harness: inout Harness) throws {
    let signer = try OAuthSigner(consumer: TwitterDocRequest.consumer, token: TwitterDocRequest.token)
    for count in [10, 100, 1_000, 10_000] {
      // Names in random order with repeats, so the sort has work to do.
      var generator = SplitMix(seed: UInt64(count))
      let query = (0..<count).map { _ in "p\(generator.next() % UInt64(count))=v%20\(generator.next() % 1000)" }.joined(separator: "&")
      let request = OAuthRequest(method: "GET", url: "https://api.example.com/items?" + query)
      let name = "scale/\(count) query parameters"
      try harness.measureSync(name) {
        blackHole(try signer.authorizationHeader(for: request, nonce: TwitterDocRequest.nonce, timestamp: TwitterDocRequest.timestamp))
      }
      if let median = harness.median(name), harness.fixedIterations == nil {
        print(String(format: "    %.1f ns per parameter", median / Double(count)))
      }
    }
    // A 1 MiB form body: one large value, the shape of a bulk upload.
    let body = Data(("data=" + String(repeating: "abc%20def+", count: 1_048_576 / 10)).utf8)
    let bulk = OAuthRequest(method: "POST", url: "https://api.example.com/upload", body: body, contentType: "application/x-www-form-urlencoded")
    try harness.measureSync("scale/1 MiB form body") {
      blackHole(try signer.authorizationHeader(for: bulk, nonce: TwitterDocRequest.nonce, timestamp: TwitterDocRequest.timestamp))
    }
    if let median = harness.median("scale/1 MiB form body"), harness.fixedIterations == nil {
      print(String(format: "    %.2f ns per byte", median / Double(body.count)))
    }
  }
}

/// A tiny seeded generator, so every run measures the same requests.
struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
