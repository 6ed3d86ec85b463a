import Foundation
import OAuth1
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("OAuthSignatureGenerator")
struct SignatureGeneratorTests {

  let consumer = Credentials(key: "consumer key", secret: "consumer-SECRET-1")
  let token = Credentials(key: "token", secret: "token-SECRET-2")

  func sign(_ request: OAuthRequest, _ options: OAuthSignatureGenerator.Options = .init(nonce: "n", timestamp: 1)) throws -> OAuthSignatureGenerator {
    try OAuthSignatureGenerator(consumerCredentials: consumer, credentials: token, request: request, options: options)
  }

  @Test func defaultNonceIsRandomURLSafeAndLongEnough() throws {
    var nonces = Set<String>()
    for _ in 0..<200 {
      let generator = try OAuthSignatureGenerator(consumerCredentials: consumer, request: OAuthRequest(url: "https://a.example/"))
      let nonce = try #require(generator.protocolParameters.first { $0.name == "oauth_nonce" }?.value)
      #expect(nonce.count == 32)  // 24 random bytes: 192 bits
      #expect(nonce.utf8.allSatisfy(OAuthPercentEncoding.isUnreserved))
      nonces.insert(nonce)
    }
    #expect(nonces.count == 200)
  }

  @Test func timestampComesFromTheInjectedClock() throws {
    let generator = try sign(OAuthRequest(url: "https://a.example/"), .init(nonce: "n", clock: FixedClock(seconds: 1_700_000_000)))
    #expect(generator.protocolParameters.contains(OAuthParameter("oauth_timestamp", "1700000000")))
    let system = try sign(OAuthRequest(url: "https://a.example/"), .init(nonce: "n"))
    let stamp = try #require(Int64(system.protocolParameters.first { $0.name == "oauth_timestamp" }!.value))
    #expect(abs(stamp - Int64(Date().timeIntervalSince1970)) < 5)
  }

