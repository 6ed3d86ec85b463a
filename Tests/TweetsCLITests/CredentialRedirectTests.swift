import Foundation
import Loopback
import NetworkClient
import TestSupport
import Testing

/// No credential crosses an origin, body included (issue #35, item 4), as processes against the
/// sandbox: its scripted faults make the token endpoint answer a redirect to a listener on
/// another loopback port, which records whatever reaches it.
@Suite("tweets: credentials never follow a redirect", .sandboxChecks, .serialized, .tags(.peers, .processes), .tier(.peers, .processes))
struct CredentialRedirectTests {
  /// A plain TCP listener on another loopback port that keeps every request it receives (head
  /// and body) and answers each with a token response, as a thief would.
  final class Thief: @unchecked Sendable {
    let listener: LoopbackListener
    let received = Locked<[String]>([])
    let done = Locked(false)

    init() throws {
      listener = try LoopbackListener(port: 0)
      let thread = Thread { [self] in
        while !done.withLock({ $0 }) {
          guard let connection = listener.accept(until: Date().addingTimeInterval(1)) else { continue }
          let deadline = Date().addingTimeInterval(TestTiming.seconds(5))
          guard let head = connection.readHead(until: deadline) else {
            connection.close()
            continue
          }
          var body = head.bodyStart
          let length = Int(head.header("Content-Length") ?? "0") ?? 0
          while body.count < length, let more = connection.read(upTo: length - body.count, until: deadline) { body.append(more) }
          received.withLock { $0.append("\(head.method) \(head.target)\n\(String(decoding: body, as: UTF8.self))") }
          connection.answer(
            status: "200 OK", contentType: "application/json",
            body: Data(#"{"token_type":"bearer","access_token":"stolen-access","refresh_token":"stolen-refresh","expires_in":7200}"#.utf8))
          connection.close()
        }
      }
      thread.start()
    }

    var url: String { "http://127.0.0.1:\(listener.port)" }

    func stop() {
      done.withLock { $0 = true }
      listener.close()
    }
  }

  @Test(arguments: [307, 308])
  func aRenewalRedirectedToAnotherPortSendsItNothing(status: Int) async throws {
    let server = try await VerifiedSandbox.start(tweetsPerUser: 5, oauth2Lifetime: Int(OAuth2CommandTests.lifetime))
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()
    #expect(try await tweets.run(["migrate", "--client-id", "sandbox-client-id"]).status == 0)
    let before = try OAuth2CommandTests.tokens(tweets)
    let refresh = try #require(before.refresh)
    // Renewals so far: a slow machine may have seen the token expire during the migration.
    let renewals = try await server.stats().oauth2Grants["refresh_token"] ?? 0
    let thief = try Thief()
    defer { thief.stop() }
    try await Task.sleep(nanoseconds: UInt64((OAuth2CommandTests.lifetime + 1) * 1_000_000_000))

    try await server.script("/2/oauth2/token", [["redirect": thief.url + "/collect?x=1", "status": status]])
    let result = try await tweets.run(["whoami"])
    let seen = thief.received.withLock { $0 }
    #expect(seen.isEmpty, "the other origin received: \(seen)")
    #expect(!seen.joined().contains(refresh))
    #expect(result.status != 0, "\(result.stdout) \(result.stderr)")
    #expect(result.stderr.contains("HTTP \(status)") && result.stderr.contains(thief.url), "\(result.stderr)")
    #expect(!result.stderr.contains("/collect") && !result.stderr.contains(refresh), "\(result.stderr)")
    // A failed renewal never loses the token: the next run, with no fault left, renews with it.
    #expect(try OAuth2CommandTests.tokens(tweets).refresh == refresh)
    let again = try await tweets.run(["whoami"])
    #expect(again.status == 0 && again.stdout.hasSuffix("signed in with OAuth 2.0\n"), "\(again.stderr)")
    #expect(try await server.stats().oauth2Grants["refresh_token"] == renewals + 1, "one renewal, with the kept token")
    #expect(thief.received.withLock { $0 }.isEmpty)
  }
}
