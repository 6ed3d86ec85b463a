import CommandLineSupport
import Foundation
import OAuth1
import TestSupport
import Testing

@testable import OAuth1Redis

/// `rediss://`: the store against a redis-server listening with TLS only, its certificate from
/// a throwaway CA.
@Suite("RedisNonceStore over TLS", .tags(.redis), .tier(.redis), .redisServer)
struct RedisTLSTests {
  static let now: Int64 = 1_700_000_000

  func serverTLS(_ certificates: TestCertificates, clientCertificates: Bool = false) -> [String] {
    [
      "--tls-cert-file", certificates.path("server.crt"), "--tls-key-file", certificates.path("server.key"),
      "--tls-ca-cert-file", certificates.path("ca.crt"), "--tls-auth-clients", clientCertificates ? "yes" : "no",
    ]
  }

  func store(_ url: String, ca: String?, client: TestCertificates? = nil, poolSize: Int = 2) throws -> RedisNonceStore {
    var configuration = try RedisConfiguration(url: url)
    configuration.tlsCAFile = ca
    configuration.tlsCertificateFile = client?.path("client.crt")
    configuration.tlsKeyFile = client?.path("client.key")
    configuration.poolSize = poolSize
    return RedisNonceStore(configuration: configuration)
  }

  @Test func aNonceIsRecordedOverTLSWithPasswordAndDatabase() async throws {
    let certificates = try await TestCertificates()
    let redis = try LocalRedisServer(arguments: ["--requirepass", "tls-pass"], tls: serverTLS(certificates))
    for host in ["127.0.0.1", "localhost"] {
      let tls = try store("rediss://:tls-pass@\(host):\(redis.port)/4", ca: certificates.path("ca.crt"))
      #expect(try await tls.insert(nonce: "n", timestamp: Self.now, consumerKey: host, token: nil))
      #expect(try await !tls.insert(nonce: "n", timestamp: Self.now, consumerKey: host, token: nil))
    }
    // The plain protocol on the TLS port gets no answer that reads as RESP.
    let plain = try store("redis://:tls-pass@127.0.0.1:\(redis.port)", ca: nil)
    await #expect(throws: RedisNonceStoreError.self) { try await plain.ping() }
  }

  /// An idle TLS connection is reused (TLS 1.3 session tickets, read after the handshake, do
  /// not make it look stale), and reopened after a restart.
  @Test func connectionsAreReusedAndReopenedAfterARestart() async throws {
    let certificates = try await TestCertificates()
    let redis = try LocalRedisServer(tls: serverTLS(certificates))
    let tls = try store(redis.url, ca: certificates.path("ca.crt"), poolSize: 1)
    func clientID() async throws -> Int64 {
      guard case .integer(let id) = try await tls.command(["CLIENT", "ID"]) else { throw RedisNonceStoreError.protocolViolation("CLIENT ID") }
      return id
    }
    let first = try await clientID()
    try await Task.sleep(nanoseconds: 100_000_000)
    #expect(try await clientID() == first)
    redis.stop()
    await #expect(throws: RedisNonceStoreError.self) { try await tls.ping() }
    try redis.restart()
    try await tls.ping()
  }

  @Test func anUntrustedOrMisnamedCertificateIsRefused() async throws {
    let certificates = try await TestCertificates()
    let redis = try LocalRedisServer(arguments: ["--bind", "127.0.0.1", "127.0.0.2"], tls: serverTLS(certificates))
    // The system's trust store does not know the test CA.
    let untrusted = try store(redis.url, ca: nil)
    await #expect {
      try await untrusted.ping()
    } throws: { error in
      guard case RedisNonceStoreError.tlsFailed(_, _, let reason) = error else { return false }
      return reason.contains("certificate was refused")
    }
    // The certificate names 127.0.0.1 and localhost, not 127.0.0.2.
    let misnamed = try store("rediss://127.0.0.2:\(redis.port)", ca: certificates.path("ca.crt"))
    await #expect {
      try await misnamed.ping()
    } throws: { error in
      guard case RedisNonceStoreError.tlsFailed(_, _, let reason) = error else { return false }
      return reason.contains("certificate was refused")
    }
    let missingCA = try store(redis.url, ca: certificates.path("absent.crt"))
    await #expect {
      try await missingCA.ping()
    } throws: { error in
      guard case RedisNonceStoreError.tlsConfiguration(let reason) = error else { return false }
      return reason.contains("absent.crt")
    }
  }

  /// With `tls-auth-clients yes`, Redis's default, the store needs a client certificate.
  @Test func aClientCertificate() async throws {
    let certificates = try await TestCertificates()
    let redis = try LocalRedisServer(tls: serverTLS(certificates, clientCertificates: true))
    let without = try store(redis.url, ca: certificates.path("ca.crt"))
    await #expect(throws: RedisNonceStoreError.self) { try await without.ping() }
    let with = try store(redis.url, ca: certificates.path("ca.crt"), client: certificates)
    #expect(try await with.insert(nonce: "n", timestamp: Self.now, consumerKey: "c", token: nil))
  }
}
