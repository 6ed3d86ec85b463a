import Foundation
import OAuth1
import TestSupport
import Testing

/// The diff names the right difference for each kind of mismatch. "Ours" is what the signer
/// signed; "the provider's" is the base string of the request as a provider saw it (another
/// method, scheme, port, a parameter lost or re-encoded on the way), or a published one.
@Suite("Base string diff")
struct BaseStringDiffTests {
  let consumer = Credentials(key: "ck", secret: "cs")
  let token = Credentials(key: "tk", secret: "ts")

  func baseString(_ method: String, _ url: String, form: String? = nil) throws -> String {
    try OAuthSignatureGenerator(
      consumer: consumer, token: token,
      request: OAuthRequest(
        method: method, url: url, body: form.map { Data($0.utf8) }, contentType: form == nil ? nil : "application/x-www-form-urlencoded"),
      options: .init(nonce: "n0nce", timestamp: 1_700_000_000)
    ).signatureBaseString
  }

  @Test func equalStringsHaveNoDifference() throws {
    let ours = try baseString("GET", "https://api.example.com/items?a=1")
    let diff = OAuthBaseStringDiff(ours: ours, provider: ours)
    #expect(diff.differences.isEmpty && diff.first == nil)
    #expect(diff.description.contains("the key differs"))
  }

  @Test func aWrongMethod() throws {
    let diff = OAuthBaseStringDiff(
      ours: try baseString("POST", "https://api.example.com/items"), provider: try baseString("GET", "https://api.example.com/items"))
    #expect(diff.differences == [.method(ours: "POST", provider: "GET")])
  }

  @Test func httpsSignedHttpSeenBehindAProxy() throws {
    let diff = OAuthBaseStringDiff(
      ours: try baseString("GET", "https://api.example.com/items"), provider: try baseString("GET", "http://api.example.com/items"))
    #expect(diff.first == .scheme(ours: "https", provider: "http"))
    #expect(diff.differences.count == 1)
    #expect(diff.description.contains("the scheme: we signed https, the provider http"))
  }

  @Test func aPortTheProviderDidNotSee() throws {
    let diff = OAuthBaseStringDiff(
      ours: try baseString("GET", "https://api.example.com:8443/items"), provider: try baseString("GET", "https://api.example.com/items"))
    #expect(diff.differences == [.port(ours: 8443, provider: nil)])
    let ipv6 = OAuthBaseStringDiff(
      ours: try baseString("GET", "http://[::1]:8080/items"), provider: try baseString("GET", "http://[::1]/items"))
    #expect(ipv6.differences == [.port(ours: 8080, provider: nil)])
  }

  @Test func aHostAndAPath() throws {
    let diff = OAuthBaseStringDiff(
      ours: try baseString("GET", "https://api.example.com/v1/items"), provider: try baseString("GET", "https://internal.example/items"))
    #expect(diff.differences == [.host(ours: "api.example.com", provider: "internal.example"), .path(ours: "/v1/items", provider: "/items")])
  }

  @Test func aParameterMissingAndOneExtra() throws {
    // A form body the provider did not read as a form (a wrong Content-Type, say).
    let missing = OAuthBaseStringDiff(
      ours: try baseString("POST", "https://api.example.com/items", form: "status=hello"),
      provider: try baseString("POST", "https://api.example.com/items"))
    #expect(missing.differences == [.missing(name: "status", value: "hello")])
    let extra = OAuthBaseStringDiff(
      ours: try baseString("GET", "https://api.example.com/items"), provider: try baseString("GET", "https://api.example.com/items?page=2"))
    #expect(extra.differences == [.extra(name: "page", value: "2")])
  }

  @Test func aDuplicateDropped() throws {
    let diff = OAuthBaseStringDiff(
      ours: try baseString("GET", "https://api.example.com/items?id=1&id=2"), provider: try baseString("GET", "https://api.example.com/items?id=1"))
    #expect(diff.differences == [.duplicateDropped(name: "id", value: "2")])
  }

