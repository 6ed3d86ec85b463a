import Foundation
import OAuth1
import TestSupport
import Testing

/// Signs with the generator and verifies with the verifier, field by field.
@Suite("OAuthVerifier")
struct VerifierTests {
  static let now: Int64 = 1_700_000_000
  let consumer = Credentials(key: "app-key", secret: "app-secret")
  let token = Credentials(key: "user-token", secret: "user-secret")

  func verifier(rsaKey: RSAPublicKey? = nil, options: OAuthVerifier.Options? = nil) -> OAuthVerifier {
    OAuthVerifier(
      credentials: InMemoryCredentialLookup(
        consumers: ["app-key": OAuthConsumer(secret: "app-secret", rsaPublicKey: rsaKey)], tokens: ["user-token": "user-secret"]),
      options: options ?? .init(clock: FixedClock(seconds: Self.now)))
  }

  func sign(
    _ request: OAuthRequest, method: OAuthSignatureMethod = .hmacSHA1, nonce: String = UUID().uuidString, timestamp: Int64 = now,
    privateKey: RSAPrivateKey? = nil
  ) throws -> OAuthSignatureGenerator {
    try OAuthSignatureGenerator(
      consumerCredentials: consumer, credentials: token, request: request,
      options: .init(signatureMethod: method, privateKey: privateKey, nonce: nonce, timestamp: timestamp, realm: "Photos"))
  }

  let form = OAuthRequest(
    method: "POST", url: "https://api.example.com:8443/1.1/statuses/update.json?include_entities=true&a=1&a=2",
    body: Data("status=Hello%20Ladies%20%2B%20Gentlemen&b=%F0%9F%9A%80".utf8), contentType: "application/x-www-form-urlencoded")

  @Test(arguments: OAuthSignatureMethod.allCases)
  func everyMethodRoundTrips(method: OAuthSignatureMethod) async throws {
    let (privateKey, publicKey) = try RSATestKeys.pair()
    let generator = try sign(form, method: method, privateKey: privateKey)
    let verified = try await verifier(rsaKey: publicKey).verify(form, authorization: generator.authorizationHeader)
    #expect(verified.consumerKey == "app-key" && verified.token == "user-token" && verified.signatureMethod == method)
    #expect(verified.realm == "Photos")
    #expect(verified.parameters.contains(OAuthParameter("status", "Hello Ladies + Gentlemen")))
    #expect(verified.signatureBaseString == generator.signatureBaseString)
  }

  /// The header's fields are signed in their strict encoding, whatever spelling the sender
  /// used: lowercase hex, an escaped unreserved byte, an escaped name and a bare `+` (a plus
  /// in a header, never a space) give the same base string; a changed byte does not.
  @Test func headerFieldsAreSignedInTheirStrictEncoding() async throws {
    let generator = try sign(form, nonce: "n~o+n&c=e")
    let header = generator.authorizationHeader
    #expect(header.contains("oauth_nonce=\"n~o%2Bn%26c%3De\""))
    let respelled = header.replacingOccurrences(of: "oauth_nonce=\"n~o%2Bn%26c%3De\"", with: "oauth%5fnonce=\"n%7Eo+n%26c%3de\"")
    #expect(respelled != header)
    let verified = try await verifier().verify(form, authorization: respelled)
    #expect(verified.signatureBaseString == generator.signatureBaseString)

    let changed = header.replacingOccurrences(of: "oauth_nonce=\"n~o%2Bn%26c%3De\"", with: "oauth_nonce=\"n~o%20n%26c%3De\"")
    await #expect(throws: OAuthVerificationError.self) { try await verifier().verify(form, authorization: changed) }
  }

  @Test func everyTransmissionFormRoundTrips() async throws {
    let generator = try sign(form)
    // Query: the protocol parameters appended to the URL.
    var query = form
    query.url = generator.signedURL
    _ = try await verifier().verify(query, authorization: nil)
    // Form body: appended to the body.
    let fresh = try sign(form)
    var body = form
    body.body = fresh.signedFormBody
    _ = try await verifier().verify(body, authorization: nil)
    // A GET with no body, protocol parameters in the body of a POST without one.
    let empty = OAuthRequest(method: "POST", url: "https://api.example.com/x", contentType: "application/x-www-form-urlencoded")
    let third = try sign(empty)
    var bodyOnly = empty
    bodyOnly.body = third.signedFormBody
    _ = try await verifier().verify(bodyOnly, authorization: nil)
  }

