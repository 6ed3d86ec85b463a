import CommandLineSupport
import Foundation
import NetworkClient
import OAuth1
import TestSupport
import Testing

/// `oauth1 verify --nonce-store redis://...`: separate processes share replay protection, and a
/// Redis that cannot answer fails every verification closed with its own exit status.
@Suite("oauth1 verify with a Redis nonce store", .tags(.processes, .redis), .tier(.processes, .redis), .redisServer)
struct VerifySharedNoncesTests {
  let consumer = Credentials(key: "app-key", secret: "app-secret-XYZ")
  let token = Credentials(key: "user-token", secret: "user-secret-XYZ")
  let request = OAuthRequest(method: "GET", url: "https://api.example.com/items?page=2")

  /// A valid `oauth1 verify` command line for a request signed with `nonce` just now.
  func arguments(nonce: String, store: String?, secret: String? = nil) throws -> [String] {
    let now = Int64(Date().timeIntervalSince1970)
    let header = try OAuthSignatureGenerator(
      consumerCredentials: consumer, credentials: token, request: request, options: .init(nonce: nonce, timestamp: now)
    ).authorizationHeader
    return [
      "verify", "--url", request.url, "--authorization", header, "--consumer-secret", secret ?? consumer.secret, "--token-secret",
      token.secret,
    ] + (store.map { ["--nonce-store", $0] } ?? [])
  }

  @Test func aReplayToAnotherProcessIsRefused() async throws {
    let redis = try LocalRedisServer()
    let command = try arguments(nonce: "n-1", store: redis.url)
    let first = try await oauth1(command)
    #expect(first.status == 0 && first.stdout.hasPrefix("valid\n"), "\(first.stdout)\(first.stderr)")
    let second = try await oauth1(command)
    #expect(second.status == 1 && second.stdout.hasPrefix("invalid: nonce_used"), "\(second.stdout)\(second.stderr)")
    // Without the store, each process remembers only its own nonces: the replay passes.
    let unshared = try await oauth1(try arguments(nonce: "n-2", store: nil))
    #expect(unshared.status == 0)
    #expect(try await oauth1(try arguments(nonce: "n-2", store: nil)).status == 0)
  }

  @Test func sixteenProcessesAtOnceAcceptOne() async throws {
    let redis = try LocalRedisServer()
    let command = try arguments(nonce: "race", store: redis.url)
    // A thread each, so that all 16 processes run at once (ProcessRunner.run runs at most
    // ProcessRunner.concurrentProcesses), all waited for off the concurrency pool.
    let all = try await onOwnThread {
      let results = Locked<[Result<ProcessResult, CLIFailure>]>([])
      let group = DispatchGroup()
      for _ in 0..<16 {
        group.enter()
        Thread.detachNewThread {
          let result = Result { () throws(CLIFailure) -> ProcessResult in
            do { return try ProcessRunner.runBlocking(PackagePaths.executable("oauth1"), command, timeout: 60) } catch {
              throw CLIFailure(description: "\(error)")
            }
          }
          results.withLock { $0.append(result) }
          group.leave()
        }
      }
      group.wait()
      return try results.withLock { $0 }.map { try $0.get() }
    }
    #expect(all.filter { $0.status == 0 }.count == 1, "\(all.map(\.status))")
    #expect(all.filter { $0.status == 1 && $0.stdout.hasPrefix("invalid: nonce_used") }.count == 15, "\(all.map(\.stdout))")
  }

  /// Redis stopped: every verification exits 3 (not 1, a bad request) and none is accepted;
  /// restarted: verifications pass again. A forged request is still refused for its signature.
  @Test func redisStoppedFailsClosedWithItsOwnStatus() async throws {
    let redis = try LocalRedisServer()
    #expect(try await oauth1(try arguments(nonce: "before", store: redis.url)).status == 0)
    redis.stop()
    for index in 0..<4 {
      let result = try await oauth1(try arguments(nonce: "during-\(index)", store: redis.url))
      #expect(result.status == 3, "\(result.stdout)\(result.stderr)")
      #expect(result.stdout.hasPrefix("invalid: temporarily_unavailable"))
      #expect(result.stdout.contains("cannot connect to Redis at 127.0.0.1:\(redis.port)"))
    }
    let forged = try await oauth1(try arguments(nonce: "during-forged", store: redis.url, secret: "wrong-secret"))
    #expect(forged.status == 1 && forged.stdout.hasPrefix("invalid: signature_invalid"))
    try redis.restart()
    let after = try await oauth1(try arguments(nonce: "after", store: redis.url))
    #expect(after.status == 0, "\(after.stdout)\(after.stderr)")
  }

  /// The URL, with its password, from OAUTH1_REDIS_URL; the password appears in no output.
  @Test func credentialsFromTheEnvironment() async throws {
    let redis = try LocalRedisServer(arguments: ["--requirepass", "REDIS-PASS-123"])
    var environment = ProcessInfo.processInfo.environment
    environment["OAUTH1_REDIS_URL"] = "redis://:REDIS-PASS-123@127.0.0.1:\(redis.port)/2"
    let command = try arguments(nonce: "env", store: nil)
    #expect(try await oauth1(command, environment: environment).status == 0)
    let replay = try await oauth1(command, environment: environment)
    #expect(replay.status == 1 && replay.stdout.hasPrefix("invalid: nonce_used"))
    environment["OAUTH1_REDIS_URL"] = "redis://:WRONG-PASS-456@127.0.0.1:\(redis.port)/2"
    let refused = try await oauth1(try arguments(nonce: "env-2", store: nil), environment: environment)
    #expect(refused.status == 3 && refused.stdout.contains("refused AUTH"), "\(refused.stdout)")
    for result in [replay, refused] { #expect(!(result.stdout + result.stderr).contains("PASS-")) }
  }

  /// `rediss://`: the server's certificate checked against the CA in SSL_CERT_FILE (OpenSSL's
  /// own variable for the trust store); without it the handshake fails closed, exit 3.
  @Test func overTLS() async throws {
    let certificates = try await TestCertificates()
    let redis = try LocalRedisServer(
      arguments: ["--requirepass", "TLS-PASS-789"],
      tls: [
        "--tls-cert-file", certificates.path("server.crt"), "--tls-key-file", certificates.path("server.key"), "--tls-ca-cert-file",
        certificates.path("ca.crt"), "--tls-auth-clients", "no",
      ])
    var environment = ProcessInfo.processInfo.environment
    environment["OAUTH1_REDIS_URL"] = "rediss://:TLS-PASS-789@localhost:\(redis.port)"
    environment["SSL_CERT_FILE"] = certificates.path("ca.crt")
    let command = try arguments(nonce: "tls", store: nil)
    let first = try await oauth1(command, environment: environment)
    #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
    let replay = try await oauth1(command, environment: environment)
    #expect(replay.status == 1 && replay.stdout.hasPrefix("invalid: nonce_used"))
    environment["SSL_CERT_FILE"] = nil
    let untrusted = try await oauth1(try arguments(nonce: "tls-2", store: nil), environment: environment)
    #expect(untrusted.status == 3 && untrusted.stdout.contains("certificate was refused"), "\(untrusted.stdout)")
    #expect(!(untrusted.stdout + untrusted.stderr).contains("TLS-PASS"))
  }
}
