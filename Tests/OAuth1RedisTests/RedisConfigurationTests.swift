import Foundation
import Testing

@testable import OAuth1Redis

/// The `redis://` URL, the key and RESP, without a server.
@Suite("Redis nonce store: URL, key and RESP")
struct RedisConfigurationTests {
  @Test func urlsAreRead() throws {
    let plain = try RedisConfiguration(url: "redis://cache.internal")
    #expect(plain.host == "cache.internal" && plain.port == 6379 && plain.database == 0 && plain.password == nil && plain.username == nil)
    let full = try RedisConfiguration(url: "redis://tool:s%40cret@10.0.0.7:6380/2")
    #expect(full.host == "10.0.0.7" && full.port == 6380 && full.database == 2)
    #expect(full.username == "tool" && full.password == "s@cret")
    let passwordOnly = try RedisConfiguration(url: "redis://:s3cret@localhost/5")
    #expect(passwordOnly.username == nil && passwordOnly.password == "s3cret" && passwordOnly.database == 5)
    let ipv6 = try RedisConfiguration(url: "redis://[::1]:7000")
    #expect(ipv6.host == "::1" && ipv6.port == 7000)
  }

  /// A password holding an unencoded "/" (or "@"): the userinfo ends at the last "@". It was
  /// split at the "/" and the error printed the password as a path ("/hunter2@host").
  @Test func aPasswordWithASlashIsReadAndNeverPrinted() throws {
    let slash = try RedisConfiguration(url: "redis://user:12345/hunter2@cache.internal:6380/3")
    #expect(slash.username == "user" && slash.password == "12345/hunter2")
    #expect(slash.host == "cache.internal" && slash.port == 6380 && slash.database == 3)
    let at = try RedisConfiguration(url: "redis://:p@ss/w@rd@localhost")
    #expect(at.password == "p@ss/w@rd" && at.host == "localhost")
    for url in ["redis://user:12345/hunter2@host:notaport", "redis://user:12345/hunter2@host/x", "redis://user:hunter2@/1"] {
      do {
        _ = try RedisConfiguration(url: url)
        Issue.record("\(url) was read")
      } catch {
        #expect(!"\(error)".contains("hunter2"), "\(error)")
      }
    }
  }

  @Test func badURLsSayWhichPartIsWrong() {
    let cases: [(String, String)] = [
      ("http://localhost", "scheme"), ("redis://", "host is missing"), ("redis://localhost:99999", "port"),
      ("redis://localhost/two", "database number"), ("redis://localhost/?db=2", "query"),
    ]
    for (url, words) in cases {
      #expect {
        _ = try RedisConfiguration(url: url)
      } throws: { error in
        guard case RedisNonceStoreError.invalidURL(let reason) = error else { return false }
        return reason.contains(words)
      }
    }
  }

  @Test func rediss() throws {
    let tls = try RedisConfiguration(url: "rediss://:pw@cache.internal:6380/1")
    #expect(tls.useTLS && tls.host == "cache.internal" && tls.port == 6380 && tls.database == 1 && tls.password == "pw")
    #expect("\(tls)" == "rediss://:***@cache.internal:6380/1")
    #expect(try !RedisConfiguration(url: "redis://cache.internal").useTLS)
  }

  /// The password is never shown: not by `description`, not by `dump`, not in an error.
  @Test func thePasswordIsNeverShown() throws {
    let configuration = try RedisConfiguration(url: "redis://tool:TOPSECRET@localhost/1")
    #expect("\(configuration)" == "redis://tool:***@localhost:6379/1")
    var dumped = ""
    dump(configuration, to: &dumped)
    #expect(!dumped.contains("TOPSECRET"))
    let errors: [RedisNonceStoreError] = [
      .authenticationFailed(user: "tool", serverSaid: "WRONGPASS invalid username-password pair"),
      .cannotConnect(host: "localhost", port: 6379, reason: "Connection refused"),
    ]
    for error in errors { #expect(!"\(error)".contains("TOPSECRET")) }
    #expect {
      _ = try RedisConfiguration(url: "TOPSECRETPASSWORD123://x")
    } throws: { !"\($0)".contains("TOPSECRETPASSWORD123") }
  }

  /// Parts cannot run into each other: ("ab", "c") and ("a", "bc") differ, and so do a nonce
  /// that looks like the rest of another key.
  @Test func keysAreUnambiguous() {
    let store = RedisNonceStore(configuration: RedisConfiguration(), window: 600, keyPrefix: "p:")
    let tuples: [(String, String?, Int64, String)] = [
      ("ab", "c", 1, "n"), ("a", "bc", 1, "n"), ("a", nil, 1, "n"), ("a", "", 1, "n"), ("a:1", nil, 1, "n"), ("a", "1:", 1, "n"),
      ("a", nil, 11, "n"), ("a", nil, 1, "1:n"), ("a", nil, 1, "n:"),
    ]
    let keys = tuples.map { store.key(nonce: $0.3, timestamp: $0.2, consumerKey: $0.0, token: $0.1) }
    // No token and an empty one are the same, as in InMemoryNonceStore; all others differ.
    #expect(keys[2] == keys[3])
    #expect(Set(keys).count == keys.count - 1)
    #expect(keys.allSatisfy { $0.hasPrefix("p:") })
    #expect(
      store.key(nonce: "nonce-1", timestamp: 1_700_000_000, consumerKey: "app-key", token: "user-token")
        == "p:7:app-key:10:user-token:1700000000:nonce-1")
  }

  @Test func respRoundTrips() throws {
    #expect(String(decoding: RESP.encode(["SET", "k", "1"]), as: UTF8.self) == "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1\r\n1\r\n")
    let replies: [(String, RESP.Reply)] = [
      ("+OK\r\n", .simple("OK")), ("-ERR no\r\n", .error("ERR no")), (":42\r\n", .integer(42)), ("$-1\r\n", .bulk(nil)),
      ("$3\r\nabc\r\n", .bulk(Array("abc".utf8))), ("*2\r\n:1\r\n$1\r\nx\r\n", .array([.integer(1), .bulk([UInt8(ascii: "x")])])),
    ]
    for (text, reply) in replies {
      let bytes = Array(text.utf8)
      let parsed = try RESP.parse(bytes, from: 0)
      #expect(parsed?.0 == reply && parsed?.end == bytes.count)
      // Every strict prefix is incomplete, not an error.
      for cut in 0..<bytes.count { #expect(try RESP.parse(Array(bytes[0..<cut]), from: 0) == nil) }
    }
    #expect(throws: RedisNonceStoreError.self) { try RESP.parse(Array("HTTP/1.1 400\r\n".utf8), from: 0) }
  }
}
