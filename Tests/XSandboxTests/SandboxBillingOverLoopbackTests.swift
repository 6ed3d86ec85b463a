import Foundation
import NetworkClient
import OAuth1
import TestSupport
import Testing
import XAPI
import XSandbox

/// The sandbox's billing as `tweets sandbox serve --credits --post-cap` serves it, behind the
/// oauthlib proxy, read and steered through `VerifiedSandbox` as the CLI's process tests do:
/// the charges of real requests over loopback, the usage endpoint, a balance set to zero and
/// topped up.
@Suite("Sandbox billing over loopback", .sandboxChecks, .tags(.peers, .processes), .tier(.peers, .processes))
struct SandboxBillingOverLoopbackTests {
  @Test func chargesOverTheWire() async throws {
    let server = try await VerifiedSandbox.start(tweetsPerUser: 20, credits: "0.50", postCap: 1000)
    let client = XClient(
      authentication: .oauth1(consumer: XSandbox.demoConsumer, token: XSandbox.demoAccessToken), baseURL: server.baseURL, retry: nil)
    let own = try await client.v2.userTweets(userID: "1001", options: TimelineOptions(maxResults: 10), limit: 10).tweets().collect()
    _ = try await client.v2.post(text: "A link costs more: https://example.com/pricing")
    var billing = try await server.billing()
    #expect(own.count == 10 && billing.spent == "0.21" && billing.balance == "0.29", "\(billing)")
    #expect(billing.charges["post_owned"]?.count == 10 && billing.charges["post_create_with_url"]?.amount == "0.20")

    let app = XClient(authentication: .bearer(VerifiedSandbox.bearerToken), baseURL: server.baseURL, retry: nil)
    let usage = try await app.v2.usage()
    #expect(usage.projectUsage == 10 && usage.projectCap == 1000 && usage.daily.map(\.posts) == [10])

    try await server.setCredits("0")
    let refused = await #expect(throws: XError.self) { try await client.v2.me() }
    if case .creditsDepleted? = refused {} else { Issue.record("expected CreditsDepleted, got \(String(describing: refused))") }
    try await server.addCredits("0.01")
    _ = try await client.v2.me()
    billing = try await server.billing()
    #expect(billing.balance == "0.00" && billing.spent == "0.22" && billing.postsInCycle == 10, "\(billing)")
  }
}
