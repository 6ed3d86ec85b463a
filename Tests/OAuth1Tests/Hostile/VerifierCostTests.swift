import Foundation
import OAuth1
import TestSupport
import Testing

/// What a verification costs before any credential is checked grows linearly with the request:
/// the same hostile request with 4 times the `oauth_*` names, measured in one run (best of a few
/// repetitions), costs far less than the 16 times a quadratic scan would. Every unknown
/// `oauth_*` name used to be compared with every earlier one (#35 item 1): 4 times the names
/// cost about 16 times as much.
@Suite("Verifier cost is linear in the input", .serialized)
struct VerifierCostTests {
  static let now: Int64 = 1_700_000_000

  enum Place: String, CaseIterable, Sendable {
    case header, query, form
  }

  static func verifier() -> OAuthVerifier {
    OAuthVerifier(
      credentials: InMemoryCredentialLookup(consumers: ["app-key": OAuthConsumer(secret: "app-secret")], tokens: [:]),
      options: .init(clock: FixedClock(seconds: now)))
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

  /// The best of `repetitions` verifications of the request, in seconds.
  static func cost(_ place: Place, names: Int, repetitions: Int = 3) async -> Double {
    let (request, authorization) = hostileRequest(place, names: names)
    let verifier = verifier()
    let clock = ContinuousClock()
    var best = Double.infinity
    for _ in 0..<repetitions {
      let start = clock.now
      _ = try? await verifier.verify(request, authorization: authorization)
      let elapsed = clock.now - start
      best = min(best, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
    return best
  }

  @Test(arguments: Place.allCases)
  func fourTimesTheNamesCostAboutFourTimesAsMuch(place: Place) async {
    // Warm up (first-use costs of the runtime), then n and 4n in the same run.
    _ = await Self.cost(place, names: 1000, repetitions: 1)
    let small = await Self.cost(place, names: 10_000)
    let large = await Self.cost(place, names: 40_000)
    let ratio = large / small
    // Linear is about 4 (sorting adds a logarithm); quadratic would be 16.
    #expect(ratio < 8, "\(place): 10,000 names \(small) s, 40,000 names \(large) s: ratio \(ratio)")
  }
}
