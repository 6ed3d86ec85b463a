import Foundation
import OAuth1
import TestSupport

/// Checks one vector stage by stage, each stage through its own public function, and feeds
/// later stages from the library's own output of the earlier ones (or from the inputs the
/// source gives for that stage).
struct VectorChecker {
  let vector: Vector
  var input: Values { vector.input }

  func check(_ stage: VectorStage) -> StageOutcome {
    var outcome = StageOutcome()
    do {
      switch stage {
      case .percentEncoding: try checkPercentEncoding(&outcome)
      case .parameterCollection: try checkCollection(&outcome)
      case .parameterNormalization: try checkNormalization(&outcome)
      case .baseStringURI: try checkBaseStringURI(&outcome)
      case .signatureBaseString: try checkBaseString(&outcome)
      case .signingKey: checkSigningKey(&outcome)
      case .signature: try checkSignature(&outcome)
      case .base64: try checkBase64(&outcome)
      case .bodyHash: try checkBodyHash(&outcome)
      case .authorizationHeader: try checkAuthorizationHeader(&outcome)
      case .parameterTransmission: try checkTransmission(&outcome)
      }
    } catch {
      outcome.fail("threw \(error)")
    }
    for field in vector.knownWrongFields ?? [] {
      outcome.corrections.append("\(vector.id).\(field): \(vector.verificationNote ?? "published value is wrong")")
    }
    return outcome
  }

  // MARK: - Stages

  func checkPercentEncoding(_ outcome: inout StageOutcome) throws {
    if let value = input.value, let encoded = vector.expected.encoded {
      outcome.expect(OAuthPercentEncoding.encode(value), encoded, "encode(\(value))")
    }
    if let encoded = input.encoded, let decoded = vector.expected.decoded {
      outcome.expect(OAuthPercentEncoding.decode(encoded), decoded, "decode(\(encoded))")
    }
  }

  func checkCollection(_ outcome: inout StageOutcome) throws {
    if let expected = vector.expected.collectedParams {
      outcome.expect(sorted(try collected()), sorted(pairs(expected)), "collected parameters")
    }
    if let header = input.authorizationHeader { try checkParsedHeader(header, &outcome) }
    // Vectors that publish no collected list check collection through what it feeds.
    if vector.expected.collectedParams == nil && input.authorizationHeader == nil {
      if let normalized = vector.expected(\.normalizedParameters, named: "normalized_parameters") {
        outcome.expect(OAuthParameterNormalization.normalize(try collected()), normalized, "normalized collected parameters")
      } else if let baseString = vector.expected(\.baseString, named: "base_string") {
        outcome.expect(try computedBaseString(), baseString, "base string of collected parameters")
      } else if let signature = vector.expected(\.signature, named: "signature") {
        outcome.expect(try computedSignature(), signature, "signature of collected parameters")
      }
    }
  }

  func checkNormalization(_ outcome: inout StageOutcome) throws {
    guard let expected = vector.expected(\.normalizedParameters, named: "normalized_parameters") else { return }
    outcome.expect(OAuthParameterNormalization.normalize(try collected()), expected, "normalized parameters")
    if vector.isCorrected("normalized_parameters"), let published = vector.expected.normalizedParameters {
      outcome.comparisons += 1
      if OAuthParameterNormalization.normalize(try collected()) == published {
        outcome.failures.append("reproduced the published value known to be wrong")
      }
    }
  }

  func checkBaseStringURI(_ outcome: inout StageOutcome) throws {
    guard let url = input.url else { return }
    if vector.expected.error == true {
      outcome.comparisons += 1
      do {
        let uri = try OAuthBaseStringURI.make(url: url, host: input.host)
        outcome.failures.append("\(url) should be rejected, gave \(uri)")
      } catch {}
    } else if let expected = vector.expected.baseStringURI {
      outcome.expect(try OAuthBaseStringURI.make(url: url, host: input.host), expected, "base string URI of \(url)")
    }
  }

  func checkBaseString(_ outcome: inout StageOutcome) throws {
    guard let expected = vector.expected(\.baseString, named: "base_string") else { return }
    let computed = try computedBaseString()
    outcome.expect(computed, expected, "signature base string")
    if let generator = try generator() {
      outcome.expect(generator.signatureBaseString, expected, "OAuthSignatureGenerator.signatureBaseString")
    }
    if vector.isCorrected("base_string") {
      outcome.comparisons += 1
      if computed == vector.expected.baseString { outcome.failures.append("reproduced the published value known to be wrong") }
    }
  }

  func checkSigningKey(_ outcome: inout StageOutcome) {
    guard let expected = vector.expected.signingKey else { return }
    outcome.expect(signingKey, expected, "signing key")
  }

