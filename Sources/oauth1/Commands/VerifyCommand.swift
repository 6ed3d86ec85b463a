import CommandLineSupport
import Foundation
import OAuth1
import OAuth1Redis

/// `oauth1 verify`: checks a received request's signature (and timestamp) like a provider would,
/// and says which check failed, with the base string the verifier computed.
struct VerifyCommand: OAuth1Subcommand {
  static let spec = CommandSpec(
    name: "oauth1 verify",
    summary:
      "Verify an OAuth 1.0a request as a provider would; exit 0 and print \"valid\", exit 1 and say which check failed, or exit 3 when the nonce store cannot answer.",
    options: [RequestOptions.method, url, authorization] + RequestBodyInput.options + [
      RequestOptions.host, consumerKey, SigningOptions.consumerSecret, SigningOptions.tokenSecret, publicKey, now, maxSkew,
      allowPlaintextOverHTTP, publicOrigin, header, peer, trustedProxy, forwardingHeaders, nonceStore, limit, OAuth1Command.versionOption,
    ],
    discussion: """
      Example:
        oauth1 verify --method POST --url 'https://api.x.com/1.1/statuses/update.json?include_entities=true' \\
          --form 'status=Hello' --authorization 'OAuth oauth_consumer_key="...", ...' \\
          --consumer-secret SECRET --token-secret SECRET

      Replay protection across processes: with --nonce-store redis://HOST:PORT[/DB] (rediss:// for TLS,
      the CA in SSL_CERT_FILE when the system does not trust it; or the URL in OAUTH1_REDIS_URL,
      which keeps a password out of the process list) every verification records
      its nonce in Redis for 2 × --max-skew seconds, and a second use is refused as nonce_used in
      any process. When Redis cannot answer, the request is refused as temporarily_unavailable
      with exit status 3, never accepted. Without either, nonces are remembered by this process only.

      Limits (OAuthVerifier.Limits), refused as parameter_rejected before the request is read:
        url-bytes 65536, header-bytes 16384 (an OAuth Authorization header), form-bytes 16777216,
        parameters 10000 (query, form body and header together), oauth-parameters 64.
      Raise or lower one with --limit NAME=N, e.g. --limit parameters=100000.
      """)

  static let url = Option.value(
    "url", placeholder: "URL", help: "The absolute URL as received, with its raw query (may carry the oauth_* parameters).")
  static let authorization = Option.value(
    "authorization", placeholder: "HEADER", help: "The Authorization header (OAuth ...), if the parameters came there.")
  static let consumerKey = Option.value("consumer-key", placeholder: "KEY", help: "Accept only this consumer key (default: the request's).")
  static let publicKey = Option.value("public-key", placeholder: "FILE", help: "PEM RSA public key or certificate, for the RSA methods.")
  static let now = Option.value("now", placeholder: "SECONDS", help: "The verifier's clock (default: now), up to the end of year 9999.")
  static let maxSkew = Option.value("max-skew", placeholder: "SECONDS", help: "Accepted timestamp distance (default 300), up to 100 years.")

  /// The latest `--now`: 9999-12-31T23:59:59Z. Past it a clock means nothing to a timestamp.
  static let latestNow: Int64 = 253_402_300_799
  /// The widest `--max-skew`: 100 years of 365.25 days. Wider accepts any timestamp anyway.
  static let widestSkew: Int64 = 3_155_760_000
  static let limit = Option.repeatable(
    "limit", placeholder: "NAME=N",
    help: "Change a limit: url-bytes, header-bytes, form-bytes, parameters or oauth-parameters (the defaults are below).")
  static let publicOrigin = Option.value(
    "public-origin", placeholder: "URL", help: "Behind a proxy: verify against this scheme, host and port (https://tool.example.edu).")
  static let header = Option.repeatable(
    "header", short: "H", placeholder: "'NAME: VALUE'", help: "A received header (Forwarded, X-Forwarded-Proto/-Host/-Port).")
  static let peer = Option.value("peer", placeholder: "ADDRESS", help: "The address the request came from (for --trusted-proxy).")
  static let trustedProxy = Option.repeatable(
    "trusted-proxy", placeholder: "ADDRESS", help: "Believe forwarding headers (--header) from this peer address.")
  static let forwardingHeaders = Option.value(
    "forwarding-headers", placeholder: "x-forwarded|forwarded",
    help: "Which headers the trusted proxy sets: X-Forwarded-Proto/-Host/-Port (default) or Forwarded (RFC 7239).")
  static let nonceStore = Option.value(
    "nonce-store", placeholder: "redis[s]://[[USER]:PASSWORD@]HOST[:PORT][/DB]",
    help: "Record nonces in this Redis, shared by every verifying process (or env OAUTH1_REDIS_URL; default: this process only).")
  static let allowPlaintextOverHTTP = Option.flag("allow-plaintext-over-http", help: "Accept PLAINTEXT over http (it sends the secrets in clear).")

