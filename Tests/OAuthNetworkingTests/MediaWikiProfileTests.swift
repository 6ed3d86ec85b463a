import Foundation
import NetworkClient
import NetworkClientTesting
import OAuth1
import OAuthNetworking
import TestSupport
import Testing

/// MediaWiki: the title-style flow (its `title` query signed), the authorize URL with the
/// consumer key, and `Special:OAuth/identify`'s JWT checked by ``MediaWikiIdentity`` against
/// tokens issued by PyJWT 2.10.1 (pinned), which the package did not write.
@Suite("MediaWiki: title-style flow and the identify JWT", .tags(.peers), .tier(.peers))
struct MediaWikiProfileTests {
  static let consumer = Credentials(key: "c0ns", secret: "consumer-secret-for-hs256")
  static let issuer = "https://meta.wikimedia.org"

  @Test func theFlowSignsTheTitleQueryAndTheAuthorizeURLCarriesTheConsumerKey() async throws {
    let stub = StubTransport([.status(200, body: Data("oauth_token=rt&oauth_token_secret=rs&oauth_callback_confirmed=true".utf8))])
    let flow = try #require(OAuthProvider.mediaWiki().flow(consumer: Self.consumer, transport: stub))
    let temporary = try await flow.requestToken()
    let sent = try #require(stub.requests.first)
    #expect(sent.url.absoluteString.hasPrefix("https://meta.wikimedia.org/w/index.php?title=Special"), "\(sent.url)")
    // The title is signed: the verifier, given the request as sent, accepts it.
    let verifier = OAuthVerifier(
      credentials: InMemoryCredentialLookup(consumers: [Self.consumer.key: OAuthConsumer(secret: Self.consumer.secret)]),
      options: .init(maxClockSkew: 600))
    let verified = try await verifier.verify(OAuthRequest(sent), authorization: sent.headers["Authorization"])
    #expect(verified.parameters.contains(OAuthParameter("title", "Special:OAuth/initiate")))
    let authorize = flow.authorizeURL(for: temporary).absoluteString
    #expect(authorize.hasPrefix("https://meta.wikimedia.org/wiki/Special:OAuth/authorize?"), "\(authorize)")
    #expect(authorize.contains("oauth_consumer_key=c0ns") && authorize.contains("oauth_token=rt"), "\(authorize)")
  }

  @Test func theIdentifyJWTIsCheckedFieldByField() async throws {
    let now = Int(Date().timeIntervalSince1970)
    let good: [String: Any] = [
      "iss": Self.issuer, "aud": Self.consumer.key, "sub": "12345", "username": "Example", "groups": ["*", "user"], "nonce": "n-42",
      "iat": now, "exp": now + 100, "editcount": 7, "confirmed_email": true,
    ]
    func with(_ changes: [String: Any]) -> [String: Any] { good.merging(changes) { $1 } }
    let cases: [[String: Any]] = [
      ["claims": good], ["claims": good, "key": "another-secret"], ["claims": with(["aud": "other"])],
      ["claims": with(["iss": "https://evil.example"])], ["claims": with(["nonce": "n-41"])], ["claims": with(["exp": now - 1000])],
      ["claims": with(["iat": now + 1000])], ["claims": good, "algorithm": "none"],
    ]
    let output = try await PythonPeer.run(
      script: "mediawiki_jwt.py", input: try JSONSerialization.data(withJSONObject: ["secret": Self.consumer.secret, "cases": cases]))
    let tokens = try #require(try JSONSerialization.jsonObject(with: output) as? [String])
    #expect(tokens.count == cases.count)
    func check(_ token: String) throws(MediaWikiIdentity.ValidationError) -> MediaWikiIdentity {
      try MediaWikiIdentity.validated(token, consumerKey: Self.consumer.key, consumerSecret: Self.consumer.secret, issuer: Self.issuer, nonce: "n-42")
    }
    let identity = try check(tokens[0])
    #expect(identity.username == "Example" && identity.subject == "12345" && identity.groups == ["*", "user"])
    #expect(identity.claims["confirmed_email"] == .bool(true) && identity.claims["editcount"] == .number(7))
    #expect(throws: MediaWikiIdentity.ValidationError.signatureInvalid) { try check(tokens[1]) }
    #expect(throws: MediaWikiIdentity.ValidationError.wrongAudience(expected: "c0ns", found: "other")) { try check(tokens[2]) }
    #expect(throws: MediaWikiIdentity.ValidationError.wrongIssuer(expected: Self.issuer, found: "https://evil.example")) { try check(tokens[3]) }
    #expect(throws: MediaWikiIdentity.ValidationError.wrongNonce) { try check(tokens[4]) }
    for expired in [tokens[5], tokens[6]] {
      #expect {
        try check(expired)
      } throws: { error in
        guard case .outsideValidity = error as? MediaWikiIdentity.ValidationError else { return false }
        return true
      }
    }
    #expect {
      try check(tokens[7])
    } throws: { error in
      guard case .malformed = error as? MediaWikiIdentity.ValidationError else { return false }
      return true
    }
    for error in [MediaWikiIdentity.ValidationError.signatureInvalid, .wrongNonce, .malformed("x")] {
      #expect(!error.description.contains(Self.consumer.secret))
    }
  }
}
