import Foundation
import OAuth1
import TestSupport
import Testing

@Suite("Stages 5 to 9: base string, key, signature, base64, header")
struct SignatureTests {
  static func publishedRSAKey() throws -> String {
    let keys = try VectorFile.loadAll().flatMap(\.vectors).compactMap(\.input.rsaPrivateKeyPEM)
    return try #require(keys.first { $0.contains("BEGIN RSA PRIVATE KEY") })
  }

  @Test func baseStringUppercasesTheMethodAndEncodesBothParts() {
    #expect(
      OAuthSignatureBaseString.make(method: "post", baseStringURI: "https://a.example/b c", normalizedParameters: "x=1&y=%20")
        == "POST&https%3A%2F%2Fa.example%2Fb%20c&x%3D1%26y%3D%2520")
  }

  @Test func signingKeyAlwaysHasTheAmpersandAndEncodesBothSecrets() {
    #expect(OAuthSigningKey.make(consumerSecret: "c&s", tokenSecret: nil) == "c%26s&")
    #expect(OAuthSigningKey.make(consumerSecret: "", tokenSecret: "t s") == "&t%20s")
  }

  @Test func plaintextIsTheSigningKey() throws {
    #expect(try OAuthSignature.sign(baseString: "ignored", method: .plaintext, signingKey: "a&b") == "a&b")
  }

  @Test func hmacDigestLengthsFollowTheMethod() throws {
    for (method, length) in [(OAuthSignatureMethod.hmacSHA1, 20), (.hmacSHA256, 32), (.hmacSHA512, 64)] {
      #expect(try OAuthSignature.digest(baseString: "b", method: method, signingKey: "k&").count == length)
    }
    // An empty key is valid (no secrets at all) and still signs.
    #expect(try OAuthSignature.digest(baseString: "b", method: .hmacSHA1, signingKey: "").count == 20)
  }

  @Test func rsaWithoutAKeyThrowsInsteadOfSendingSomethingUnsigned() {
    for method in [OAuthSignatureMethod.rsaSHA1, .rsaSHA256, .rsaSHA512] {
      #expect(throws: OAuthError.missingPrivateKey(method)) { try OAuthSignature.sign(baseString: "b", method: method, signingKey: "k&") }
    }
  }

  @Test func rsaKeysInBothPEMFormsSign() throws {
    let pkcs1 = try RSAPrivateKey(pem: Self.publishedRSAKey())
    #expect(pkcs1.bits == 1024)
    let keys = try VectorFile.loadAll().flatMap(\.vectors).compactMap(\.input.rsaPrivateKeyPEM)
    let pkcs8 = try RSAPrivateKey(pem: try #require(keys.first { $0.contains("BEGIN PRIVATE KEY") }))
    for key in [pkcs1, pkcs8] {
      let signature = try OAuthSignature.digest(baseString: "b", method: .rsaSHA256, signingKey: "", privateKey: key)
      #expect(signature.count == key.bits / 8)
    }
  }

  @Test func unusableKeysThrowTypedErrors() {
    #expect(throws: OAuthError.wrongKeyType(found: "id-ecPublicKey")) { try RSAPrivateKey(pem: TestKeys.ecPrivateKey) }
    for pem in ["", "not a key", TestKeys.encryptedPrivateKey, "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"] {
      #expect {
        try RSAPrivateKey(pem: pem)
      } throws: { error in
        guard case .invalidKey(let reason) = error as? OAuthError else { return false }
        return reason.hasPrefix("no private key in PEM form could be read")
      }
    }
    #expect(throws: OAuthError.self) { try RSAPublicKey(pem: "nothing") }
  }

  @Test func signatureMethodsByNameIgnoringCase() throws {
    #expect(try OAuthSignatureMethod(name: "hmac-sha256") == .hmacSHA256)
    #expect(try OAuthSignatureMethod(name: "PLAINTEXT") == .plaintext)
    #expect(throws: OAuthError.unknownSignatureMethod("HMAC-MD5")) { try OAuthSignatureMethod(name: "HMAC-MD5") }
  }

  @Test func base64RoundTrips() {
    #expect(OAuthBase64.encode([]) == "")
    #expect(OAuthBase64.encode([0xFF, 0xEE]) == "/+4=")
    #expect(OAuthBase64.decode("/+4=") == [0xFF, 0xEE])
    #expect(OAuthBase64.decode("not base64!") == nil)
  }

  @Test func headerQuotesTheRealmAndEncodesParameters() {
    let header = OAuthAuthorizationHeader.make(
      parameters: [OAuthParameter("oauth_signature", "a+b/c="), OAuthParameter("oauth_token", "é")],
      realm: "Photos \"A\\B\"\r\nX-Injected: 1")
    #expect(header == #"OAuth realm="Photos \"A\\B\"%0D%0AX-Injected: 1", oauth_signature="a%2Bb%2Fc%3D", oauth_token="%C3%A9""#)
    #expect(!header.contains("\r") && !header.contains("\n"))
  }

  @Test func headerParsingRejectsWhatIsNotAnOAuthHeader() throws {
    let reasons: [(String, String)] = [
      (#"Bearer abc"#, "the scheme is \"Bearer\", not OAuth"),
      (#"OAuth oauth_nonce=abc"#, "the value of \"oauth_nonce\" does not start with a quote"),
      (#"OAuth oauth_nonce="abc"#, "the value of \"oauth_nonce\" has no closing quote"),
      (#"OAuth oauth_nonce"#, "the field \"oauth_nonce\" has no =\"value\""),
      (#"OAuth a="1"b="2""#, "expected a comma after the value of \"a\""),
    ]
    for (header, reason) in reasons {
      #expect(throws: OAuthError.malformedAuthorizationHeader(reason: reason)) { try OAuthAuthorizationHeader.parse(header) }
    }
    let fields = try OAuthAuthorizationHeader.parse("oauth   realm=\"R\\\"x\" ,\n\toauth_token=\"a%20b\",")
    #expect(fields.realm == "R\"x")
    #expect(fields.parameters == [OAuthParameter("oauth_token", "a b")])
    #expect(fields.rawParameters == [OAuthParameter("oauth_token", "a%20b")])
  }

  @Test func bodyHashDefaultsToSHA1() throws {
    #expect(try OAuthBodyHash.compute(body: []) == "2jmj7l5rSw0yVb/vlWAYkK/YBwk=")
    #expect(try OAuthBodyHash.compute(body: [], algorithm: .sha256) == "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=")
  }
}