  static func run(_ parsed: ParsedArguments) async throws -> Int32 {
    guard let url = parsed[url] else { throw UsageError("missing --url") }
    let environment = ProcessInfo.processInfo.environment
    let consumerSecret = parsed[SigningOptions.consumerSecret] ?? environment["OAUTH1_CONSUMER_SECRET"]
    let publicKey = try parsed[publicKey].map { try RSAPublicKey(pem: InputFiles.readText($0, what: "public key")) }
    guard consumerSecret != nil || publicKey != nil else {
      throw UsageError("missing --consumer-secret (or OAUTH1_CONSUMER_SECRET), or --public-key for RSA")
    }
    let (body, contentType) = try RequestBodyInput.read(parsed)
    let request = OAuthRequest(
      method: try parsed.value(RequestOptions.method), url: url, body: body, contentType: contentType, host: parsed[RequestOptions.host])
    let lookup = CommandLineCredentials(
      consumerKey: parsed[consumerKey], consumer: OAuthConsumer(secret: consumerSecret, rsaPublicKey: publicKey),
      tokenSecret: parsed[SigningOptions.tokenSecret] ?? environment["OAUTH1_TOKEN_SECRET"])
    var options = OAuthVerifier.Options(allowPlaintextOverHTTP: parsed[allowPlaintextOverHTTP])
    if let now = try parsed.integer(now, in: 0...latestNow) { options.clock = FixedClock(seconds: now) }
    if let skew = try parsed.integer(maxSkew, in: 0...widestSkew) { options.maxClockSkew = skew }
    options.limits = try limits(parsed[limit])
    options.publicURL = try publicURL(parsed)
    let headers = try RequestCommand.requestHeaders(parsed, option: header).map { (name: $0.name, value: $0.value) }
    let verifier = OAuthVerifier(credentials: lookup, nonceStore: try sharedNonceStore(parsed, window: 2 * options.maxClockSkew), options: options)
    do throws(OAuthVerificationError) {
      let verified = try await verifier.verify(request, authorization: parsed[authorization], headers: headers, peerAddress: parsed[peer])
      Output.stdout("valid\n")
      Output.stdout("consumer key:     \(oneLine(verified.consumerKey))\n")
      Output.stdout("token:            \(verified.token.map(oneLine) ?? "(none)")\n")
      Output.stdout("signature method: \(verified.signatureMethod.rawValue)\n")
      return 0
    } catch {
      Output.stdout(describe(error))
      return error.problem == .temporarilyUnavailable ? storeUnavailable : 1
    }
  }

  /// The verifier's limits with each `--limit NAME=N` applied.
  static func limits(_ settings: [String]) throws(UsageError) -> OAuthVerifier.Limits {
    var limits = OAuthVerifier.Limits()
    let names: [(String, WritableKeyPath<OAuthVerifier.Limits, Int>)] = [
      ("url-bytes", \.maximumURLBytes), ("header-bytes", \.maximumAuthorizationHeaderBytes), ("form-bytes", \.maximumFormBodyBytes),
      ("parameters", \.maximumParameters), ("oauth-parameters", \.maximumProtocolParameters),
    ]
    for setting in settings {
      let (name, value) = try NameValue.split(setting, option: "--limit")
      guard let path = names.first(where: { $0.0 == name })?.1 else {
        throw UsageError("--limit takes \(names.map(\.0).joined(separator: ", ")), not \(CommandSpec.shown(name))")
      }
      guard let number = Int(value), number >= 0 else {
        throw UsageError("--limit \(name) takes a whole number of at least 0, not \(CommandSpec.shown(value))")
      }
      limits[keyPath: path] = number
    }
    return limits
  }

