import Foundation
import OAuth1

/// Twitter's documented request ("Creating a signature"): the workload of every signing figure,
/// and of `../shared/bench/peers`.
enum TwitterDocRequest {
  static let consumer = Credentials(key: "xvz1evFS4wEEPTGEFPHBog", secret: "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw")
  static let token = Credentials(key: "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb", secret: "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE")
  static let body = Data("status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21".utf8)
  static let nonce = "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg"
  static let timestamp: Int64 = 1_318_622_958
  static let options = OAuthSignatureGenerator.Options(nonce: nonce, timestamp: timestamp)

  static func request(version: String = "1.1") -> OAuthRequest {
    OAuthRequest(
      method: "POST", url: "https://api.twitter.com/\(version)/statuses/update.json?include_entities=true",
      body: body, contentType: "application/x-www-form-urlencoded")
  }

  static let expected = "hCtSmYh+iHYCEqBWrE7C7hYmtUk="
}

/// One complete header for Twitter's request: with a signer reused across requests, and cold;
/// each stage alone; the OpenSSL one-shot `HMAC()` over the same base string as baseline, and
/// the crypto floors (the MAC alone, with and without its key setup).
enum SigningWorkloads {
  static func run(_ harness: inout Harness) throws {
    let request = TwitterDocRequest.request()
    let generator = try OAuthSignatureGenerator(
      consumerCredentials: TwitterDocRequest.consumer, credentials: TwitterDocRequest.token, request: request, options: TwitterDocRequest.options)
    precondition(generator.signature == TwitterDocRequest.expected, "the workload does not reproduce Twitter's signature")
    let baseString = Array(generator.signatureBaseString.utf8)
    let key = Array(generator.signingKey!.utf8)

    harness.measureSync("baseline: OpenSSL HMAC() one-shot") {
      OpenSSLBaseline.hmacSHA1(key: key, message: baseString)
    }
    let baseline = "baseline: OpenSSL HMAC() one-shot"
    // The crypto alone, as the signers do it: what is left of a signer's time above these is
    // the signer's own work (reading the request, the base string, the header).
    let prepared = OpenSSLBaseline.prepare(key: key)
    harness.measureSync("floor: HMAC-SHA1, pads hashed once (reused)", baseline: baseline) {
      OpenSSLBaseline.hmacSHA1(prepared: prepared, message: baseString)
    }
    harness.measureSync("floor: key setup + HMAC-SHA1 (cold)", baseline: baseline) {
      OpenSSLBaseline.preparedHMACSHA1(key: key, message: baseString)
    }

    let signer = try OAuthSigner(consumer: TwitterDocRequest.consumer, token: TwitterDocRequest.token)
    let fastHeader = try signer.authorizationHeader(for: request, nonce: TwitterDocRequest.nonce, timestamp: TwitterDocRequest.timestamp)
    precondition(fastHeader == generator.authorizationHeader, "OAuthSigner and the generator disagree")
    try harness.measureSync("sign/twitter-doc: reused signer", baseline: baseline) {
      blackHole(try signer.authorizationHeader(for: request, nonce: TwitterDocRequest.nonce, timestamp: TwitterDocRequest.timestamp))
    }
    try harness.measureSync("sign/twitter-doc: cold", baseline: baseline) {
      let signer = try OAuthSigner(
        consumer: Credentials(key: TwitterDocRequest.consumer.key, secret: TwitterDocRequest.consumer.secret),
        token: Credentials(key: TwitterDocRequest.token.key, secret: TwitterDocRequest.token.secret))
      blackHole(try signer.authorizationHeader(for: request, nonce: TwitterDocRequest.nonce, timestamp: TwitterDocRequest.timestamp))
    }
    // What the cold signer adds to the reused one: the set-up alone (and its release).
    try harness.measureSync("sign/twitter-doc: signer set-up alone", baseline: "floor: key setup + HMAC-SHA1 (cold)") {
      blackHole(
        try OAuthSigner(
          consumer: Credentials(key: TwitterDocRequest.consumer.key, secret: TwitterDocRequest.consumer.secret),
          token: Credentials(key: TwitterDocRequest.token.key, secret: TwitterDocRequest.token.secret)))
    }
    try harness.measureSync("sign/twitter-doc: OAuthSignatureGenerator (every stage kept)", baseline: baseline) {
      blackHole(
        try OAuthSignatureGenerator(
          consumerCredentials: TwitterDocRequest.consumer, credentials: TwitterDocRequest.token, request: request,
          options: TwitterDocRequest.options
        ).authorizationHeader)
    }

    // Each stage alone, as the public stage functions do it.
    let status = "Hello Ladies + Gentlemen, a signed OAuth request!"
    harness.measureSync("stage/percent-encoding (status value)", baseline: baseline) { blackHole(OAuthPercentEncoding.encode(status)) }
    let protocolParameters = generator.protocolParameters
    try harness.measureSync("stage/parameter collection", baseline: baseline) {
      blackHole(
        try OAuthParameterCollection.collect(
          query: "include_entities=true", formBody: Array(TwitterDocRequest.body), protocolParameters: protocolParameters))
    }
    let parameters = generator.parameters
    harness.measureSync("stage/normalization", baseline: baseline) { blackHole(OAuthParameterNormalization.normalize(parameters)) }
    try harness.measureSync("stage/base string URI", baseline: baseline) { blackHole(try OAuthBaseStringURI.make(url: request.url)) }
    let normalized = generator.normalizedParameters
    harness.measureSync("stage/signature base string", baseline: baseline) {
      blackHole(OAuthSignatureBaseString.make(method: "POST", baseStringURI: generator.baseStringURI, normalizedParameters: normalized))
    }
    harness.measureSync("stage/signing key", baseline: baseline) {
      blackHole(OAuthSigningKey.make(consumerSecret: TwitterDocRequest.consumer.secret, tokenSecret: TwitterDocRequest.token.secret))
    }
    let signingKey = generator.signingKey!
    let base = generator.signatureBaseString
    try harness.measureSync("stage/HMAC-SHA1 (OAuthSignature.digest)", baseline: baseline) {
      blackHole(try OAuthSignature.digest(baseString: base, method: .hmacSHA1, signingKey: signingKey))
    }
    let digest = try OAuthSignature.digest(baseString: base, method: .hmacSHA1, signingKey: signingKey)
    harness.measureSync("stage/base64", baseline: baseline) { blackHole(OAuthBase64.encode(digest)) }
    let signed = generator.signedProtocolParameters
    harness.measureSync("stage/Authorization header", baseline: baseline) { blackHole(OAuthAuthorizationHeader.make(parameters: signed)) }
  }
}

/// Keeps a result alive so the optimizer cannot drop the work.
@inline(never)
func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}
