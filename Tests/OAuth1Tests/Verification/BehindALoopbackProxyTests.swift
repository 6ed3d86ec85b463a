import Foundation
import Loopback
import OAuth1
import TestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The verifier in a real server behind a real reverse proxy on loopback
/// (`Tests/Peers/forwarding_proxy.py`, set up as nginx is): the client signs the public URL
/// `https://tool.example.edu:8443/...`, the proxy forwards plain http to the server's own port
/// from 127.0.0.2 and sets `X-Forwarded-*` (or `Forwarded`).
@Suite("Verifier behind a loopback proxy", .tags(.peers), .tier(.peers), .serialized)
struct BehindALoopbackProxyTests {
  let publicURL = "https://tool.example.edu:8443/lti/launch?course=7"
  let form = "lti_message_type=basic-lti-launch-request&resource_link_id=r1&user_id=u%2B1"

  /// A tool: builds the request URL from its `Host` header, as server frameworks do, and verifies.
  func tool(_ publicURL: OAuthPublicURL) throws -> LoopbackHTTPServer {
    var options = OAuthVerifier.Options()
    options.publicURL = publicURL
    let verifier = OAuthVerifier(credentials: InMemoryCredentialLookup(consumers: ["lms": OAuthConsumer(secret: "lti-secret")]), options: options)
    return try LoopbackHTTPServer { request in
      let received = OAuthRequest(
        method: request.method, url: "http://" + (request.header("Host") ?? "127.0.0.1") + request.target, body: request.body,
        contentType: request.header("Content-Type"))
      do throws(OAuthVerificationError) {
        let verified = try await verifier.verify(
          received, authorization: request.header("Authorization"), headers: request.headers, peerAddress: request.peerAddress)
        return .init(status: 200, body: Data("valid \(verified.consumerKey) from \(request.peerAddress)".utf8))
      } catch {
        return .init(status: error.problem.httpStatus, body: Data(error.problem.rawValue.utf8))
      }
    }
  }

  func proxy(to server: LoopbackHTTPServer, headers: String = "x-forwarded") async throws -> LoopbackServer {
    try await LoopbackServer.start(
      script: "forwarding_proxy.py",
      arguments: ["--backend", server.baseURL.absoluteString, "--public-host", "tool.example.edu", "--public-port", "8443", "--headers", headers])
  }

  /// A launch signed for the public URL, sent to `target` (with `extraHeaders`).
  func launch(to target: URL, extraHeaders: [String: String] = [:]) async throws -> (Int, String) {
    let signed = try OAuthSignatureGenerator(
      consumer: Credentials(key: "lms", secret: "lti-secret"),
      request: OAuthRequest(method: "POST", url: publicURL, body: Data(form.utf8), contentType: "application/x-www-form-urlencoded"))
    var request = URLRequest(url: target.appendingPathComponent("lti/launch").appending(queryItems: [URLQueryItem(name: "course", value: "7")]))
    request.httpMethod = "POST"
    request.timeoutInterval = 150  // the proxy waits up to 120 s for a loaded machine's server
    request.httpBody = Data(form.utf8)
    request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
    request.setValue(signed.authorizationHeader, forHTTPHeaderField: "Authorization")
    for (name, value) in extraHeaders { request.setValue(value, forHTTPHeaderField: name) }
    let (data, response) = try await URLSession.tests.data(for: request)
    return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
  }

  @Test("Accepted through the trusted proxy; refused when the proxy is not trusted")
  func trustedAndNot() async throws {
    let trusted = try tool(.forwarded(trustedProxies: ["127.0.0.2"], headers: .xForwarded))
    let viaProxy = try await proxy(to: trusted)
    let accepted = try await launch(to: viaProxy.baseURL)
    #expect(accepted.0 == 200 && accepted.1 == "valid lms from 127.0.0.2", "\(accepted)")

    let untrusting = try tool(.asReceived)
    let proxyToUntrusting = try await proxy(to: untrusting)
    let refused = try await launch(to: proxyToUntrusting.baseURL)
    #expect(refused.0 == 401 && refused.1 == "signature_invalid", "\(refused)")

    let forwardedTool = try tool(.forwarded(trustedProxies: ["127.0.0.2"], headers: .forwarded))
    let forwardedProxy = try await proxy(to: forwardedTool, headers: "forwarded")
    let rfc7239 = try await launch(to: forwardedProxy.baseURL)
    #expect(rfc7239.0 == 200, "\(rfc7239)")
  }

  @Test("Forwarding headers a client sends itself are ignored")
  func spoofedHeadersIgnored() async throws {
    let server = try tool(.forwarded(trustedProxies: ["127.0.0.2"], headers: .xForwarded))
    let spoofed = ["X-Forwarded-Proto": "https", "X-Forwarded-Host": "tool.example.edu", "X-Forwarded-Port": "8443"]
    // Straight to the tool, from 127.0.0.1: not the proxy.
    let direct = try await launch(to: server.baseURL, extraHeaders: spoofed)
    #expect(direct.0 == 401 && direct.1 == "signature_invalid", "\(direct)")
    // Through the proxy, a client's own Forwarded header for another origin is dropped and replaced.
    let viaProxy = try await proxy(to: server)
    let evil = try await launch(
      to: viaProxy.baseURL, extraHeaders: ["Forwarded": "proto=https;host=evil.example", "X-Forwarded-Host": "evil.example"])
    #expect(evil.0 == 200, "\(evil)")
  }
}