  /// Every field changed alone after signing fails with the right problem.
  @Test func everyChangedFieldIsCaught() async throws {
    let generator = try sign(form)
    let header = generator.authorizationHeader
    func problem(_ request: OAuthRequest, _ authorization: String? = nil) async -> OAuthProblem? {
      do {
        _ = try await verifier().verify(request, authorization: authorization ?? header)
        return nil
      } catch {
        return error.problem
      }
    }
    func changing(_ change: (inout OAuthRequest) -> Void) -> OAuthRequest {
      var request = form
      change(&request)
      return request
    }
    let changedRequests: [(String, OAuthRequest)] = [
      ("method", changing { $0.method = "PUT" }),
      ("scheme", changing { $0.url = $0.url.replacingOccurrences(of: "https:", with: "http:") }),
      ("host", changing { $0.url = $0.url.replacingOccurrences(of: "api.example.com", with: "api.example.org") }),
      ("port", changing { $0.url = $0.url.replacingOccurrences(of: ":8443", with: ":8444") }),
      ("path", changing { $0.url = $0.url.replacingOccurrences(of: "update.json", with: "update.xml") }),
      ("query value", changing { $0.url = $0.url.replacingOccurrences(of: "a=2", with: "a=3") }),
      ("query duplicate dropped", changing { $0.url = $0.url.replacingOccurrences(of: "&a=2", with: "") }),
      ("query name", changing { $0.url = $0.url.replacingOccurrences(of: "include_entities", with: "include_entity") }),
      ("form value", changing { $0.body = Data("status=Hello%20Ladies%20%2B%20Gentlemen&b=x".utf8) }),
      ("form name", changing { $0.body = Data("Status=Hello%20Ladies%20%2B%20Gentlemen&b=%F0%9F%9A%80".utf8) }),
      ("host header", changing { $0.host = "proxy.example.com:8443" }),
    ]
    for (field, request) in changedRequests {
      let found = await problem(request)
      #expect(found == .signatureInvalid, "changing the \(field) gave \(String(describing: found))")
    }

    let fields = try OAuthAuthorizationHeader.parse(header)
    func withParameter(_ name: String, _ value: String) -> String {
      let changed = fields.parameters.map { $0.name == name ? OAuthParameter(name, value) : $0 }
      return OAuthAuthorizationHeader.make(parameters: changed, realm: fields.realm)
    }
    let changedParameters: [(String, String, OAuthProblem)] = [
      ("oauth_consumer_key", "other-app", .consumerKeyUnknown),
      ("oauth_token", "other-token", .tokenRejected),
      ("oauth_nonce", "another-nonce", .signatureInvalid),
      ("oauth_timestamp", String(Self.now + 1), .signatureInvalid),
      ("oauth_timestamp", String(Self.now + 301), .timestampRefused),
      ("oauth_timestamp", "soon", .parameterRejected),
      ("oauth_signature_method", "HMAC-SHA256", .signatureInvalid),
      ("oauth_signature_method", "HMAC-MD5", .signatureMethodRejected),
      ("oauth_version", "2.0", .versionRejected),
      ("oauth_signature", "AAAA", .signatureInvalid),
    ]
    for (name, value, expected) in changedParameters {
      let found = await problem(form, withParameter(name, value))
      #expect(found == expected, "\(name)=\(value) gave \(String(describing: found))")
    }

    // The secrets.
    for lookup in [
      InMemoryCredentialLookup(consumers: ["app-key": OAuthConsumer(secret: "wrong")], tokens: ["user-token": "user-secret"]),
      InMemoryCredentialLookup(consumers: ["app-key": OAuthConsumer(secret: "app-secret")], tokens: ["user-token": "wrong"]),
    ] {
      let verifier = OAuthVerifier(credentials: lookup, options: .init(clock: FixedClock(seconds: Self.now)))
      await #expect(throws: OAuthVerificationError.self) { _ = try await verifier.verify(form, authorization: header) }
    }
    // And the untouched request still verifies.
    #expect(await problem(form) == nil)
  }

