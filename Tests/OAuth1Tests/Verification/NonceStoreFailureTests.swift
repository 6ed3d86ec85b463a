import Foundation
import OAuth1
import Testing

/// A nonce store that cannot answer fails the verification closed, and the nonce is recorded
/// only for a request that passed every other check.
@Suite("OAuthVerifier with a failing or recording nonce store")
struct NonceStoreFailureTests {
  static let now: Int64 = 1_700_000_000
  let consumer = Credentials(key: "app-key", secret: "app-secret")
  let token = Credentials(key: "user-token", secret: "user-secret")
  let request = OAuthRequest(
    method: "POST", url: "https://api.example.com/items?page=2", body: Data("name=a%20b".utf8),
    contentType: "application/x-www-form-urlencoded")

  struct StoreDown: Error, CustomStringConvertible {
    var description: String { "connection refused by 127.0.0.1:6379" }
  }

  /// Throws on every insert.
  struct ThrowingStore: OAuthNonceStore {
    func insert(nonce: String, timestamp: Int64, consumerKey: String, token: String?) async throws -> Bool { throw StoreDown() }
  }

  /// Records every call; answers like an in-memory store.
  final class RecordingStore: OAuthNonceStore, @unchecked Sendable {
    struct Call: Hashable {
      let nonce: String
      let timestamp: Int64
      let consumerKey: String
      let token: String?
    }
    private let lock = NSLock()
    private var recorded: [Call] = []
    var calls: [Call] { lock.withLock { recorded } }

    func insert(nonce: String, timestamp: Int64, consumerKey: String, token: String?) async throws -> Bool {
      let call = Call(nonce: nonce, timestamp: timestamp, consumerKey: consumerKey, token: token)
      return lock.withLock {
        defer { recorded.append(call) }
        return !recorded.contains(call)
      }
    }
  }

  func verifier(_ store: any OAuthNonceStore) -> OAuthVerifier {
    OAuthVerifier(
      credentials: InMemoryCredentialLookup(consumers: ["app-key": OAuthConsumer(secret: "app-secret")], tokens: ["user-token": "user-secret"]),
      nonceStore: store, options: .init(clock: FixedClock(seconds: Self.now)))
  }

  func header(nonce: String, timestamp: Int64 = now, consumer: Credentials? = nil, token: Credentials? = nil) throws -> String {
    try OAuthSignatureGenerator(
      consumerCredentials: consumer ?? self.consumer, credentials: token ?? self.token, request: request,
      options: .init(nonce: nonce, timestamp: timestamp)
    ).authorizationHeader
  }

  func outcome(_ verifier: OAuthVerifier, _ authorization: String, _ request: OAuthRequest? = nil) async -> Result<
    VerifiedRequest, OAuthVerificationError
  > {
    do { return .success(try await verifier.verify(request ?? self.request, authorization: authorization)) } catch { return .failure(error) }
  }

  @Test func aStoreThatThrowsFailsClosedAsTemporarilyUnavailable() async throws {
    let result = await outcome(verifier(ThrowingStore()), try header(nonce: "n-1"))
    guard case .failure(let error) = result else {
      Issue.record("a request whose nonce could not be recorded was accepted")
      return
    }
    #expect(error.problem == .temporarilyUnavailable)
    #expect(error.problem.httpStatus == 503)
    #expect(error.cause?.contains("connection refused") == true)
    let answer = error.response(realm: "api.example.com")
    #expect(answer.status == 503)
    #expect(answer.body.contains("oauth_problem=temporarily_unavailable"))
    // The store's error describes the provider's infrastructure: for its logs, not the client.
    #expect(!answer.body.contains("127.0.0.1"))
    #expect(error.description.contains("connection refused"))
  }

  /// A request that fails any other check never reaches the store, even with a store that
  /// would throw: it gets its own problem, not `temporarily_unavailable`.
  @Test func requestsRefusedForAnotherReasonNeverReachTheStore() async throws {
    let recording = RecordingStore()
    let good = try header(nonce: "n-ok")
    let wrongSignature = good.replacingOccurrences(of: "oauth_signature=\"", with: "oauth_signature=\"A")
    let unknownConsumer = try header(nonce: "n-c", consumer: Credentials(key: "other-app", secret: "app-secret"))
    let unknownToken = try header(nonce: "n-t", token: Credentials(key: "other-token", secret: "user-secret"))
    let stale = try header(nonce: "n-ts", timestamp: Self.now - 3600)
    var changedBody = request
    changedBody.body = Data("name=c".utf8)
    let refused: [(String, OAuthRequest?, OAuthProblem)] = [
      (wrongSignature, nil, .signatureInvalid), (unknownConsumer, nil, .consumerKeyUnknown), (unknownToken, nil, .tokenRejected),
      (stale, nil, .timestampRefused), (good, changedBody, .signatureInvalid),
    ]
    for store in [recording as any OAuthNonceStore, ThrowingStore()] {
      for (authorization, changed, problem) in refused {
        let result = await outcome(verifier(store), authorization, changed)
        guard case .failure(let error) = result else {
          Issue.record("accepted a request that should fail with \(problem)")
          continue
        }
        #expect(error.problem == problem)
      }
    }
    #expect(recording.calls.isEmpty, "nonces recorded for refused requests: \(recording.calls)")

    // The valid request is recorded once, with its consumer, token, timestamp and nonce; its
    // replay is refused.
    let checked = verifier(recording)
    guard case .success = await outcome(checked, good) else {
      Issue.record("the valid request was refused")
      return
    }
    #expect(recording.calls == [.init(nonce: "n-ok", timestamp: Self.now, consumerKey: "app-key", token: "user-token")])
    guard case .failure(let replay) = await outcome(checked, good) else {
      Issue.record("a replay was accepted")
      return
    }
    #expect(replay.problem == .nonceUsed)
  }
}
