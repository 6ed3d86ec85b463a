import Foundation
import TestSupport
import Testing

/// Which transport `tweets` runs on, and why, as `--verbose` says it: ``CurlTransport`` on the
/// libcurl.so.4 it loads at run time, and URLSession where libcurl cannot be loaded (a machine with
/// Swift but another libcurl, or none found). Both answer the same against the X sandbox behind
/// oauthlib's verifying proxy.
@Suite("The transport, loaded at run time", .sandboxChecks, .tags(.peers, .processes), .tier(.peers, .processes))
struct TransportChoiceTests {
  @Test("libcurl.so.4 loads: CurlTransport, with libcurl's version; where it cannot, URLSession, saying why; both fetch the timeline")
  func verboseNamesTheTransport() async throws {
    let server = try await VerifiedSandbox.start()
    defer { server.stop() }
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()

    let curl = try await tweets.run(["--verbose", "timeline", "--limit", "2", "--format", "jsonl"])
    #expect(curl.status == 0, "\(curl.stderr)")
    #expect(curl.stderr.contains("[verbose] transport: CurlTransport (libcurl "), "\(curl.stderr)")
    #expect(curl.stdout.split(separator: "\n").count == 2)

    let missing = try await tweets.run(
      ["--verbose", "timeline", "--limit", "2", "--format", "jsonl"], environment: ["NETWORKCLIENT_LIBCURL": "/nonexistent/libcurl.so.4"])
    #expect(missing.status == 0, "\(missing.stderr)")
    #expect(
      missing.stderr.contains(
        "[verbose] transport: URLSessionTransport (the library NETWORKCLIENT_LIBCURL names could not be loaded: FoundationNetworking's URLSession instead)"
      ), "\(missing.stderr)")
    #expect(missing.stdout == curl.stdout)
  }
}
