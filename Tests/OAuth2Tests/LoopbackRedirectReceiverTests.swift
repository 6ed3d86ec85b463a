import Foundation
import OAuth2
import TestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The loopback redirect receiver over a real socket: the registered path only, the page the
/// browser gets, the login's state, and a deadline. Each receiver meets one connection: in full-suite runs a
/// second connection to the same receiver was refused twice, for a reason not found yet (see
/// the closing note of that stop).
@Suite("LoopbackRedirectReceiver", .tags(.processes), .tier(.processes))
struct LoopbackRedirectReceiverTests {
  static func get(_ port: Int, _ target: String) async throws -> (status: Int?, page: String) {
    let (data, answer) = try await URLSession.tests.data(from: URL(string: "http://127.0.0.1:\(port)\(target)")!)
    return ((answer as? HTTPURLResponse)?.statusCode, String(decoding: data, as: UTF8.self))
  }

  @Test func takesTheRedirectOnItsPath() async throws {
    let receiver = try LoopbackRedirectReceiver(redirectURI: "http://127.0.0.1:0/callback", state: "s1", timeout: 30)
    let answer = try await Self.get(receiver.port, "/callback?state=s1&code=c1")
    #expect(answer.status == 200 && answer.page.contains("Logged in"))
    #expect(try await receiver.redirect() == "/callback?state=s1&code=c1")
  }

  /// A browser's other requests (its icon) get a 404 and do not end the wait: the redirect that
  /// comes next is the one taken. (A long deadline: the deadline itself is the next tests'.)
  @Test func anotherPathIsNotTheRedirect() async throws {
    let receiver = try LoopbackRedirectReceiver(redirectURI: "http://127.0.0.1:0/callback", state: "s1", timeout: 300)
    let favicon = try await Self.get(receiver.port, "/favicon.ico")
    #expect(favicon.status == 404)
    #expect(try await Self.get(receiver.port, "/callback?state=s1&code=c1").status == 200)
    #expect(try await receiver.redirect() == "/callback?state=s1&code=c1")
  }

  /// The provider's refusal, with this login's state, ends the wait: the program says why.
  @Test func aRefusedRedirectIsShownAsSuch() async throws {
    let receiver = try LoopbackRedirectReceiver(redirectURI: "http://127.0.0.1:0/callback", state: "s1", timeout: 30)
    let answer = try await Self.get(receiver.port, "/callback?state=s1&error=access_denied")
    #expect(answer.status == 400 && answer.page.contains("refused"))
    #expect(try await receiver.redirect() == "/callback?state=s1&error=access_denied")
  }

  @Test func noRedirectEndsAtTheDeadlineAndOnlyLoopbackURIsAreTaken() async throws {
    let quiet = try LoopbackRedirectReceiver(redirectURI: "http://127.0.0.1:0/callback", state: "s1", timeout: 1)
    await #expect(throws: OAuth2Error.missingCode("no redirect arrived within 1 s")) { _ = try await quiet.redirect() }
    #expect(throws: OAuth2Error.self) { _ = try LoopbackRedirectReceiver(redirectURI: "https://example.com/callback", state: "s1") }
  }
}

/// Issue #35 item 8: a forged redirect does not end the wait, and `localhost` is listened on at
/// both loopback addresses.
@Suite("LoopbackRedirectReceiver against a local attacker", .tags(.processes), .tier(.processes))
struct LoopbackRedirectReceiverAttackTests {
  /// Any local process can request the redirect URI first: with the wrong state it gets an
  /// error page, and the receiver goes on waiting for the redirect of this login.
  @Test func aForgedRedirectDoesNotEndTheWait() async throws {
    // A long wait: in a full test run this task may wait for a cooperative thread for tens of
    // seconds, and a receiver that gave up meanwhile would refuse the connections.
    let receiver = try LoopbackRedirectReceiver(redirectURI: "http://127.0.0.1:0/callback", state: "s1", timeout: 300)
    for target in ["/callback?state=forged&code=attacker", "/callback?code=attacker", "/callback?state=s&code=a", "/callback?state=s1x&code=a"] {
      let (status, _) = try await LoopbackRedirectReceiverTests.get(receiver.port, target)
      #expect(status == 400, "\(target)")
    }
    let forged = try RawSocket(port: receiver.port)
    forged.send("GET /callback?state=forged&code=attacker HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    let page = String(decoding: forged.receive(timeout: TestTiming.seconds(5)), as: UTF8.self)
    #expect(page.hasPrefix("HTTP/1.1 400"), "\(page)")
    let right = try RawSocket(port: receiver.port)
    right.send("GET /callback?state=s1&code=c1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    #expect(String(decoding: right.receive(timeout: TestTiming.seconds(5)), as: UTF8.self).hasPrefix("HTTP/1.1 200"))
    #expect(try await receiver.redirect() == "/callback?state=s1&code=c1")
  }

  /// `localhost` resolves to ::1 first on many systems: the receiver listens there too, on the
  /// same port, and refuses to start when another process holds that port on ::1.
  @Test func localhostIsListenedOnAtBothAddresses() async throws {
    // A machine without IPv6 has no ::1 for anybody to hold.
    guard (try? RawSocketListener.onIPv6()) != nil else { return }
    let receiver = try LoopbackRedirectReceiver(redirectURI: "http://localhost:0/callback", state: "s1", timeout: 30)
    let socket = try RawSocket(port: receiver.port, host: "::1")
    socket.send("GET /callback?state=s1&code=c1 HTTP/1.1\r\nHost: localhost\r\n\r\n")
    #expect(String(decoding: socket.receive(timeout: TestTiming.seconds(5)), as: UTF8.self).hasPrefix("HTTP/1.1 200"))
    #expect(try await receiver.redirect() == "/callback?state=s1&code=c1")

    let squatter = try RawSocketListener.onIPv6()
    #expect(throws: OAuth2Error.self) {
      _ = try LoopbackRedirectReceiver(redirectURI: "http://localhost:\(squatter.port)/callback", state: "s1", timeout: 5)
    }
  }

  /// Connections that send nothing, or trickle, do not hold up the browser's redirect (the
  /// receiver read one connection at a time: an idle one held it 10 s).
  @Test func idleConnectionsDoNotHoldTheRedirect() async throws {
    let receiver = try LoopbackRedirectReceiver(redirectURI: "http://127.0.0.1:0/callback", state: "s1", timeout: 300)
    let idle = try (0..<4).map { _ in try RawSocket(port: receiver.port) }
    idle[0].send("GET /callback?state=s1")
    // On this thread, with blocking sockets: the answer must come well inside the 10 s an idle
    // connection was held (a task of the busy cooperative pool could not be timed so).
    let browser = try RawSocket(port: receiver.port)
    browser.send("GET /callback?state=s1&code=c1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    let answer = String(decoding: browser.receive(timeout: TestTiming.seconds(5)), as: UTF8.self)
    #expect(answer.hasPrefix("HTTP/1.1 200"), "the redirect waited for the idle connections: \(answer.prefix(80))")
    #expect(try await receiver.redirect() == "/callback?state=s1&code=c1")
    withExtendedLifetime(idle) {}
  }

  /// The named limits, as documented.
  @Test func theLimits() {
    #expect(LoopbackRedirectReceiver.maxHeadBytes == 16_384)
    #expect(LoopbackRedirectReceiver.connectionTimeout == 10 && LoopbackRedirectReceiver.maxConnections == 16)
  }
}
