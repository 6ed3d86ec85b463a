import Foundation
import TestSupport
import Testing

@testable import OAuth1Redis

/// The client against a server that is not Redis, or is hostile: each case must fail closed
/// (the verification refused), within the command timeout, with a short error, and with memory
/// bounded by the reply limit. `Tests/Peers/hostile_redis.py` plays the server.
@Suite("Redis client against a hostile server", .serialized)
struct HostileRedisTests {
  func store(_ server: LoopbackServer, commandTimeout: Double = 1, poolSize: Int = 1, queued: Int = 1024) throws -> RedisNonceStore {
    var configuration = try RedisConfiguration(url: "redis://127.0.0.1:\(server.port)")
    configuration.commandTimeout = TestTiming.seconds(commandTimeout)
    configuration.poolSize = poolSize
    configuration.maximumQueuedCommands = queued
    return RedisNonceStore(configuration: configuration)
  }

  /// What `insert` came to, and how long it took.
  func insert(_ store: RedisNonceStore) async -> (error: RedisNonceStoreError?, accepted: Bool?, seconds: Double) {
    let start = Date()
    do {
      let accepted = try await store.insert(nonce: UUID().uuidString, timestamp: 1_700_000_000, consumerKey: "c", token: nil)
      return (nil, accepted, Date().timeIntervalSince(start))
    } catch {
      return (error as? RedisNonceStoreError, nil, Date().timeIntervalSince(start))
    }
  }

  /// `SET` on one connection, timed synchronously (through the async store, a full test run's
  /// busy cooperative pool would be timed too), then through the store, which must fail closed.
  func attack(_ server: LoopbackServer, commandTimeout: Double) async throws -> (error: RedisNonceStoreError, seconds: Double) {
    let store = try store(server, commandTimeout: commandTimeout)
    defer { store.shutDown() }
    let connection = try RedisConnection(store.configuration)
    let start = Date()
    var caught: RedisNonceStoreError?
    do {
      _ = try connection.send(["SET", "k", "1", "NX", "EXAT", "1700000600"])
    } catch {
      caught = error
    }
    let seconds = Date().timeIntervalSince(start)
    let error = try #require(caught, "the connection accepted the reply")
    let outcome = await insert(store)
    #expect(outcome.accepted == nil && outcome.error != nil, "the store did not fail closed: \(outcome)")
    return (error, seconds)
  }

  /// `SET` answered with a 4 MB array: refused from the array's header (4,096 elements, over
  /// the 1,024-element limit) at once; the error names the limit, not the reply. Before: 28 s,
  /// 231 MB resident and a 36.7 MB error line.
  @Test func aHugeReplyIsRefusedAtOnce() async throws {
    let server = try await LoopbackServer.start(script: "hostile_redis.py", arguments: ["--mode", "huge-array"])
    defer { server.stop() }
    let (error, seconds) = try await attack(server, commandTimeout: 5)
    guard case .protocolViolation = error else {
      Issue.record("\(error)")
      return
    }
    #expect(error.description.count < 300, "\(error.description.prefix(300))")
    // The error's kind shows the header was refused; the bound catches the old 28 s read of the
    // whole reply, not a busy machine's slow wake-up.
    #expect(seconds < TestTiming.seconds(4), "\(seconds) s")
    print("[hostile-redis] a 4 MB array: failed closed in \(String(format: "%.3f", seconds)) s: \(error)")
  }

  /// Arrays nested eight deep streamed 8 bytes every 5 ms: the bytes keep coming, so only a
  /// deadline checked on every read stops it. Before: still running after 35 s.
  @Test func aSlowStreamStopsAtTheCommandTimeout() async throws {
    let server = try await LoopbackServer.start(script: "hostile_redis.py", arguments: ["--mode", "slow-nested"])
    defer { server.stop() }
    let (error, seconds) = try await attack(server, commandTimeout: 0.5)
    guard case .timedOut = error else {
      Issue.record("\(error)")
      return
    }
    // At least the timeout; the upper bound catches the old failure (still reading after 35 s),
    // not a busy machine's slow wake-up.
    #expect(seconds >= 0.5 && seconds < TestTiming.seconds(0.5) + 10, "\(seconds) s")
    print("[hostile-redis] slow nested arrays: failed closed in \(String(format: "%.3f", seconds)) s: \(error)")
  }