  @Test func aReplayIsNonceUsed() async throws {
    let verifier = verifier()
    let header = try sign(form, nonce: "once").authorizationHeader
    _ = try await verifier.verify(form, authorization: header)
    await #expect(
      throws: OAuthVerificationError(
        .nonceUsed, advice: "this nonce was already used with this timestamp: the request is a replay, or the sender reuses nonces")
    ) {
      _ = try await verifier.verify(form, authorization: header)
    }
  }

  @Test func aTimestampOutsideTheWindowReportsTheRange() async throws {
    for offset: Int64 in [-301, 301, -86_400] {
      let header = try sign(form, timestamp: Self.now + offset).authorizationHeader
      do {
        _ = try await verifier().verify(form, authorization: header)
        Issue.record("\(offset) s must be refused")
      } catch {
        #expect(error.problem == .timestampRefused)
        #expect(error.acceptableTimestamps == (Self.now - 300)...(Self.now + 300))
        #expect(error.response().body.contains("oauth_acceptable_timestamps=1699999700-1700000300"))
      }
    }
  }

  @Test func malformedOrMisplacedParametersAreRejected() async throws {
    let generator = try sign(form)
    let header = generator.authorizationHeader
    let cases: [(String?, OAuthRequest, OAuthProblem)] = [
      (nil, form, .parameterAbsent),
      ("OAuth realm=\"x\"", form, .parameterAbsent),
      (header + ", oauth_nonce=\"again\"", form, .parameterRejected),
      (header + ", status=\"x\"", form, .parameterRejected),
      ("OAuth oauth_consumer_key=\"app-key", form, .parameterRejected),
      (
        header,
        {
          var r = form
          r.url = generator.signedURL
          return r
        }(), .parameterRejected
      ),
    ]
    for (authorization, request, expected) in cases {
      do {
        _ = try await verifier().verify(request, authorization: authorization)
        Issue.record("\(authorization ?? "no header") must fail")
      } catch {
        #expect(error.problem == expected, "\(authorization ?? "no header"): \(error)")
      }
    }
    let absent = try? await verifier().verify(form, authorization: nil)
    #expect(absent == nil)
  }

  @Test func methodPolicy() async throws {
    let plainHTTP = OAuthRequest(method: "GET", url: "http://api.example.com/x")
    let header = try sign(plainHTTP, method: .plaintext).authorizationHeader
    await #expect { _ = try await verifier().verify(plainHTTP, authorization: header) } throws: { error in
      (error as? OAuthVerificationError)?.problem == .signatureMethodRejected
    }
    let lenient = verifier(options: .init(allowPlaintextOverHTTP: true, clock: FixedClock(seconds: Self.now)))
    _ = try await lenient.verify(plainHTTP, authorization: header)

    let hmacOnly = verifier(options: .init(allowedSignatureMethods: [.hmacSHA256], clock: FixedClock(seconds: Self.now)))
    await #expect { _ = try await hmacOnly.verify(form, authorization: try sign(form).authorizationHeader) } throws: { error in
      (error as? OAuthVerificationError)?.problem == .signatureMethodRejected
    }
    // RSA without a public key on file.
    let (privateKey, _) = try RSATestKeys.pair()
    await #expect {
      _ = try await verifier().verify(form, authorization: try sign(form, method: .rsaSHA256, privateKey: privateKey).authorizationHeader)
    } throws: { error in
      (error as? OAuthVerificationError)?.problem == .signatureMethodRejected
    }
  }

  @Test func theFailureResponse() throws {
    let error = OAuthVerificationError(.parameterAbsent, advice: "the request lacks oauth_nonce", parameters: ["oauth_nonce", "oauth_timestamp"])
    let response = error.response(realm: "Photos")
    #expect(response.status == 400)
    #expect(response.headers.first { $0.0 == "WWW-Authenticate" }?.1 == "OAuth realm=\"Photos\"")
    #expect(
      response.body
        == "oauth_problem=parameter_absent&oauth_problem_advice=the%20request%20lacks%20oauth_nonce&oauth_parameters_absent=oauth_nonce%26oauth_timestamp"
    )
    #expect(OAuthVerificationError(.signatureInvalid, advice: "x").response().status == 401)
  }
}

