import Foundation
import OAuth1
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a verification costs before any credential is checked grows linearly with the request:
/// the same hostile request with 4 times the `oauth_*` names, measured in one run (best of a few
/// repetitions), costs far less than the 16 times a quadratic scan would. Every unknown
/// `oauth_*` name used to be compared with every earlier one (#35 item 1): 4 times the names
/// cost 13 to 16 times as much.
///
/// Measured on the verifier's own reading of a request (``OAuthSignatureBaseString/make(received:authorization:limits:)``
/// finds the protocol parameters and builds the base string, as `verify` does before it looks up
/// any credential), synchronously, in the CPU time of the measuring thread: tests running beside
/// it on the same cores do not count.
@Suite("Verifier cost is linear in the input", .serialized)
struct VerifierCostTests {
  static let now: Int64 = 1_700_000_000

  enum Place: String, CaseIterable, Sendable {
    case header, query, form
  }

  /// A request carrying `count` unknown `oauth_*` names and the required protocol parameters,
  /// with a wrong signature: the verifier reads every name, builds the base string and refuses.
  static func hostileRequest(_ place: Place, names count: Int) -> (OAuthRequest, String?) {
    let required = [
      ("oauth_consumer_key", "app-key"), ("oauth_signature_method", "HMAC-SHA1"), ("oauth_timestamp", String(now)),
      ("oauth_nonce", "n"), ("oauth_signature", "AAAA"),
    ]
    let names = (0..<count).map { ("oauth_x\($0)", "1") } + required
    switch place {
    case .header:
      let fields = names.map { "\($0.0)=\"\($0.1)\"" }.joined(separator: ", ")
      return (OAuthRequest(method: "GET", url: "https://api.example.com/1/items"), "OAuth " + fields)
    case .query:
      let query = names.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
      return (OAuthRequest(method: "GET", url: "https://api.example.com/1/items?" + query), nil)
    case .form:
      let body = Data(names.map { "\($0.0)=\($0.1)" }.joined(separator: "&").utf8)
      return (OAuthRequest(method: "POST", url: "https://api.example.com/1/items", body: body, contentType: "application/x-www-form-urlencoded"), nil)
    }
  }

  /// The CPU time of this thread, in seconds.
  static func threadCPUTime() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  /// The CPU time of reading `request` as the verifier does, with no limit but the engine's: the
  /// parser itself is measured, not the limits that refuse such a request by default.
  static func cost(of request: (OAuthRequest, String?)) -> Double {
    let start = threadCPUTime()
    let baseString = try? OAuthSignatureBaseString.make(received: request.0, authorization: request.1, limits: .engineMaximum)
    let elapsed = threadCPUTime() - start
    precondition(baseString != nil, "the hostile request has a base string")
    return elapsed
  }

  /// The best of `repetitions` readings of requests with `n` and `4n` names, taken in turn.
  static func costs(_ place: Place, names n: Int, repetitions: Int = 5) -> (small: Double, large: Double) {
    let small = hostileRequest(place, names: n), large = hostileRequest(place, names: 4 * n)
    _ = cost(of: small)  // Warm up: the first use of each code path.
    var best = (small: Double.infinity, large: Double.infinity)
    for _ in 0..<repetitions {
      best.small = min(best.small, cost(of: small))
      best.large = min(best.large, cost(of: large))
    }
    return best
  }

  @Test(arguments: Place.allCases)
  func fourTimesTheNamesCostAboutFourTimesAsMuch(place: Place) async {
    // 10,000 names (139 KB) take about 20 ms in a debug build: far above the clock's resolution.
    let (small, large) = Self.costs(place, names: 10_000)
    let ratio = large / small
    // Linear is about 4 (sorting adds a logarithm); quadratic would be 16.
    #expect(ratio < 8, "\(place): 10,000 names \(small) s, 40,000 names \(large) s of CPU: ratio \(ratio)")
  }

  /// `verify` reads the same requests through to the signature check (the base string above is
  /// its reading), and refuses them there.
  @Test(arguments: Place.allCases)
  func theVerifierReadsAllOfIt(place: Place) async {
    let verifier = OAuthVerifier(
      credentials: InMemoryCredentialLookup(consumers: ["app-key": OAuthConsumer(secret: "app-secret")], tokens: [:]),
      options: .init(clock: FixedClock(seconds: Self.now), limits: .engineMaximum))
    let (request, authorization) = Self.hostileRequest(place, names: 40_000)
    do {
      _ = try await verifier.verify(request, authorization: authorization)
      Issue.record("\(place): a request with a wrong signature was accepted")
    } catch {
      #expect(error.problem == .signatureInvalid, "\(place): \(error.problem)")
    }
  }
}
