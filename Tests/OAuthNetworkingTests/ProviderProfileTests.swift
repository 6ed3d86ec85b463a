import Foundation
import NetworkClient
import NetworkClientTesting
import OAuth1
import OAuth1Testing
import OAuthNetworking
import TestSupport
import Testing

/// The profiles give what their providers document, and the published examples in `Vectors/`
/// reproduce through them.
@Suite("Provider profiles")
struct ProviderProfileTests {
  @Test func everyNamedProfileResolves() throws {
    for name in OAuthProvider.names {
      let site =
        ["jira", "confluence", "bitbucket", "magento", "woocommerce", "lti"].contains(name)
        ? "https://server.example" : name == "netsuite" ? "123456_SB1" : nil
      let provider = try OAuthProvider.named(name, site: site)
      #expect(provider.name == name)
      #expect(provider.acceptedSignatureMethods.first == provider.signatureMethod)
    }
    #expect(throws: OAuthProvider.LookupError.self) { try OAuthProvider.named("jira") }
    #expect(throws: OAuthProvider.LookupError.self) { try OAuthProvider.named("myspace") }
  }

  @Test func netSuiteWritesTheSandboxRealmAndHostsDifferently() throws {
    for account in ["123456_SB1", "123456-sb1", "123456_sb1"] {
      let provider = OAuthProvider.netSuite(accountID: account)
      #expect(provider.realm == "123456_SB1")
      #expect(provider.endpoints?.requestToken == "https://123456-sb1.restlets.api.netsuite.com/rest/requesttoken")
      #expect(provider.signatureMethod == .hmacSHA256)
    }
    #expect(try OAuthProvider.named("netsuite", site: "https://123456-sb1.app.netsuite.com").realm == "123456_SB1")
  }

  /// Oracle's REST web services example header (`Vectors/netsuite-tba.json`), signed by the
  /// behavior the NetSuite profile gives a `NetworkClient`.
  @Test func netSuitesPublishedHeaderThroughTheProfile() async throws {
    let provider = OAuthProvider.netSuite(accountID: "123456")
    let stub = StubTransport([.status(200, body: Data("{}".utf8))])
    var configuration = provider.configuration()
    configuration.clock = FixedClock(seconds: 1_508_242_306)
    configuration.nonceSource = RepeatedNonce("fjaLirsIcCGVZWzBX0pg")
    let behavior = OAuthRequestBehavior(
      consumer: Credentials(
        key: "ef40afdd8abaac111b13825dd5e5e2ddddb44f86d5a0dd6dcf38c20aae6b67e4",
        secret: "d26ad321a4b2f23b0741c8d38392ce01c3e23e109df6c96eac6d099e9ab9e8b5"),
      token: Credentials(
        key: "2b0ce516420110bcbd36b69e99196d1b7f6de3c6234c5afb799b73d87569f5cc",
        secret: "c29a677df7d5439a458c063654187e3d678d73aca8e3c9d8bea1478a3eb0d295"),
      configuration: configuration, placement: provider.placement)
    let client = NetworkClient(baseURL: provider.baseURL, behavior: behavior, transport: stub)
    _ = try await client.send(Request<Data>(path: "services/rest/record/v1/employee/40"))
    let header = try #require(stub.requests.first?.headers["Authorization"])
    let fields = try OAuthAuthorizationHeader.parse(header)
    #expect(fields.realm == "123456")
    #expect(fields.parameters.first { $0.name == "oauth_signature" }?.value == "B5OIWznZ2YP0OB7VrJrGkYsTh+8H+5T9Hag+o92q0zY=")
  }