  @Test func protocolParametersFollowTheOptions() throws {
    let plain = try sign(OAuthRequest(url: "https://a.example/"))
    #expect(
      plain.protocolParameters.map(\.name) == [
        "oauth_consumer_key", "oauth_nonce", "oauth_signature_method", "oauth_timestamp", "oauth_token", "oauth_version",
      ])
    let flow = try OAuthSignatureGenerator(
      consumerCredentials: consumer, request: OAuthRequest(method: "POST", url: "https://a.example/request_token"),
      options: .init(signatureMethod: .hmacSHA256, nonce: "n", timestamp: 1, callback: "oob", verifier: "123", includeVersion: false))
    #expect(
      flow.protocolParameters == [
        OAuthParameter("oauth_callback", "oob"), OAuthParameter("oauth_consumer_key", "consumer key"),
        OAuthParameter("oauth_nonce", "n"), OAuthParameter("oauth_signature_method", "HMAC-SHA256"),
        OAuthParameter("oauth_timestamp", "1"), OAuthParameter("oauth_verifier", "123"),
      ])
    #expect(flow.signatureBaseString.contains("oauth_callback%3Doob"))
    #expect(flow.signingKey == "consumer-SECRET-1&")
  }

  @Test func bodyHashCoversOtherBodiesButNeverAForm() throws {
    let json = try sign(
      OAuthRequest(method: "POST", url: "https://a.example/2/tweets", body: Data(#"{"text":"hi"}"#.utf8), contentType: "application/json"),
      .init(nonce: "n", timestamp: 1, bodyHash: .sha256))
    let expectedHash = try OAuthBodyHash.compute(body: Array(#"{"text":"hi"}"#.utf8), algorithm: .sha256)
    #expect(json.protocolParameters.contains(OAuthParameter("oauth_body_hash", expectedHash)))
    #expect(!json.parameters.contains { $0.name == "text" }, "a JSON body is never parsed as parameters")

    let form = try sign(
      OAuthRequest(
        method: "POST", url: "https://a.example/", body: Data("a=1".utf8), contentType: "Application/X-WWW-Form-Urlencoded; charset=UTF-8"),
      .init(nonce: "n", timestamp: 1, bodyHash: .sha1))
    #expect(!form.protocolParameters.contains { $0.name == "oauth_body_hash" })
    #expect(form.parameters.contains(OAuthParameter("a", "1")))
  }

  @Test func everyTransmissionFormCarriesTheSameSignature() throws {
    let generator = try sign(
      OAuthRequest(method: "POST", url: "https://a.example/p?q=1#frag", body: Data("a=1".utf8), contentType: "application/x-www-form-urlencoded"))
    let encoded = OAuthPercentEncoding.encode(generator.signature)
    #expect(generator.authorizationHeader.contains("oauth_signature=\"\(encoded)\""))
    #expect(generator.signedURL.hasPrefix("https://a.example/p?q=1&oauth_consumer_key=consumer%20key&"))
    #expect(generator.signedURL.hasSuffix("#frag"))
    #expect(generator.signedURL.contains("&oauth_signature=\(encoded)&"))
    let body = String(decoding: try #require(generator.signedFormBody), as: UTF8.self)
    #expect(body.hasPrefix("a=1&oauth_consumer_key=consumer%20key&"))
    #expect(body.contains("&oauth_signature=\(encoded)&"))

    let json = try sign(OAuthRequest(method: "POST", url: "https://a.example/", body: Data("{}".utf8), contentType: "application/json"))
    #expect(json.signedFormBody == nil, "protocol parameters cannot travel in a JSON body")
  }

  @Test func theSignatureParametersInTheHeaderAreInNameOrder() throws {
    let generator = try sign(OAuthRequest(url: "https://a.example/"), .init(nonce: "n", timestamp: 1, realm: "R"))
    let fields = try OAuthAuthorizationHeader.parse(generator.authorizationHeader)
    #expect(fields.realm == "R")
    #expect(fields.parameters.map(\.name) == fields.parameters.map(\.name).sorted())
    #expect(fields.parameters.first { $0.name == "oauth_signature" }?.value == generator.signature)
  }

  @Test func aURLRequestSignsAsItWillBeSent() throws {
    var urlRequest = URLRequest(url: try #require(URL(string: "https://api.x.com/1.1/statuses/update.json?include_entities=true")))
    urlRequest.httpMethod = "POST"
    urlRequest.httpBody = Data("status=hi%21".utf8)
    urlRequest.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
    let request = try OAuthRequest(urlRequest)
    #expect(
      request
        == OAuthRequest(
          method: "POST", url: "https://api.x.com/1.1/statuses/update.json?include_entities=true",
          body: Data("status=hi%21".utf8), contentType: "application/x-www-form-urlencoded"))
    #expect(try sign(request).parameters.contains(OAuthParameter("status", "hi!")))
  }

  @Test func badRequestsThrowTypedErrors() {
    #expect(throws: OAuthError.relativeURL("/2/users/me")) { try sign(OAuthRequest(url: "/2/users/me")) }
    #expect(throws: OAuthError.unsupportedScheme(url: "javascript:alert(1)", scheme: "javascript")) {
      try sign(OAuthRequest(url: "javascript:alert(1)"))
    }
    #expect(throws: OAuthError.unsupportedScheme(url: "file:///etc/passwd", scheme: "file")) { try sign(OAuthRequest(url: "file:///etc/passwd")) }
    #expect(throws: OAuthError.invalidParameterEncoding(source: .formBody, parameter: "a")) {
      try sign(
        OAuthRequest(method: "POST", url: "https://a.example/", body: Data([0x61, 0x3D, 0xFF]), contentType: "application/x-www-form-urlencoded"))
    }
    #expect(throws: OAuthError.missingPrivateKey(.rsaSHA1)) {
      try sign(OAuthRequest(url: "https://a.example/"), .init(signatureMethod: .rsaSHA1))
    }
  }

  @Test func secretsNeverAppearInDescriptions() throws {
    #expect(!"\(consumer)".contains(consumer.secret))
    #expect(!String(reflecting: token).contains(token.secret))
    let errors: [OAuthError] = [
      .relativeURL("/x"), .missingHost("http://"), .invalidPort(url: "http://h:0", port: "0"),
      .unsupportedScheme(url: "ftp://h", scheme: "ftp"), .malformedURL(url: "u", reason: "r"),
      .invalidParameterEncoding(source: .query, parameter: "p"), .unknownSignatureMethod("M"), .missingPrivateKey(.rsaSHA1),
      .invalidKey(reason: "r"), .wrongKeyType(found: "EC"), .malformedAuthorizationHeader(reason: "r"),
      .cryptoFailure(operation: "o", reason: "r"), .invalidPKCS12(reason: "r"), .wrongKeyPassword, .noPrivateKeyInPKCS12,
    ]
    for error in errors {
      #expect(error.description.count > 20, "\(error) should explain itself")
    }
  }
}