  /// A server that never answers, one connection, at most sixteen commands queued: the rest
  /// are refused at once as overloaded, and the queued ones time out counted from when they
  /// were asked for: they expire in the queue, and are never sent after their time.
  @Test func theQueueIsBoundedAndQueuedCommandsHaveADeadline() async throws {
    let server = try await LoopbackServer.start(script: "hostile_redis.py", arguments: ["--mode", "silent"])
    defer { server.stop() }
    let timeout = 0.5
    let store = try store(server, commandTimeout: timeout, poolSize: 1, queued: 16)
    defer { store.shutDown() }
    let start = Date()
    let outcomes = await withTaskGroup(of: (error: RedisNonceStoreError?, accepted: Bool?, seconds: Double).self) { group in
      for _ in 0..<24 { group.addTask { await insert(store) } }
      return await group.reduce(into: []) { $0.append($1) }
    }
    let elapsed = Date().timeIntervalSince(start)
    #expect(outcomes.allSatisfy { $0.accepted == nil }, "nothing is accepted")
    let overloaded = outcomes.filter { if case .overloaded = $0.error { true } else { false } }
    let timedOut = outcomes.filter { if case .timedOut = $0.error { true } else { false } }
    #expect(overloaded.count >= 7, "\(outcomes.map { String(describing: $0.error) })")
    #expect(overloaded.count + timedOut.count == 24, "\(outcomes.map { String(describing: $0.error) })")
    // The queued ones expired in the queue, not one timeout after another on the connection.
    let expiredInQueue = timedOut.filter { "\($0.error!)".contains("waiting for a connection") }
    #expect(expiredInQueue.count >= timedOut.count - 2, "\(timedOut.map { String(describing: $0.error) })")
    // Loose: a full test run's busy cooperative pool delays the tasks' resumption.
    #expect(elapsed < TestTiming.seconds(20), "\(elapsed) s")
  }
}

/// The reply reader in process: limits refused from the header, control characters escaped in
/// errors, and cost linear in the reply whatever the size of the reads.
@Suite("RESP reader")
struct RESPReaderTests {
  @Test func limitsAreRefusedEarly() {
    let limits = RESPReader.Limits(maximumReplyBytes: 65_536)
    for (text, words) in [
      ("$4000000\r\n", "bulk string of 4000000 bytes"), ("*5000\r\n", "array of 5000 elements"),
      (String(repeating: "*1\r\n", count: 9) + ":1\r\n", "nested more than 8 deep"),
      ("+" + String(repeating: "a", count: 70_000), "65536-byte limit"),
      ("$9223372036854775807\r\n", "over the 65536-byte"), ("*9223372036854775807\r\n", "elements"), ("$-2\r\n", "bulk length"),
    ] {
      var reader = RESPReader(limits: limits)
      reader.append(Array(text.utf8))
      #expect(throws: RedisNonceStoreError.self, "\(text.prefix(40))") { try reader.next() }
      do {
        _ = try reader.next()
      } catch {
        #expect(error.description.contains(words), "\(error)")
      }
    }
  }

  @Test func errorsShowNoControlCharactersAndNoWholeReply() throws {
    let shown = RESP.shown("ERR bad\r\nX-Forged: 1" + String(repeating: "z", count: 1000))
    #expect(!shown.contains("\r") && !shown.contains("\n"))
    #expect(shown.count < 260)
    #expect(RESP.Reply.bulk(Array(repeating: 1, count: 4_000_000)).summary == "a bulk string of 4000000 bytes")
  }

  @Test func replySplitAcrossReadsOfAnySize() throws {
    let text = "*3\r\n+OK\r\n$5\r\nhello\r\n*2\r\n:1\r\n$-1\r\n+PONG\r\n"
    let bytes = Array(text.utf8)
    for size in 1...bytes.count {
      var reader = RESPReader(limits: .init(maximumReplyBytes: 65_536))
      var replies: [RESP.Reply] = []
      for start in stride(from: 0, to: bytes.count, by: size) {
        reader.append(bytes[start..<min(start + size, bytes.count)])
        while let reply = try reader.next() { replies.append(reply) }
      }
      #expect(
        replies == [.array([.simple("OK"), .bulk(Array("hello".utf8)), .array([.integer(1), .bulk(nil)])]), .simple("PONG")], "reads of \(size)")
      #expect(!reader.hasUnconsumedBytes)
    }
  }

  /// n and 4n bytes of reply, fed 16 bytes at a time (the old parser re-read from byte 0 on
  /// every read: quadratic). This thread's CPU time, best of three each, so that other work on
  /// the machine does not count; linear gives a ratio near 4, quadratic 16.
  @Test func costIsLinearInTheReply() throws {
    func seconds(items: Int) throws -> Double {
      let item = Array("$8\r\n12345678\r\n".utf8)
      var bytes = Array("*\(items)\r\n".utf8)
      for _ in 0..<items { bytes += item }
      var best = Double.infinity
      for _ in 0..<3 {
        var reader = RESPReader(limits: .init(maximumReplyBytes: bytes.count, maximumElements: items))
        let start = TestTiming.threadCPUSeconds()
        var reply: RESP.Reply?
        for chunk in stride(from: 0, to: bytes.count, by: 16) {
          reader.append(bytes[chunk..<min(chunk + 16, bytes.count)])
          if let done = try reader.next() { reply = done }
        }
        let elapsed = TestTiming.threadCPUSeconds() - start
        guard case .array(let parsed?) = reply, parsed.count == items else { throw RedisNonceStoreError.protocolViolation("no reply") }
        best = min(best, elapsed)
      }
      return best
    }
    let small = try seconds(items: 20_000)
    let large = try seconds(items: 80_000)
    print(
      "[linear] RESP reader: 20,000 items \(String(format: "%.4f", small)) s, 80,000 items \(String(format: "%.4f", large)) s, ratio \(String(format: "%.2f", large / small))"
    )
    #expect(large / small < 8, "4x the reply cost \(large / small)x")
  }
}
