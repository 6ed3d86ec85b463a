import Foundation
import OAuth1
import OAuth1Testing
import Testing

/// No `maxClockSkew`, clock reading or timestamp traps the verifier or its store (#35 item 9):
/// `2 × maxClockSkew` and `now ± maxClockSkew` overflowed for the largest values and stopped
/// the process.
@Suite("Clock arithmetic at the ends of Int64")
struct ClockArithmeticTests {
  static let extremes: [Int64] = [.min, .min + 1, -1, 0, 1, 1_700_000_000, .max - 1, .max]

  static func request() -> OAuthRequest { OAuthRequest(method: "GET", url: "https://api.example.com/x") }

  static func header(timestamp: Int64) throws -> String {
    try OAuthSignatureGenerator(
      consumerCredentials: Credentials(key: "app-key", secret: "app-secret"), request: request(),
      options: .init(nonce: "n-\(timestamp)", timestamp: timestamp)
    ).authorizationHeader
  }

  @Test(arguments: extremes)
  func anySkewAndAnyClockGiveAnAnswer(skew: Int64) async throws {
    for now in Self.extremes {
      let verifier = OAuthVerifier(
        credentials: InMemoryCredentialLookup(consumers: ["app-key": OAuthConsumer(secret: "app-secret")], tokens: [:]),
        options: .init(maxClockSkew: skew, clock: FixedClock(seconds: now)))
      for timestamp: Int64 in [0, 1_700_000_000, .max] where timestamp >= 0 {
        let header = try Self.header(timestamp: timestamp)
        let outcome: OAuthProblem?
        do {
          _ = try await verifier.verify(Self.request(), authorization: header)
          outcome = nil
        } catch {
          outcome = error.problem
          if let range = error.acceptableTimestamps { #expect(range.lowerBound <= range.upperBound) }
        }
        // Accepted exactly when the timestamp is within the (saturated) window.
        let lower = now.subtractingReportingOverflow(max(0, skew)), upper = now.addingReportingOverflow(max(0, skew))
        let inWindow =
          (lower.overflow || timestamp >= lower.partialValue) && (upper.overflow || timestamp <= upper.partialValue)
        #expect((outcome == nil) == inWindow, "skew \(skew), now \(now), timestamp \(timestamp): \(String(describing: outcome))")
      }
    }
  }

  @Test func theStoreTakesAnyTimestampAndClock() async throws {
    for now in Self.extremes {
      let store = InMemoryNonceStore(window: .max, clock: ManualClock(seconds: now))
      for timestamp in Self.extremes {
        #expect(try await store.insert(nonce: "n", timestamp: timestamp, consumerKey: "c", token: nil))
        #expect(try await !store.insert(nonce: "n", timestamp: timestamp, consumerKey: "c", token: nil))
      }
    }
  }
}