  func checkSignature(_ outcome: inout StageOutcome) throws {
    if let expected = vector.expected(\.signature, named: "signature") {
      let signature = try computedSignature()
      outcome.expect(signature, expected, "signature")
      if vector.isCorrected("signature") {
        outcome.comparisons += 1
        if signature == vector.expected.signature { outcome.failures.append("reproduced the published signature known to be wrong") }
      }
    }
    if let generator = try generator(), let expected = vector.expected(\.signature, named: "signature") {
      outcome.expect(generator.signature, expected, "OAuthSignatureGenerator.signature")
    }
    if let hex = vector.expected.signatureHex {
      outcome.expect(Self.hex(try computedDigest()), hex.lowercased(), "signature digest (hex)")
    }
    if let verifies = vector.expected.rsaVerifiesWithCertificate,
      let certificate = input.rsaCertificatePEM, let signature = input.signature, let baseString = input.baseString
    {
      let key = try RSAPublicKey(pem: certificate)
      let bytes = try unwrap(OAuthBase64.decode(signature))
      let method = try signatureMethod()
      outcome.expect(
        try key.isValidSignature(bytes, for: Array(baseString.utf8), digest: method.digest!), verifies, "RSA verification with the certificate")
    }
  }

  func checkBase64(_ outcome: inout StageOutcome) throws {
    if let expected = vector.expected.signatureFromHex, let hex = input.signatureHex {
      outcome.expect(OAuthBase64.encode(Self.bytes(hex: hex)), expected, "base64 of \(hex)")
      outcome.expect(OAuthBase64.decode(expected), Self.bytes(hex: hex), "base64 decode of \(expected)")
      return
    }
    guard let expected = vector.expected(\.signature, named: "signature"), try signatureMethod() != .plaintext else { return }
    let digest = try computedDigest()
    outcome.expect(OAuthBase64.encode(digest), expected, "base64 of the digest")
    outcome.expect(OAuthBase64.decode(expected), digest, "base64 decode of the signature")
  }

  func checkBodyHash(_ outcome: inout StageOutcome) throws {
    guard let expected = vector.expected.oauthBodyHash else { return }
    let body = input.body ?? ""  // no body: the hash of the empty string
    let bytes: Data
    switch input.bodyCharset?.lowercased() ?? "utf-8" {
    case "utf-8", "utf8": bytes = Data(body.utf8)
    case "iso-8859-1", "latin1", "latin-1": bytes = try unwrap(body.data(using: .isoLatin1))
    case let other: throw VectorError("unknown body charset \(other)")
    }
    outcome.expect(try OAuthBodyHash.compute(body: bytes, algorithm: bodyHashAlgorithm), expected, "oauth_body_hash")
  }

  func checkAuthorizationHeader(_ outcome: inout StageOutcome) throws {
    if let header = input.authorizationHeader { try checkParsedHeader(header, &outcome) }
    guard let expected = vector.expected.authorizationHeader, let header = input.headerParams else { return }
    outcome.expect(OAuthAuthorizationHeader.make(parameters: pairs(header), realm: input.realm), expected, "Authorization header")
    // And back: parsing our header gives the parameters and realm it was built from.
    let fields = try OAuthAuthorizationHeader.parse(expected)
    outcome.expect(fields.parameters, pairs(header), "parsed Authorization header")
    outcome.expect(fields.realm, input.realm, "parsed realm")
  }

  /// The published parse results list `realm` among the fields; the parser keeps it apart.
  func checkParsedHeader(_ header: String, _ outcome: inout StageOutcome) throws {
    let fields = try OAuthAuthorizationHeader.parse(header)
    let realm = fields.realm.map { [OAuthParameter("realm", $0)] } ?? []
    if let expected = vector.expected.parsedHeaderParams {
      outcome.expect(sorted(fields.parameters + realm), sorted(pairs(expected)), "parsed header parameters")
    }
    if let expected = vector.expected.parsedHeaderParamsRaw {
      outcome.expect(sorted(fields.rawParameters + realm), sorted(pairs(expected)), "raw header parameters")
    }
  }

  func checkTransmission(_ outcome: inout StageOutcome) throws {
    if let expected = vector.expected.signatureEncoded {
      let signature = try vector.expected(\.signature, named: "signature") ?? computedSignature()
      outcome.expect(OAuthPercentEncoding.encode(signature), expected, "encoded oauth_signature")
    }
    if let expected = vector.expected.formEncoded {
      let ordered: [OAuthParameter]
      if let given = input.orderedParams {
        ordered = pairs(given)
      } else {
        let signature = try unwrap(vector.expected(\.signature, named: "signature"))
        ordered = try collected() + [OAuthParameter("oauth_signature", signature)]
      }
      outcome.expect(OAuthFormEncoding.encode(ordered), expected, "form-encoded parameters")
    }
  }

