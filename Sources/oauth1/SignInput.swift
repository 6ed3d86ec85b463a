import CommandLineSupport
import Foundation
import OAuth1

/// What `oauth1 sign` was asked to sign, checked and gathered from the options.
struct SignInput {
  var request: OAuthRequest
  var consumer: Credentials
  var token: Credentials?
  var options: OAuthSignatureGenerator.Options

  /// A failure that is not wrong usage, such as an unreadable file.
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  init(_ arguments: ParsedArguments, environment: [String: String]) throws {
    guard let url = arguments.value("url") else { throw UsageError("missing --url") }
    guard let consumerKey = arguments.value("consumer-key") else { throw UsageError("missing --consumer-key") }

    let method = try Self.signatureMethod(arguments.value("signature-method"))
    var privateKey: RSAPrivateKey? = nil
    if let path = arguments.value("private-key") {
      privateKey = try RSAPrivateKey(pem: Self.readText(path, what: "private key"))
    } else if method.usesRSA {
      throw UsageError("\(method.rawValue) needs --private-key FILE")
    }
    let consumerSecret = arguments.value("consumer-secret") ?? environment["OAUTH1_CONSUMER_SECRET"]
    guard consumerSecret != nil || method.usesRSA else {
      throw UsageError("missing --consumer-secret (or OAUTH1_CONSUMER_SECRET)")
    }
    let tokenSecret = arguments.value("token-secret") ?? environment["OAUTH1_TOKEN_SECRET"]
    if arguments.value("token") == nil && arguments.value("token-secret") != nil {
      throw UsageError("--token-secret needs --token")
    }

    let bodySources = ["body", "body-file", "form"].filter(arguments.has)
    if bodySources.count > 1 {
      throw UsageError("give only one of --body, --body-file and --form (got --\(bodySources.joined(separator: " and --")))")
    }
    var body: Data? = nil
    var contentType = arguments.value("content-type")
    if let text = arguments.value("body") {
      body = Data(text.utf8)
    } else if let path = arguments.value("body-file") {
      body = try Self.readData(path, what: "body")
    } else if arguments.has("form") {
      let pairs = try arguments.values("form").map { pair throws(UsageError) -> OAuthParameter in
        guard let equals = pair.firstIndex(of: "=") else { throw UsageError("--form takes NAME=VALUE, not \"\(pair)\"") }
        return OAuthParameter(String(pair[..<equals]), String(pair[pair.index(after: equals)...]))
      }
      body = Data(OAuthFormEncoding.encode(pairs).utf8)
      contentType = contentType ?? "application/x-www-form-urlencoded"
    }

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
    token = arguments.value("token").map { Credentials(key: $0, secret: tokenSecret ?? "") }
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

  private static func readData(_ path: String, what: String) throws -> Data {
    do {
      return try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw Failure(description: "cannot read the \(what) file \(path): \((error as NSError).localizedDescription)")
    }
  }

  private static func readText(_ path: String, what: String) throws -> String {
    let data = try readData(path, what: what)
    guard let text = String(data: data, encoding: .utf8) else {
      throw Failure(description: "the \(what) file \(path) is not text; give a PEM file")
    }
    return text
  }
}
