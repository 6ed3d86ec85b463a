import Foundation
import NetworkClient
import Testing
import XAPI

@testable import TweetsCore

@Suite("tweets command line")
struct CommandLineTests {
  @Test func theCommandIsFoundAmongGlobalOptions() {
    #expect(TweetsCLI.shell.split(["--sandbox", "timeline", "jack"]).0 == "timeline")
    #expect(TweetsCLI.shell.split(["--format", "json", "search", "swift"]).0 == "search")
    #expect(TweetsCLI.shell.split(["--format", "json", "search", "swift"]).1 == ["--format", "json", "swift"])
    #expect(TweetsCLI.shell.split(["--limit=5", "show", "1"]).0 == "show")
    #expect(TweetsCLI.shell.split(["--verbose"]).0 == nil)
  }

  @Test func exitCodes() {
    #expect(ExitCode.for(XError.couldNotAuthenticate(message: "")) == .authentication)
    #expect(ExitCode.for(XError.timestampOutOfBounds(skew: 10)) == .authentication)
    #expect(ExitCode.for(XError.accessLevel(message: "")) == .authentication)
    #expect(ExitCode.for(XError.rateLimited(reset: nil, rateLimit: nil)) == .rateLimited)
    #expect(ExitCode.for(XError.notFound(message: "")) == .notFound)
    #expect(ExitCode.for(XError.api(status: 503, code: nil, message: "")) == .serverError)
    #expect(ExitCode.for(XError.unexpectedResponse(status: 502, excerpt: "")) == .serverError)
    #expect(ExitCode.for(XError.network(.cancelled)) == .failure)
    let refused = XBudgetError.wouldExceed(limit: .zero, spent: .zero, inFlight: .zero, next: .cents(1), request: "GET /2/tweets")
    #expect(ExitCode.for(XError.network(.rejected(by: "XBudgetBehavior", underlying: refused))) == .budget)
    #expect(TweetsCLI.describe(XError.network(.rejected(by: "XBudgetBehavior", underlying: refused))).1 == .budget)
    #expect(ExitCode.allCases.map(\.rawValue) == [0, 1, 2, 3, 4, 5, 6, 7, 130, 143])
  }
}