  /// Mastercard's integrated example (`Vectors/mastercard-oauth1-signer.json`): the XML body
  /// hashed as the profile says reproduces Mastercard's published `oauth_body_hash`, and the
  /// base string is the RFC's (Mastercard's own signer single-encodes the hash: see the diff test).
  @Test func mastercardsPublishedRequestThroughTheProfile() throws {
    let vectors = try VectorFile.loadAll().flatMap(\.vectors)
    let integrated = try #require(vectors.first { $0.id == "mastercard-base-string-integrated" })
    let body = try #require(vectors.first { $0.id == "mastercard-body-hash-sha256-4" }?.input.body)
    let parameters = Dictionary(uniqueKeysWithValues: try #require(integrated.input.params).map { ($0[0], $0[1]) })
    let pem = try #require(vectors.compactMap(\.input.rsaPrivateKeyPEM).first)
    let provider = OAuthProvider.mastercard()
    let options = OAuthSignatureGenerator.Options(
      configuration: provider.configuration(privateKey: try RSAPrivateKey(pem: pem)), nonce: parameters["oauth_nonce"],
      timestamp: parameters["oauth_timestamp"].flatMap { Int64($0) })
    let generator = try OAuthSignatureGenerator(
      consumer: Credentials(key: try #require(parameters["oauth_consumer_key"]), secret: ""),
      request: OAuthRequest(method: "POST", url: try #require(integrated.input.url), body: Data(body.utf8), contentType: "application/xml"),
      options: options)
    #expect(generator.protocolParameters.contains(OAuthParameter("oauth_body_hash", try #require(parameters["oauth_body_hash"]))))
    #expect(generator.signatureBaseString == integrated.computed?.baseString)
  }

  @Test func mastercardHashesAnEmptyPostWithSHA256() async throws {
    let provider = OAuthProvider.mastercard()
    let pem = try #require(try VectorFile.loadAll().flatMap(\.vectors).compactMap(\.input.rsaPrivateKeyPEM).first)
    let key = try RSAPrivateKey(pem: pem)
    let stub = StubTransport([.status(200, body: Data())])
    let client = NetworkClient(
      baseURL: provider.baseURL, behavior: provider.behavior(consumer: Credentials(key: "ck", secret: ""), privateKey: key), transport: stub)
    _ = try await client.send(Request<Data>(method: .post, path: "fraud/v1/inquiry"))
    let fields = try OAuthAuthorizationHeader.parse(try #require(stub.requests.first?.headers["Authorization"]))
    // SHA-256 of nothing, base64.
    #expect(fields.parameters.contains(OAuthParameter("oauth_body_hash", "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=")))
    #expect(fields.parameters.contains(OAuthParameter("oauth_signature_method", "RSA-SHA256")))
    #expect(!fields.parameters.contains { $0.name == "oauth_token" })
  }

  @Test func wooCommerceSignsOneLeggedInTheQuery() async throws {
    let provider = OAuthProvider.wooCommerce(siteURL: URL(string: "http://shop.example")!)
    let stub = StubTransport([.status(200, body: Data("[]".utf8))])
    let client = NetworkClient(
      baseURL: provider.baseURL, behavior: provider.behavior(consumer: Credentials(key: "ck_1", secret: "cs_1")), transport: stub)
    _ = try await client.send(Request<Data>(path: "wp-json/wc/v3/orders", query: [("per_page", "5")]))
    let sent = try #require(stub.requests.first)
    #expect(sent.headers["Authorization"] == nil)
    let query = try #require(URLComponents(url: sent.url, resolvingAgainstBaseURL: false)?.queryItems)
    #expect(query.contains { $0.name == "oauth_signature_method" && $0.value == "HMAC-SHA256" })
    #expect(query.contains { $0.name == "per_page" } && !query.contains { $0.name == "oauth_token" })
  }

  @Test func trelloAndDiscogsFlowsCarryTheirQuirks() throws {
    let trello = try #require(OAuthProvider.trello(applicationName: "My App", scope: "read,write").flow(consumer: Credentials(key: "k", secret: "s")))
    let url = trello.authorizeURL(for: TemporaryCredentials(credentials: Credentials(key: "rt", secret: "x"))).absoluteString
    #expect(url == "https://trello.com/1/OAuthAuthorizeToken?oauth_token=rt&name=My%20App&scope=read%2Cwrite&expiration=30days")
    #expect(OAuthProvider.discogs.headers["User-Agent"] != nil)
    #expect(try OAuthProvider.named("x", site: nil).endpoints?.requestToken == "oauth/request_token")
  }

  @Test func aDiscogsFlowSendsItsUserAgentToTheTokenHost() async throws {
    let stub = StubTransport([.status(200, body: Data("oauth_token=t&oauth_token_secret=s&oauth_callback_confirmed=true".utf8))])
    let flow = try #require(OAuthProvider.discogs.flow(consumer: Credentials(key: "k", secret: "s"), transport: stub))
    _ = try await flow.requestToken()
    let sent = try #require(stub.requests.first)
    #expect(sent.url.absoluteString == "https://api.discogs.com/oauth/request_token")
    #expect(sent.headers["User-Agent"]?.isEmpty == false)
  }
}
