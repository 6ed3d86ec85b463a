import Foundation
import OAuth1
import Testing

/// An LTI-style launch signed for the public URL and received by the tool behind a reverse
/// proxy that ends TLS and forwards to a local port, with the headers nginx and RFC 7239
/// proxies add.
@Suite("Verifier behind a proxy")
struct BehindAProxyTests {
  static let now: Int64 = 1_700_000_000
  let consumer = Credentials(key: "lms", secret: "lti-secret")
  let received = "http://127.0.0.1:8080/lti/launch?course=7"
  let form = Data("lti_message_type=basic-lti-launch-request&resource_link_id=r1&user_id=u%2B1".utf8)

  func launch() throws -> (OAuthRequest, String) {
    let signed = try OAuthSignatureGenerator(
      consumer: consumer,
      request: OAuthRequest(
        method: "POST", url: "https://tool.example.edu/lti/launch?course=7", body: form, contentType: "application/x-www-form-urlencoded"),
      options: .init(nonce: "n-\(UUID().uuidString)", timestamp: Self.now))
    var asReceived = signed.request
    asReceived.url = received
    return (asReceived, signed.authorizationHeader)
  }

  func verifier(_ publicURL: OAuthPublicURL) -> OAuthVerifier {
    var options = OAuthVerifier.Options(clock: FixedClock(seconds: Self.now))
    options.publicURL = publicURL
    return OAuthVerifier(credentials: InMemoryCredentialLookup(consumers: ["lms": OAuthConsumer(secret: "lti-secret")]), options: options)
  }

  let nginx: [(name: String, value: String)] = [("X-Forwarded-Proto", "https"), ("X-Forwarded-Host", "tool.example.edu"), ("Host", "127.0.0.1:8080")]

  @Test func withoutTheProxyRuleTheSignatureFailsAndTheDiffSaysWhy() async throws {
    let (request, header) = try launch()
    do {
      _ = try await verifier(.asReceived).verify(request, authorization: header, headers: nginx, peerAddress: "127.0.0.1")
      Issue.record("a request signed for https://tool.example.edu was accepted at \(received)")
    } catch {
      #expect(error.problem == .signatureInvalid)
      let signedFor = try OAuthSignatureBaseString.make(
        received: OAuthRequest(
          method: "POST", url: "https://tool.example.edu/lti/launch?course=7", body: form,
          contentType: "application/x-www-form-urlencoded"),
        authorization: header)
      let diff = OAuthBaseStringDiff(ours: signedFor, provider: try #require(error.signatureBaseString))
      #expect(
        diff.differences == [
          .scheme(ours: "https", provider: "http"), .host(ours: "tool.example.edu", provider: "127.0.0.1"), .port(ours: nil, provider: 8080),
        ])
    }
  }

  @Test func aFixedPublicOrigin() async throws {
    let (request, header) = try launch()
    let verified = try await verifier(.origin("https://tool.example.edu")).verify(request, authorization: header)
    #expect(verified.consumerKey == "lms")
  }

  @Test func forwardedHeadersFromATrustedProxy() async throws {
    let (request, header) = try launch()
    _ = try await verifier(.forwarded(trustedProxies: ["127.0.0.1"], headers: .xForwarded)).verify(
      request, authorization: header, headers: nginx, peerAddress: "127.0.0.1")
    let (second, secondHeader) = try launch()
    let rfc7239: [(name: String, value: String)] = [("Forwarded", #"for=203.0.113.9;proto=https;host="tool.example.edu""#)]
    _ = try await verifier(.forwarded(trustedProxies: ["::1"], headers: .forwarded)).verify(
      second, authorization: secondHeader, headers: rfc7239, peerAddress: "[::1]")
  }

  @Test func spoofedHeadersFromAnUntrustedAddressAreIgnored() async throws {
    let (request, header) = try launch()
    await #expect(throws: OAuthVerificationError.self) {
      _ = try await verifier(.forwarded(trustedProxies: ["10.0.0.5"], headers: .xForwarded)).verify(
        request, authorization: header, headers: nginx, peerAddress: "198.51.100.7")
    }
    // And a client that signs for the URL the server sees cannot pass by adding the headers.
    let direct = try OAuthSignatureGenerator(
      consumer: consumer,
      request: OAuthRequest(method: "POST", url: received, body: form, contentType: "application/x-www-form-urlencoded"),
      options: .init(nonce: "direct", timestamp: Self.now))
    _ = try await verifier(.forwarded(trustedProxies: ["10.0.0.5"], headers: .xForwarded)).verify(
      direct.request, authorization: direct.authorizationHeader, headers: nginx, peerAddress: "198.51.100.7")
  }

  /// nginx configured to set `X-Forwarded-Proto` only passes the client's own `Forwarded` and
  /// `X-Forwarded-Host` through: only the family named, and in it only what the proxy sets, counts.
  @Test func aClientsOwnForwardingHeadersOfTheOtherFamilyAreIgnored() async throws {
    // Signed by an attacker for https://evil.example/lti/launch, sent through the proxy.
    let attack = try OAuthSignatureGenerator(
      consumer: consumer,
      request: OAuthRequest(
        method: "POST", url: "https://evil.example/lti/launch?course=7", body: form, contentType: "application/x-www-form-urlencoded"),
      options: .init(nonce: "attack", timestamp: Self.now))
    var received = attack.request
    received.url = self.received
    let headers: [(name: String, value: String)] = [("Forwarded", "proto=https;host=evil.example"), ("X-Forwarded-Proto", "https")]
    await #expect(throws: OAuthVerificationError.self) {
      _ = try await verifier(.forwarded(trustedProxies: ["127.0.0.1"], headers: .xForwarded)).verify(
        received, authorization: attack.authorizationHeader, headers: headers, peerAddress: "127.0.0.1")
    }
    // The Host header the server received is kept when the proxy reports only the scheme.
    let trusted = OAuthPublicURL.forwarded(trustedProxies: ["127.0.0.1"], headers: .xForwarded)
    #expect(
      trusted.resolve(url: "http://127.0.0.1:8080/a", host: "tool.example.edu", headers: [("X-Forwarded-Proto", "https")], peerAddress: "127.0.0.1")
        == "https://tool.example.edu/a")
  }

  @Test func howOriginsAreRewritten() {
    let url = "http://127.0.0.1:8080/a/b?x=1"
    #expect(OAuthPublicURL.origin("https://example.com:8443").resolve(url: url, headers: [], peerAddress: nil) == "https://example.com:8443/a/b?x=1")
    #expect(OAuthPublicURL.origin("https://example.com:443").resolve(url: url, headers: [], peerAddress: nil) == "https://example.com/a/b?x=1")
    let trusted = OAuthPublicURL.forwarded(trustedProxies: ["127.0.0.1"], headers: .xForwarded)
    // The nearest proxy's value is the last one.
    #expect(
      trusted.resolve(url: url, headers: [("X-Forwarded-Proto", "http, https"), ("X-Forwarded-Port", "9443")], peerAddress: "127.0.0.1")
        == "https://127.0.0.1:9443/a/b?x=1")
    #expect(trusted.resolve(url: url, headers: [("X-Forwarded-Proto", "https")], peerAddress: "127.0.0.1") == "https://127.0.0.1/a/b?x=1")
    #expect(trusted.resolve(url: url, headers: [], peerAddress: "127.0.0.1") == url)
    #expect(trusted.resolve(url: url, headers: [("X-Forwarded-Proto", "https")], peerAddress: nil) == url)
  }
}