  @Test func aValueThatChangedOnTheWay() throws {
    // `+` in a query is a space to a form decoder and a plus to RFC 3986.
    let diff = OAuthBaseStringDiff(
      ours: try baseString("GET", "https://api.example.com/search?q=a%2Bb"), provider: try baseString("GET", "https://api.example.com/search?q=a%20b")
    )
    #expect(diff.differences == [.value(name: "q", ours: "a%2Bb", provider: "a%20b")])
  }

  /// Mastercard's reference signer single-encodes `oauth_body_hash` in its base string (its
  /// published test, `Vectors/mastercard-oauth1-signer.json`); the RFC's is encoded twice. The
  /// diff names exactly that parameter, as encoded differently.
  @Test func mastercardsPublishedBaseStringDiffersInTheBodyHashEncodingOnly() throws {
    let vector = try #require(try VectorFile.loadAll().flatMap(\.vectors).first { $0.id == "mastercard-base-string-integrated" })
    let published = try #require(vector.expected.baseString)
    let rfc = try #require(vector.computed?.baseString)
    let diff = OAuthBaseStringDiff(ours: rfc, provider: published)
    #expect(
      diff.differences == [
        .encodedDifferently(
          name: "oauth_body_hash", ours: "oauth_body_hash=h2Pd7zlzEZjZVIKB4j94UZn%2FxxoR3RoCjYQ9%2FJdadGQ%3D",
          provider: "oauth_body_hash=h2Pd7zlzEZjZVIKB4j94UZn/xxoR3RoCjYQ9/JdadGQ=")
      ])
  }

  @Test func theSameURIWrittenDifferently() throws {
    let ours = try baseString("GET", "https://api.example.com/items")
    let diff = OAuthBaseStringDiff(ours: ours, provider: ours.replacingOccurrences(of: "api.example.com", with: "API.Example.com"))
    #expect(diff.differences == [.uri(ours: "https://api.example.com/items", provider: "https://API.Example.com/items")])
  }

  @Test func theSameParametersInAnotherOrderOrADefaultPortWritten() throws {
    let ours = try baseString("GET", "https://api.example.com/items?a=1&b=2")
    let parts = ours.split(separator: "&").map(String.init)
    let reordered = OAuthBaseStringDiff(
      ours: ours, provider: parts[0] + "&" + parts[1] + "&" + (parts[2].components(separatedBy: "%26").reversed().joined(separator: "%26")))
    guard case .normalization = reordered.first, reordered.differences.count == 1 else {
      Issue.record("expected one normalization difference, got \(reordered.differences)")
      return
    }
    let explicitPort = OAuthBaseStringDiff(ours: ours, provider: ours.replacingOccurrences(of: "api.example.com", with: "api.example.com%3A443"))
    #expect(explicitPort.differences == [.uri(ours: "https://api.example.com/items", provider: "https://api.example.com:443/items")])
  }

  @Test func sensitiveValuesRedacted() throws {
    let ours = try baseString("POST", "https://api.example.com/login", form: "user=ann&password=hunter2")
    let provider = try baseString("POST", "https://api.example.com/login", form: "user=ann")
    let diff = OAuthBaseStringDiff(ours: ours, provider: provider).redacted { $0 == "password" }
    #expect(diff.differences == [.missing(name: "password", value: "<redacted>")])
    #expect(!diff.description.contains("hunter2") && diff.ours.contains("password%3D%3Credacted%3E"))
    #expect(diff.ours.contains("user%3Dann"))
  }

  @Test func notABaseString() {
    let diff = OAuthBaseStringDiff(ours: "GET&https%3A%2F%2Fa.example%2F&", provider: "Invalid signature")
    guard case .unreadable = diff.first else {
      Issue.record("expected unreadable, got \(String(describing: diff.first))")
      return
    }
  }
}
