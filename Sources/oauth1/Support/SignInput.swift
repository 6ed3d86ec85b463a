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
    guard let url = arguments[SignCommand.url] else { throw UsageError("missing --url") }
    guard let consumerKey = arguments[SigningOptions.consumerKey] else { throw UsageError("missing --consumer-key") }

    let method = try SigningOptions.signatureMethod(arguments) ?? .hmacSHA1
    var privateKey: RSAPrivateKey? = nil
    if let path = try SigningOptions.privateKeyPath(arguments) {
      privateKey = try SigningOptions.privateKey(at: path, arguments, environment: environment)
    } else if method.usesRSA {
      throw UsageError("\(method.rawValue) needs --private-key FILE")
    }
    let consumerSecret = arguments[SigningOptions.consumerSecret] ?? environment["OAUTH1_CONSUMER_SECRET"]
    guard consumerSecret != nil || method.usesRSA else {
      throw UsageError("missing --consumer-secret (or OAUTH1_CONSUMER_SECRET)")
    }
    let tokenSecret = arguments[SigningOptions.tokenSecret] ?? environment["OAUTH1_TOKEN_SECRET"]
    if arguments[SigningOptions.token] == nil && arguments[SigningOptions.tokenSecret] != nil {
      // oauthlib's client signs this way (a resource owner secret without its key): a
      // debugging tool reproduces it, and says so.
      notes.append("a token secret without --token: it is part of the signing key, but no oauth_token is sent")
    }

    let (body, contentType) = try RequestBodyInput.read(arguments)

    let bodyHash = try SigningOptions.bodyHashAlgorithm(arguments)

    request = OAuthRequest(
      method: try arguments.value(RequestOptions.method), url: url, body: body, contentType: contentType, host: arguments[RequestOptions.host])
    consumer = Credentials(key: consumerKey, secret: consumerSecret ?? "")
    token =
      arguments[SigningOptions.token].map { Credentials(key: $0, secret: tokenSecret ?? "") }
      ?? arguments[SigningOptions.tokenSecret].map { Credentials(key: "", secret: $0) }
    options = OAuthSignatureGenerator.Options(
      signatureMethod: method,
      privateKey: privateKey,
      nonce: arguments[SignCommand.nonce],
      timestamp: try arguments.integer(SignCommand.timestamp, in: 0...Int64.max),
      realm: arguments[SigningOptions.realm],
      callback: arguments[SignCommand.callback],
      verifier: arguments[SignCommand.verifier],
      includeVersion: !arguments[SignCommand.noVersion],
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

}