  /// The whole request signed by ``OAuthSignatureGenerator``, when the vector gives a
  /// complete request whose protocol parameters are all options of the generator.
  func generator() throws -> OAuthSignatureGenerator? {
    guard let url = input.url, input.baseStringURI == nil, input.params == nil,
      let oauth = input.oauthParams, !oauth.isEmpty
    else { return nil }
    var values: [String: String] = [:]
    for pair in oauth { values[pair[0]] = pair[1] }
    let known: Set = [
      "oauth_consumer_key", "oauth_token", "oauth_nonce", "oauth_timestamp", "oauth_signature_method",
      "oauth_version", "oauth_callback", "oauth_verifier", "oauth_body_hash",
    ]
    // A token secret without oauth_token cannot be expressed through Credentials.
    if values["oauth_token"] == nil && !(input.tokenSecret ?? "").isEmpty { return nil }
    guard Set(values.keys).isSubset(of: known), let consumerKey = values["oauth_consumer_key"],
      let timestamp = values["oauth_timestamp"].flatMap({ Int64($0) })
    else { return nil }
    let method = try OAuthSignatureMethod(name: values["oauth_signature_method"] ?? input.signatureMethod ?? "HMAC-SHA1")
    let options = OAuthSignatureGenerator.Options(
      signatureMethod: method, privateKey: try privateKey(), nonce: values["oauth_nonce"], timestamp: timestamp,
      realm: input.realm, callback: values["oauth_callback"], verifier: values["oauth_verifier"],
      includeVersion: values["oauth_version"] != nil,
      bodyHash: values["oauth_body_hash"] != nil ? bodyHashAlgorithm : nil)
    let generator = try OAuthSignatureGenerator(
      consumerCredentials: Credentials(key: consumerKey, secret: input.consumerSecret ?? ""),
      credentials: values["oauth_token"].map { Credentials(key: $0, secret: input.tokenSecret ?? "") },
      request: OAuthRequest(
        method: input.method ?? "GET", url: url, body: input.body.map { Data($0.utf8) }, contentType: input.contentType, host: input.host),
      options: options)
    if let bodyHash = values["oauth_body_hash"], generator.protocolParameters.first(where: { $0.name == "oauth_body_hash" })?.value != bodyHash {
      throw VectorError("the generator's oauth_body_hash differs from the published \(bodyHash)")
    }
    return generator
  }

  var bodyHashAlgorithm: OAuthDigestAlgorithm {
    switch input.bodyHashAlgorithm?.uppercased() {
    case "SHA256", "SHA-256": .sha256
    case "SHA512", "SHA-512": .sha512
    default: .sha1
    }
  }

  // MARK: - Inputs derived through the library's own stages

  func collected() throws -> [OAuthParameter] {
    if let params = input.params { return pairs(params) }
    if let form = input.form { return try OAuthParameterCollection.parseForm(form.utf8, source: .formBody) }
    var protocolParameters = pairs(input.oauthParams ?? [])
    if let header = input.authorizationHeader {
      protocolParameters += try OAuthAuthorizationHeader.parse(header).parameters
    }
    let query = try input.url.flatMap { try OAuthURLComponents($0).query }
    let request = OAuthRequest(url: input.url ?? "http://example.invalid/", contentType: input.contentType)
    let body = request.hasFormBody ? input.body.map { Array($0.utf8) } : nil
    return try OAuthParameterCollection.collect(query: query, formBody: body, protocolParameters: protocolParameters)
  }

  func computedBaseString() throws -> String {
    let uri: String
    if let given = input.baseStringURI {
      uri = given
    } else {
      uri = try OAuthBaseStringURI.make(url: try unwrap(input.url), host: input.host)
    }
    return OAuthSignatureBaseString.make(
      method: input.method ?? "GET", baseStringURI: uri, normalizedParameters: OAuthParameterNormalization.normalize(try collected()))
  }

  var signingKey: String {
    OAuthSigningKey.make(consumerSecret: input.consumerSecret ?? "", tokenSecret: input.tokenSecret)
  }

  func signatureMethod() throws -> OAuthSignatureMethod {
    try OAuthSignatureMethod(name: input.signatureMethod ?? "HMAC-SHA1")
  }

  func privateKey() throws -> RSAPrivateKey? {
    try input.rsaPrivateKeyPEM.map { try RSAPrivateKey(pem: $0) }
  }

  func signedBaseString() throws -> String {
    try input.baseString ?? computedBaseString()
  }

  func computedSignature() throws -> String {
    if try signatureMethod() == .plaintext {
      return try OAuthSignature.sign(baseString: "", method: .plaintext, signingKey: signingKey)
    }
    return try OAuthSignature.sign(baseString: signedBaseString(), method: signatureMethod(), signingKey: signingKey, privateKey: privateKey())
  }

  func computedDigest() throws -> [UInt8] {
    try OAuthSignature.digest(baseString: signedBaseString(), method: signatureMethod(), signingKey: signingKey, privateKey: privateKey())
  }

  // MARK: - Helpers

  func pairs(_ list: [[String]]) -> [OAuthParameter] {
    list.map { OAuthParameter($0[0], $0.count > 1 ? $0[1] : "") }
  }

  func sorted(_ parameters: [OAuthParameter]) -> [OAuthParameter] {
    parameters.sorted { ($0.name, $0.value) < ($1.name, $1.value) }
  }

  static func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
  }

  static func bytes(hex: String) -> [UInt8] {
    let digits = Array(hex.filter(\.isHexDigit).utf8)
    return stride(from: 0, to: digits.count - 1, by: 2).map { UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16)! }
  }
}

func unwrap<T>(_ value: T?, _ what: String = "a required vector input") throws -> T {
  guard let value else { throw VectorError("missing \(what)") }
  return value
}

struct VectorError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
