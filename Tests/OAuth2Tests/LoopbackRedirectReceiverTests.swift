import Foundation
import OAuth2
import TestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The loopback redirect receiver over a real socket: the registered path only, the page the
/// browser gets, and a deadline.
@Suite("LoopbackRedirectReceiver", .tags(.processes), .tier(.processes))
struct LoopbackRedirectReceiverTests {
  @Test func takesTheRedirectOnItsPathOnly() async throws {
    let receiver = try LoopbackRedirectReceiver(redirectURI: "http://127.0.0.1:0/callback", timeout: 30) { $0.contains("state=s1") }
    let port = receiver.port
    let (_, favicon) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/favicon.ico")!)
    #expect((favicon as? HTTPURLResponse)?.statusCode == 404)
    let (page, answer) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/callback?state=s1&code=c1")!)
    #expect((answer as? HTTPURLResponse)?.statusCode == 200 && String(decoding: page, as: UTF8.self).contains("Logged in"))
    #expect(try await receiver.redirect() == "/callback?state=s1&code=c1")
  }

  @Test func aRefusedRedirectIsShownAsSuchAndNoneEndsAtTheDeadline() async throws {
    let receiver = try LoopbackRedirectReceiver(redirectURI: "http://127.0.0.1:0/callback", timeout: 30) { _ in false }
    let port = receiver.port
    let (_, answer) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/callback?state=forged&code=c")!)
    #expect((answer as? HTTPURLResponse)?.statusCode == 400)
    _ = try await receiver.redirect()

    let quiet = try LoopbackRedirectReceiver(redirectURI: "http://127.0.0.1:0/callback", timeout: 1)
    await #expect(throws: OAuth2Error.missingCode("no redirect arrived within 1 s")) { _ = try await quiet.redirect() }
    #expect(throws: OAuth2Error.self) { _ = try LoopbackRedirectReceiver(redirectURI: "https://example.com/callback") }
  }
}