  /// `text` with its control characters escaped (`\r`, `\u{1B}`), as the verifier's errors
  /// escape what they repeat: a signed value cannot add a line to the output either.
  static func oneLine(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\r": result += "\\r"
      case "\n": result += "\\n"
      case "\t": result += "\\t"
      case _ where scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}":
        result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// The exit status when the nonce store cannot answer: not the sender's fault, unlike 1.
  static let storeUnavailable: Int32 = 3

  /// The Redis store of `--nonce-store` or `OAUTH1_REDIS_URL`, keeping nonces `window` seconds;
  /// `nil` (the verifier's own in-memory store) when neither is given.
  static func sharedNonceStore(_ parsed: ParsedArguments, window: Int64) throws(UsageError) -> RedisNonceStore? {
    let fromEnvironment = ProcessInfo.processInfo.environment["OAUTH1_REDIS_URL"].flatMap { $0.isEmpty ? nil : $0 }
    guard let url = parsed[nonceStore] ?? fromEnvironment else { return nil }
    let source = parsed[nonceStore] != nil ? "--nonce-store" : "OAUTH1_REDIS_URL"
    do {
      var configuration = try RedisConfiguration(url: url)
      configuration.poolSize = 1
      return RedisNonceStore(configuration: configuration, window: max(1, window))
    } catch {
      throw UsageError("\(source): \(error)")
    }
  }

  /// The failed check, its advice and what helps compare with the sender.
  /// `--public-origin`, or `--trusted-proxy` (whose forwarding headers come with `--header` and `--peer`).
  static func publicURL(_ parsed: ParsedArguments) throws(UsageError) -> OAuthPublicURL {
    switch (parsed[publicOrigin], parsed[trustedProxy]) {
    case (nil, []):
      return .asReceived
    case (let origin?, []):
      guard RequestCommand.isAbsoluteHTTP(origin) else {
        throw UsageError("--public-origin takes https://host[:port], not \(CommandSpec.shown(origin))")
      }
      return .origin(origin)
    case (nil, let proxies):
      guard parsed.has(peer) else { throw UsageError("--trusted-proxy needs --peer, the address the request came from") }
      switch parsed[forwardingHeaders]?.lowercased() ?? "x-forwarded" {
      case "x-forwarded": return .forwarded(trustedProxies: Set(proxies), headers: .xForwarded)
      case "forwarded": return .forwarded(trustedProxies: Set(proxies), headers: .forwarded)
      case let other: throw UsageError("--forwarding-headers takes x-forwarded or forwarded, not \(CommandSpec.shown(other))")
      }
    case (.some, _):
      throw UsageError("give --public-origin or --trusted-proxy, not both")
    }
  }

  static func describe(_ error: OAuthVerificationError) -> String {
    var lines = ["invalid: \(error.problem.rawValue)", error.advice]
    if let cause = error.cause { lines.append("cause: \(cause)") }
    if let range = error.acceptableTimestamps { lines.append("accepted timestamps: \(range.lowerBound)...\(range.upperBound)") }
    if !error.parameters.isEmpty { lines.append("parameters: \(error.parameters.joined(separator: ", "))") }
    if let baseString = error.signatureBaseString {
      lines += ["signature base string computed here (compare it with the sender's):", baseString]
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The one consumer and token given on the command line.
  struct CommandLineCredentials: OAuthCredentialLookup {
    let consumerKey: String?
    let consumer: OAuthConsumer
    let tokenSecret: String?

    func consumer(forKey key: String) async throws -> OAuthConsumer? {
      consumerKey == nil || consumerKey == key ? consumer : nil
    }

    func tokenSecret(forToken token: String, consumerKey: String) async throws -> String? {
      tokenSecret
    }
  }

}
