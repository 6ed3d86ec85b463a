import Foundation
import OAuth1

/// A nonce store in Redis, shared by every process and host that verifies for the same
/// credentials: a request replayed to another instance of your service is refused too.
///
/// Each verification sends one atomic command, `SET key 1 NX EXAT expiry`: Redis sets the key
/// only if it is absent, so of two copies of a request sent at once exactly one is accepted (a
/// `GET` then a `SET` would let both pass). The key expires `window` seconds after the request's
/// own timestamp (or after now, for a timestamp in the past), as `InMemoryNonceStore`'s
/// entries do: counted from the insertion, a request dated ahead of the clock could outlive its
/// key and be replayed. Keep `window` at least the verifier's `2 × maxClockSkew` (600 s by
/// default), since a request is accepted for `maxClockSkew` seconds either side of its
/// timestamp. `EXAT` needs Redis 6.2 or later; an older server refuses it, and every
/// verification then fails closed.
///
/// When Redis cannot answer (down, restarting, timed out, refused `AUTH`), ``insert(nonce:timestamp:consumerKey:token:)``
/// throws and the verifier refuses the request as `temporarily_unavailable` (HTTP 503): it
/// fails closed. Connections are reopened on the next request, so a restarted Redis is used
/// again without restarting your service.
///
/// ```swift
/// let store = try RedisNonceStore(url: "redis://tool:s3cret@10.0.0.7:6379/2", poolSize: 16)  // or rediss:// for TLS
/// let verifier = OAuthVerifier(credentials: lookup, nonceStore: store)  // share one store per process
/// ```
public final class RedisNonceStore: OAuthNonceStore, Sendable {
  /// The server, credentials, timeouts and pool size.
  public let configuration: RedisConfiguration
  /// How long a nonce is kept, in seconds from its request's timestamp (or from now, if later).
  public let window: Int64
  /// What every key starts with, so that nonces share a Redis with other data safely.
  public let keyPrefix: String
  /// The clock that dates a key's expiry; give it the verifier's.
  private let clock: any OAuthClock
  private let pool: RedisConnectionPool

  /// Creates a store; no connection is opened until the first command.
  /// - Parameters:
  ///   - configuration: The server and how to talk to it.
  ///   - window: How long each nonce is kept, in seconds (at least 1); 600 by default, the
  ///     verifier's default `2 × maxClockSkew`.
  ///   - keyPrefix: The start of every key; `oauth1:nonce:` by default.
  ///   - clock: The clock that dates each key's expiry; the system clock by default.
  public init(configuration: RedisConfiguration, window: Int64 = 600, keyPrefix: String = "oauth1:nonce:", clock: any OAuthClock = SystemClock()) {
    self.configuration = configuration
    self.window = max(1, window)
    self.keyPrefix = keyPrefix
    self.clock = clock
    pool = RedisConnectionPool(configuration)
  }

  /// Creates a store from a `redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]` URL.
  /// - Parameters:
  ///   - url: Where Redis is; see ``RedisConfiguration/init(url:)``.
  ///   - poolSize: How many connections (and threads) to keep; 4 by default.
  ///   - window: How long each nonce is kept, in seconds; 600 by default.
  ///   - keyPrefix: The start of every key; `oauth1:nonce:` by default.
  /// - Throws: ``RedisNonceStoreError/invalidURL(reason:)`` naming the part of the URL that is wrong.
  public convenience init(url: String, poolSize: Int = 4, window: Int64 = 600, keyPrefix: String = "oauth1:nonce:") throws(RedisNonceStoreError) {
    var configuration = try RedisConfiguration(url: url)
    configuration.poolSize = max(1, poolSize)
    self.init(configuration: configuration, window: window, keyPrefix: keyPrefix)
  }

  deinit { pool.shutDown() }

  /// Records the nonce with `SET key 1 NX EXAT expiry`, the expiry `window` seconds (and one,
  /// for the last whole second) after the later of `timestamp` and now: `true` when Redis set it (a first use),
  /// `false` when the key was there (a replay).
  /// - Throws: ``RedisNonceStoreError`` when Redis cannot answer.
  public func insert(nonce: String, timestamp: Int64, consumerKey: String, token: String?) async throws -> Bool {
    let key = key(nonce: nonce, timestamp: timestamp, consumerKey: consumerKey, token: token)
    // One second more than the window, as InMemoryNonceStore keeps an entry through its expiry
    // second: whole-second clocks accept a timestamp for all of its last second. Never in the
    // past (Redis would accept the SET and drop the key at once: a replay would pass).
    let (end, overflow) = max(timestamp, clock.secondsSince1970()).addingReportingOverflow(window)
    let expiry = overflow || end == .max ? Int64.max : end + 1
    switch try await pool.run(["SET", key, "1", "NX", "EXAT", String(expiry)]) {
    case .simple("OK"): return true
    case .bulk(nil): return false
    case .error(let message): throw RedisNonceStoreError.serverError(command: "SET", serverSaid: RESP.shown(message))
    case let other: throw RedisNonceStoreError.protocolViolation("SET NX answered \(other.summary)")
    }
  }

  /// Sends `PING`: for a health check, or to open a connection before the first request.
  /// - Throws: ``RedisNonceStoreError`` when Redis cannot answer.
  public func ping() async throws {
    switch try await pool.run(["PING"]) {
    case .simple("PONG"): return
    case .error(let message): throw RedisNonceStoreError.serverError(command: "PING", serverSaid: RESP.shown(message))
    case let other: throw RedisNonceStoreError.protocolViolation("PING answered \(other.summary)")
    }
  }

  /// The key a nonce is recorded under: ``keyPrefix``, then the consumer key and the token
  /// (empty when there is none), each after its length in UTF-8 bytes, then the timestamp and
  /// the nonce: `oauth1:nonce:7:app-key:10:user-token:1700000000:nonce-1`. The lengths make it
  /// unambiguous: no two different (consumer, token, timestamp, nonce) give the same key.
  public func key(nonce: String, timestamp: Int64, consumerKey: String, token: String?) -> String {
    let token = token ?? ""
    return "\(keyPrefix)\(consumerKey.utf8.count):\(consumerKey):\(token.utf8.count):\(token):\(timestamp):\(nonce)"
  }

  /// Stops the store's threads and closes its connections; later calls throw
  /// ``RedisNonceStoreError/shutDown``. Also done when the store is released.
  public func shutDown() {
    pool.shutDown()
  }

  /// Runs any command on the pool (for tests: `PTTL`, `DBSIZE`).
  func command(_ parts: [String]) async throws -> RESP.Reply {
    try await pool.run(parts)
  }
}
