import Foundation
import NetworkClient
import NetworkClientTesting
import OAuth1
import OAuthNetworking
import Testing

@Suite("OAuthRequestBehavior")
struct OAuthRequestBehaviorTests {
  let consumer = Credentials(key: "ck", secret: "cs")
  let token = Credentials(key: "tk", secret: "ts")
  let api = URL(string: "https://api.example.com/1.1")!

  /// Recomputes the signature from the header's nonce and timestamp, for the request as it was
  /// sent: it matches only if the behavior signed exactly that request.
  func verify(_ request: HTTPRequest, token: Credentials? = nil) throws -> Bool {
    let fields = try OAuthAuthorizationHeader.parse(try #require(request.headers["Authorization"]))
    let value = { (name: String) in fields.parameters.first { $0.name == name }?.value }
    let expected = try OAuthSignatureGenerator(
      consumerCredentials: consumer, credentials: token ?? self.token, request: OAuthRequest(request),
      options: .init(nonce: value("oauth_nonce"), timestamp: value("oauth_timestamp").flatMap { Int64($0) }))
    return expected.signature == value("oauth_signature")
  }

  /// A server redirecting a query-signed request often repeats the query in `Location`, old
  /// signature included: the next hop is signed afresh, with one set of protocol parameters.
  @Test func aQuerySignedRedirectIsSignedOnceAgain() async throws {
    let stub = StubTransport([
      .handler { request in
        let moved = request.url.absoluteString.replacingOccurrences(of: "/old/", with: "/new/")
        return HTTPResponse(statusCode: 307, headers: ["Location": moved], request: request)
      }, .status(200),
    ])
    let behavior = OAuthRequestBehavior(consumer: consumer, token: token, placement: .query)
    let client = NetworkClient(baseURL: api, behavior: behavior, transport: stub)
    _ = try await client.send(Request<Data>(path: "old/items", query: [("page", "2")]))
    let sent = try #require(stub.requests.last)
    let names = (URLComponents(url: sent.url, resolvingAgainstBaseURL: false)?.queryItems ?? []).map(\.name)
    #expect(names.filter { $0 == "oauth_signature" }.count == 1 && names.contains("page"), "\(sent.url)")
    let verifier = OAuthVerifier(
      credentials: InMemoryCredentialLookup(
        consumers: [consumer.key: OAuthConsumer(secret: consumer.secret)], tokens: [token.key: token.secret]))
    let verified = try await verifier.verify(OAuthRequest(method: "GET", url: sent.url.absoluteString), authorization: nil)
    #expect(verified.parameters.map(\.name) == ["page"])
  }

  @Test func signsTheFinalRequestIncludingQueryAndFormBody() async throws {
    struct AddParameter: RequestBehavior {
      func modify(_ request: HTTPRequest) async throws -> HTTPRequest {
        var request = request
        request.url = URL(string: request.url.absoluteString + "&added=late")!
        return request
      }
    }
    let stub = StubTransport([.status(200)])
    // The signer is listed first, yet signs after AddParameter changed the URL.
    let client = NetworkClient(
      baseURL: api, behavior: CombinedRequestBehavior([OAuthRequestBehavior(consumer: consumer, token: token), AddParameter()]), transport: stub)
    _ = try await client.send(
      Request<Data>(method: .post, path: "statuses/update.json", query: [("include_entities", "true")], body: .form([("status", "Hello + world")])))
    let sent = try #require(stub.requests.first)
    #expect(sent.url.absoluteString.hasSuffix("&added=late"))
    #expect(try verify(sent))
    let changed = HTTPRequest(method: sent.method, url: sent.url, headers: sent.headers, body: Data("status=Hello".utf8))
    #expect(try !verify(changed), "the form body is covered by the signature")
  }

  @Test func jsonBodiesAreNotSignedButCanBeHashed() async throws {
    let stub = StubTransport([.status(201), .status(201)])
    struct Post: Encodable, Sendable { let text: String }
    let plain = NetworkClient(baseURL: api, behavior: OAuthRequestBehavior(consumer: consumer, token: token), transport: stub)
    _ = try await plain.send(Request<Data>(method: .post, path: "tweets", body: .json(Post(text: "hi"))))
    let hashed = NetworkClient(
      baseURL: api, behavior: OAuthRequestBehavior(consumer: consumer, token: token, configuration: .init(bodyHash: .sha1)), transport: stub)
    _ = try await hashed.send(Request<Data>(method: .post, path: "tweets", body: .json(Post(text: "hi"))))
    #expect(try verify(stub.requests[0]))
    #expect(!(stub.requests[0].headers["Authorization"] ?? "").contains("oauth_body_hash"))
    let bodyHash = try OAuthBodyHash.compute(body: Array(#"{"text":"hi"}"#.utf8))
    #expect((stub.requests[1].headers["Authorization"] ?? "").contains("oauth_body_hash=\"\(OAuthPercentEncoding.encode(bodyHash))\""))
  }

  @Test func everyRetryIsSignedAfresh() async throws {
    let stub = StubTransport([.status(503), .status(503), .status(200)])
    let retry = RetryBehavior(baseDelay: 0, jitter: { 0 })
    let client = NetworkClient(
      baseURL: api, behavior: CombinedRequestBehavior([retry, OAuthRequestBehavior(consumer: consumer, token: token)]), transport: stub)
    _ = try await client.send(Request<Data>(path: "statuses/home_timeline.json"))
    let nonces = try stub.requests.map { request in
      try OAuthAuthorizationHeader.parse(request.headers["Authorization"] ?? "").parameters.first { $0.name == "oauth_nonce" }?.value
    }
    #expect(stub.requests.count == 3)
    #expect(Set(nonces).count == 3, "each attempt has its own nonce")
    #expect(try stub.requests.allSatisfy { try verify($0) })
  }

  @Test func queryPlacement() async throws {
    let stub = StubTransport([.status(200)])
    let client = NetworkClient(baseURL: api, behavior: OAuthRequestBehavior(consumer: consumer, token: token, placement: .query), transport: stub)
    _ = try await client.send(Request<Data>(path: "x", query: [("a", "1")]))
    let sent = try #require(stub.requests.first)
    #expect(sent.headers["Authorization"] == nil)
    #expect(sent.url.query?.hasPrefix("a=1&oauth_consumer_key=ck&") == true)
    #expect(sent.url.query?.contains("oauth_signature=") == true)
  }

  @Test func aSigningFailureIsATypedRejection() async throws {
    let stub = StubTransport([.status(200)])
    let rsaWithoutKey = OAuthRequestBehavior(consumer: consumer, configuration: .init(signatureMethod: .rsaSHA1))
    await #expect {
      try await NetworkClient(baseURL: api, behavior: rsaWithoutKey, transport: stub).send(Request<Data>(path: "x"))
    } throws: { error in
      guard case .rejected(let behavior, let underlying) = error as? NetworkError else { return false }
      return behavior == "OAuthRequestBehavior" && (underlying as? OAuthError) == .missingPrivateKey(.rsaSHA1)
    }
    #expect(stub.requests.isEmpty, "nothing unsigned is sent")
  }
}
