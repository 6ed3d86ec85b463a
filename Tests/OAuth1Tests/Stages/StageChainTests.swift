import Foundation
import OAuth1
import TestSupport
import Testing

/// Properties of the one signing engine, on every published request and 560 seeded random ones
/// (the differential corpus, without its Python peer):
/// - each public stage, applied alone to the previous stage's traced value, gives the next
///   stage's traced value, so the stages and the engine cannot drift apart;
/// - what is signed verifies, and changing one byte of a signed field (the nonce, except under
///   PLAINTEXT, which signs nothing) or of the signature makes it fail with `signature_invalid`.
@Suite("The engine's stages chain, and what it signs verifies")
struct StageChainTests {
  static let randomCount = 560

  @Test func everyStageAloneGivesTheNextTracedValue() async throws {
    let cases = try Self.cases()
    #expect(cases.count > Self.randomCount + 20, "published requests are missing: \(cases.count)")
    for generator in cases { try Self.checkChain(generator) }
  }

  @Test func signedRequestsVerifyAndAChangedByteFails() async throws {
    var checked = 0
    for generator in try Self.cases() {
      let verifier = Self.verifier(for: generator)
      do {
        _ = try await verifier.verify(generator.request, authorization: generator.authorizationHeader)
      } catch {
        Issue.record("\(generator.request.method) \(generator.request.url): \(error)")
        continue
      }
      for (field, header) in Self.changedHeaders(generator) {
        do {
          _ = try await Self.verifier(for: generator).verify(generator.request, authorization: header)
          Issue.record("a changed \(field) verified: \(header)")
        } catch {
          #expect(error.problem == .signatureInvalid, "\(field): \(error)")
        }
      }
      checked += 1
    }
    #expect(checked > Self.randomCount)
  }

  // MARK: - The chain

  static func checkChain(_ generator: OAuthSignatureGenerator) throws {
    let request = generator.request, options = generator.options
    let context = Comment(rawValue: "\(request.method) \(request.url) \(options.signatureMethod.rawValue)")
    var components = try OAuthURLComponents(request.url)
    if let host = request.host { try components.override(hostHeader: host) }
    let form = request.hasFormBody ? Array(request.body ?? Data()) : nil

    let collected = try OAuthParameterCollection.collect(query: components.query, formBody: form, protocolParameters: generator.protocolParameters)
    #expect(collected == generator.parameters, context)
    #expect(OAuthParameterNormalization.normalize(generator.parameters) == generator.normalizedParameters, context)
    #expect(try OAuthBaseStringURI.make(url: request.url, host: request.host) == generator.baseStringURI, context)
    let baseString = OAuthSignatureBaseString.make(
      method: request.method, baseStringURI: generator.baseStringURI, normalizedParameters: generator.normalizedParameters)
    #expect(baseString == generator.signatureBaseString, context)
    let signingKey = OAuthSigningKey.make(consumerSecret: generator.consumerCredentials.secret, tokenSecret: generator.credentials?.secret)
    if !options.signatureMethod.usesRSA { #expect(signingKey == generator.signingKey, context) }
    // RSASSA-PKCS1-v1_5 is deterministic, so the RSA methods chain too.
    let signature = try OAuthSignature.sign(
      baseString: generator.signatureBaseString, method: options.signatureMethod, signingKey: signingKey, privateKey: options.privateKey)
    #expect(signature == generator.signature, context)
    var transmitted = generator.protocolParameters
    transmitted.insert(
      OAuthParameter("oauth_signature", signature), at: transmitted.firstIndex { $0.name > "oauth_signature" } ?? transmitted.endIndex)
    #expect(transmitted == generator.signedProtocolParameters, context)
    #expect(OAuthAuthorizationHeader.make(parameters: transmitted, realm: options.realm) == generator.authorizationHeader, context)
  }

  // MARK: - Changed bytes

  /// The header with one byte of the nonce changed, and with one byte of the signature changed.
  /// PLAINTEXT signs nothing of the request (its signature is the key), so only its signature
  /// is changed.
  static func changedHeaders(_ generator: OAuthSignatureGenerator) -> [(String, String)] {
    var changed: [(String, String)] = []
    let names = generator.options.signatureMethod == .plaintext ? ["oauth_signature"] : ["oauth_nonce", "oauth_signature"]
    for name in names {
      var parameters = generator.signedProtocolParameters
      guard let index = parameters.firstIndex(where: { $0.name == name }), var bytes = Optional(Array(parameters[index].value.utf8)),
        !bytes.isEmpty
      else { continue }
      let position = bytes.count / 2
      // Another character of the same class, so that the value stays well-formed.
      bytes[position] = bytes[position] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
      parameters[index].value = String(decoding: bytes, as: UTF8.self)
      changed.append((name, OAuthAuthorizationHeader.make(parameters: parameters, realm: generator.options.realm)))
    }
    return changed
  }

  static func verifier(for generator: OAuthSignatureGenerator) -> OAuthVerifier {
    var tokens: [String: String] = [:]
    if let token = generator.credentials, !token.key.isEmpty { tokens[token.key] = token.secret }
    let consumer = OAuthConsumer(secret: generator.consumerCredentials.secret, rsaPublicKey: generator.options.privateKey?.publicKey)
    return OAuthVerifier(
      credentials: InMemoryCredentialLookup(consumers: [generator.consumerCredentials.key: consumer], tokens: tokens),
      options: .init(allowPlaintextOverHTTP: true, clock: FixedClock(seconds: generator.options.timestamp ?? 0)))
  }

  // MARK: - Cases

  /// Every complete published request, then the seeded random requests of the differential test.
  static func cases() throws -> [OAuthSignatureGenerator] {
    let files = try VectorFile.loadAll()
    var generators = try files.flatMap(\.vectors).compactMap { try VectorChecker(vector: $0).generator() }
    let keys = Set(files.flatMap(\.vectors).compactMap(\.input.rsaPrivateKeyPEM)).sorted()
    var draw = RandomRequests(random: SeededGenerator(seed: OAuthlibDifferentialTests.seed), rsaKeys: keys)
    for index in 0..<randomCount {
      let drawn = draw.next(index: index)
      generators.append(
        try OAuthSignatureGenerator(
          consumer: Credentials(key: drawn.consumerKey, secret: drawn.consumer_secret),
          token: drawn.token.map { Credentials(key: $0, secret: drawn.token_secret ?? "") },
          request: OAuthRequest(method: drawn.method, url: drawn.url, body: drawn.body.map { Data($0.utf8) }, contentType: drawn.content_type),
          options: .init(
            signatureMethod: try OAuthSignatureMethod(name: drawn.signature_method),
            privateKey: try drawn.rsa_private_key_pem.map { try RSAPrivateKey(pem: $0) },
            nonce: drawn.nonce, timestamp: drawn.timestamp, callback: drawn.callback, verifier: drawn.verifier,
            includeVersion: drawn.includeVersion, bodyHash: drawn.bodyHash ? .sha1 : nil)))
    }
    return generators
  }
}
