import Foundation
import OAuth2
import TestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The loopback redirect receiver over a real socket: the registered path only, the page the
/// browser gets, and a deadline. Each receiver meets one connection: in full-suite runs a
/// second connection to the same receiver was refused twice, for a reason not found yet (see
/// the closing note of that stop).
@Suite("LoopbackRedirectReceiver", .tags(.processes), .tier(.processes))
struct LoopbackRedirectReceiverTests {
  static func get(_ port: Int, _ target: String) async throws -> (status: Int?, page: String) {
    let (data, answer) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)\(target)")!)
    return ((answer as? HTTPURLResponse)?.statusCode, String(decoding: data, as: UTF8.self))
  }

  @Test func takesTheRedirectOnItsPath() async throws {
    let receiver = try LoopbackRedirectReceiver(redirectURI: "http://127.0.0.1:0/callback", timeout: 30) { $0.contains("state=s1") }
    let answer = try await Self.get(receiver.port, "/callback?state=s1&code=c1")
    #expect(answer.status == 200 && answer.page.contains("Logged in"))
    #expect(try await receiver.redirect() == "/callback?state=s1&code=c1")
  }

  @Test func anotherPathIsNotTheRedirect() async throws {
    let receiver = try LoopbackRedirectReceiver(redirectURI: "http://127.0.0.1:0/callback", timeout: 2)
    let favicon = try await Self.get(receiver.port, "/favicon.ico")
    #expect(favicon.status == 404)
    await #expect(throws: OAuth2Error.missingCode("no redirect arrived within 2 s")) { _ = try await receiver.redirect() }
  }

  @Test func aRefusedRedirectIsShownAsSuch() async throws {
    let receiver = try LoopbackRedirectReceiver(redirectURI: "http://127.0.0.1:0/callback", timeout: 30) { _ in false }
    let answer = try await Self.get(receiver.port, "/callback?state=forged&code=c")
    #expect(answer.status == 400 && answer.page.contains("refused"))
    #expect(try await receiver.redirect() == "/callback?state=forged&code=c")
  }

  @Test func noRedirectEndsAtTheDeadlineAndOnlyLoopbackURIsAreTaken() async throws {
    let quiet = try LoopbackRedirectReceiver(redirectURI: "http://127.0.0.1:0/callback", timeout: 1)
    await #expect(throws: OAuth2Error.missingCode("no redirect arrived within 1 s")) { _ = try await quiet.redirect() }
    #expect(throws: OAuth2Error.self) { _ = try LoopbackRedirectReceiver(redirectURI: "https://example.com/callback") }
  }
}