/// A published RSA key pair (the OAuth wiki's key and certificate) from Vectors/.
enum RSATestKeys {
  static func pair() throws -> (RSAPrivateKey, RSAPublicKey) {
    let wiki = try #require(try VectorFile.loadAll().first { $0.name == "oauth-wiki-testcases.json" })
    let certificate = try #require(wiki.vectors.compactMap(\.input.rsaCertificatePEM).first)
    let privatePEM = try #require(wiki.vectors.compactMap(\.input.rsaPrivateKeyPEM).first)
    return (try RSAPrivateKey(pem: privatePEM), try RSAPublicKey(pem: certificate))
  }
}

/// `oauth_body_hash` ties a body that is not a form to the request only if the verifier
/// compares it with the body: the signature covers the parameter, not the body.
@Suite("OAuthVerifier: oauth_body_hash")
struct BodyHashVerificationTests {
  let tests = VerifierTests()
  let json = OAuthRequest(
    method: "POST", url: "https://api.example.com/v1/payments", body: Data(#"{"amount":100}"#.utf8), contentType: "application/json")

  func tampered(_ request: OAuthRequest) -> OAuthRequest {
    OAuthRequest(method: request.method, url: request.url, body: Data(#"{"amount":100000}"#.utf8), contentType: request.contentType)
  }

  func problem(_ request: OAuthRequest, _ authorization: String, rsaKey: RSAPublicKey? = nil) async -> OAuthVerificationError? {
    do {
      _ = try await tests.verifier(rsaKey: rsaKey).verify(request, authorization: authorization)
      return nil
    } catch {
      return error
    }
  }

  @Test(arguments: OAuthSignatureMethod.allCases, [OAuthDigestAlgorithm.sha1, .sha256])
  func aChangedBodyFailsUnderEveryMethod(method: OAuthSignatureMethod, digest: OAuthDigestAlgorithm) async throws {
    let (privateKey, publicKey) = try RSATestKeys.pair()
    let header = try OAuthSignatureGenerator(
      consumerCredentials: tests.consumer, credentials: tests.token, request: json,
      options: .init(signatureMethod: method, privateKey: privateKey, nonce: UUID().uuidString, timestamp: VerifierTests.now, bodyHash: digest)
    ).authorizationHeader
    #expect(header.contains("oauth_body_hash="))
    #expect(await problem(json, header, rsaKey: publicKey) == nil, "the body as signed verifies (\(method.rawValue), \(digest.rawValue))")
    let failure = try #require(await problem(tampered(json), header, rsaKey: publicKey), "\(method.rawValue): a changed body must fail")
    #expect(failure.problem == .signatureInvalid && failure.parameters == ["oauth_body_hash"], "\(failure)")
    #expect(failure.advice.contains("oauth_body_hash does not match the body"))
  }

  @Test func aBodyHashOnAFormIsRejected() async throws {
    let form = OAuthRequest(
      method: "POST", url: "https://api.example.com/v1/x", body: Data("a=1".utf8), contentType: "application/x-www-form-urlencoded")
    let header = try OAuthSignatureGenerator(
      consumerCredentials: tests.consumer, credentials: tests.token,
      request: OAuthRequest(method: "POST", url: form.url, body: form.body, contentType: "text/plain"),
      options: .init(nonce: "n", timestamp: VerifierTests.now, bodyHash: .sha1)
    ).authorizationHeader
    let failure = try #require(await problem(form, header))
    #expect(failure.problem == .parameterRejected && failure.parameters == ["oauth_body_hash"])
  }
}
