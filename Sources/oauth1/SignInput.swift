import CommandLineSupport
import Foundation
import OAuth1

/// What `oauth1 sign` was asked to sign, checked and gathered from the options.
struct SignInput {
  var request: OAuthRequest
  var consumer: Credentials
  var token: Credentials?
  var options: OAuthSignatureGenerator.Options
  /// What is unusual about the request but signed anyway, for stderr.
  var notes: [String] = []

  init(_ arguments: ParsedArguments, environment: [String: String]) throws {
    guard let url = arguments.value("url") else { throw UsageError("missing --url") }
    guard let consumerKey = arguments.value("consumer-key") else { throw UsageError("missing --consumer-key") }

    let method = try Self.signatureMethod(arguments.value("signature-method"))
    var privateKey: RSAPrivateKey? = nil
    if let path = arguments.value("private-key") {
      privateKey = try RSAPrivateKey(pem: InputFiles.readText(path, what: "private key"))
    } else if method.usesRSA {
      throw UsageError("\(method.rawValue) needs --private-key FILE")
    }
    let consumerSecret = arguments.value("consumer-secret") ?? environment["OAUTH1_CONSUMER_SECRET"]
    guard consumerSecret != nil || method.usesRSA else {
      throw UsageError("missing --consumer-secret (or OAUTH1_CONSUMER_SECRET)")
    }
    let tokenSecret = arguments.value("token-secret") ?? environment["OAUTH1_TOKEN_SECRET"]
    if arguments.value("token") == nil && arguments.value("token-secret") != nil {
      // oauthlib's client signs this way (a resource owner secret without its key): a
      // debugging tool reproduces it, and says so.
      notes.append("a token secret without --token: it is part of the signing key, but no oauth_token is sent")
    }

    let (body, contentType) = try RequestBodyInput.read(arguments)

    let bodyHash: OAuthDigestAlgorithm?
    switch (arguments.flag("body-hash"), arguments.value("body-hash-algorithm")?.uppercased()) {
    case (false, nil): bodyHash = nil
    case (false, .some): throw UsageError("--body-hash-algorithm needs --body-hash")
    case (true, nil), (true, "SHA-1"), (true, "SHA1"): bodyHash = .sha1
    case (true, "SHA-256"), (true, "SHA256"): bodyHash = .sha256
    case (true, .some(let other)): throw UsageError("--body-hash-algorithm takes SHA-1 or SHA-256, not \(other)")
    }

    request = OAuthRequest(
      method: arguments.value("method") ?? "GET", url: url, body: body, contentType: contentType, host: arguments.value("host"))
    consumer = Credentials(key: consumerKey, secret: consumerSecret ?? "")
    token =
      arguments.value("token").map { Credentials(key: $0, secret: tokenSecret ?? "") }
      ?? arguments.value("token-secret").map { Credentials(key: "", secret: $0) }
    options = OAuthSignatureGenerator.Options(
      signatureMethod: method,
      privateKey: privateKey,
      nonce: arguments.value("nonce"),
      timestamp: try arguments.integer("timestamp", in: 0...Int64.max),
      realm: arguments.value("realm"),
      callback: arguments.value("callback"),
      verifier: arguments.value("verifier"),
      includeVersion: !arguments.flag("no-version"),
      bodyHash: bodyHash)
  }

  init(request: OAuthRequest, consumer: Credentials, token: Credentials?, options: OAuthSignatureGenerator.Options) {
    self.request = request
    self.consumer = consumer
    self.token = token
    self.options = options
  }

  func sign() throws -> OAuthSignatureGenerator {
    try OAuthSignatureGenerator(consumerCredentials: consumer, credentials: token, request: request, options: options)
  }

  private static func signatureMethod(_ name: String?) throws -> OAuthSignatureMethod {
    guard let name else { return .hmacSHA1 }
    do {
      return try OAuthSignatureMethod(name: name)
    } catch {
      throw UsageError(error.description)
    }
  }
}
