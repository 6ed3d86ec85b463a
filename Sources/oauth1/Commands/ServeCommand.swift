import CommandLineSupport
import Foundation
import Loopback
import OAuth1
import OAuthNetworking

/// `oauth1 serve`: an OAuth 1.0a provider on 127.0.0.1 to develop and test any client against
/// (``LoopbackProvider``): the three-legged flow, two-legged requests, and every other path a
/// protected resource that answers with the verifier's verdict and the base string it computed.
struct ServeCommand: OAuth1Subcommand {
  static let spec = CommandSpec(
    name: "oauth1 serve",
    summary: "Run an OAuth 1.0a provider on 127.0.0.1 that verifies and explains any client's requests (the three-legged flow too).",
    options: [
      port, SigningOptions.consumerKey, SigningOptions.consumerSecret, token, SigningOptions.tokenSecret, rsaPublicKey, profile, site, log,
      VerifyCommand.maxSkew, VerifyCommand.limit, untilStdinCloses, OAuth1Command.versionOption,
    ],
    discussion: """
      Endpoints (every other path is a protected resource):
        POST /oauth/request_token   signed with the consumer alone, with oauth_callback (a URL, or oob)
        GET  /oauth/authorize       ?oauth_token=...: approves at once; redirects to the callback with
                                    oauth_token and oauth_verifier, or for oob shows the PIN
        POST /oauth/access_token    signed with the request token, with its oauth_verifier
      A protected resource takes the parameters in the Authorization header, the query or a form
      body; HMAC-SHA1/256/512, PLAINTEXT (accepted over http here), RSA-SHA1/256/512 with
      --rsa-public-key, and oauth_body_hash. It answers 200 with JSON: valid, method, base_string,
      base_string_uri, normalized_parameters, consumer_key, token, signature_method, transmission, parameters; a
      request with no oauth_token is two-legged (the consumer alone).

      A refusal is 400 or 401 with WWW-Authenticate: OAuth realm="...", oauth_problem="..." (and
      oauth_parameters_absent, oauth_acceptable_timestamps...) and a JSON body with the same fields,
      oauth_problem_advice and the provider's base_string, base_string_uri and normalized_parameters, which
      `oauth1 request` compares with its own. Problems: signature_invalid, parameter_absent,
      parameter_rejected, timestamp_refused, nonce_used, consumer_key_unknown, token_rejected,
      signature_method_rejected, version_rejected.

      --profile NAME behaves as a known provider (\(OAuthProvider.names.joined(separator: ", "))):
      its realm in WWW-Authenticate, its signature methods only (NetSuite: HMAC-SHA256), its flow's
      paths besides /oauth/..., oauth_body_hash required where it requires one (Mastercard),
      oauth_token="" taken as two-legged where its clients send it, and for Jira and Confluence a
      refusal as theirs: a form body with oauth_problem and oauth_signature_base_string.

      Limits: a request's head at most 64 KiB (431), its body 16 MiB (413), 64 connections at once
      (503), 30 s to send the head and 30 s of silence (408); the verifier's --limit (url-bytes 65536,
      header-bytes 16384, form-bytes 16777216, parameters 10000, oauth-parameters 64); at most 10000
      request and 10000 access tokens kept, the oldest dropped. The log holds no secret, signature,
      verifier, query or body; requests the server refuses unread are in it as refused_by_server.

      Example:
        oauth1 serve --port 0 --consumer-key key --consumer-secret secret --log /tmp/provider.jsonl &
        oauth1 request GET 'http://127.0.0.1:PORT/items?page=2' --consumer-key key --consumer-secret secret
      """)

  static let port = Option<UInt16>.value(
    "port", placeholder: "N", default: .value(0), help: "The port on 127.0.0.1 (default \(.default): any free port; the URL is printed).",
    .init(expecting: "a port number from 0 to 65535") { UInt16($0) })
  static let token = Option.value(
    "token", placeholder: "TOKEN", help: "An access token accepted from the start, beside those the flow issues (with --token-secret).")
  static let untilStdinCloses = Option.flag(
    "until-stdin-closes", help: "For test harnesses: stop when standard input closes, so that a harness that dies leaves no server behind.")
  static let rsaPublicKey = Option.value(
    "rsa-public-key", placeholder: "FILE", help: "PEM RSA public key or certificate of the consumer, for the RSA methods.")
  static let profile = Option.value(
    "profile", placeholder: "NAME", help: "Behave as a known provider: \(OAuthProvider.names.joined(separator: ", ")).")
  static let site = Option.value("site", placeholder: "SITE", help: "The --profile's site, as --provider takes it (NetSuite's account id).")
  static let log = Option.value(
    "log", placeholder: "FILE", help: "Append one JSON line per request (no secrets, no signatures) to FILE.")

  static func run(_ parsed: ParsedArguments) async throws -> Int32 {
    let environment = ProcessInfo.processInfo.environment
    guard let consumerKey = parsed[SigningOptions.consumerKey] else { throw UsageError("missing --consumer-key") }
    let listenPort = try parsed.value(port)
    let consumerSecret = parsed[SigningOptions.consumerSecret] ?? environment["OAUTH1_CONSUMER_SECRET"]
    let publicKey = try parsed[rsaPublicKey].map { try RSAPublicKey(pem: InputFiles.readText($0, what: "public key")) }
    guard consumerSecret != nil || publicKey != nil else {
      throw UsageError("missing --consumer-secret (or OAUTH1_CONSUMER_SECRET), or --rsa-public-key for a consumer that signs with RSA only")
    }
    var settings = LoopbackProvider.Settings(consumerKey: consumerKey, consumer: OAuthConsumer(secret: consumerSecret, rsaPublicKey: publicKey))
    switch (parsed[token], parsed[SigningOptions.tokenSecret] ?? environment["OAUTH1_TOKEN_SECRET"]) {
    case (let token?, let secret?): settings.token = (token, secret)
    case (.some, nil): throw UsageError("--token needs --token-secret (or OAUTH1_TOKEN_SECRET)")
    case (nil, _) where parsed.has(SigningOptions.tokenSecret): throw UsageError("--token-secret needs --token")
    case (nil, _): break
    }
    if let name = parsed[profile] {
      do {
        settings.profile = try ServeProfile(named: name, site: parsed[site])
      } catch {
        throw UsageError("--profile: \(error.description)")
      }
    } else if parsed.has(site) {
      throw UsageError("--site needs --profile")
    }
    if let skew = try parsed.integer(VerifyCommand.maxSkew, in: 0...VerifyCommand.widestSkew) { settings.maxClockSkew = skew }
    settings.limits = try VerifyCommand.limits(parsed[VerifyCommand.limit])
    let requestLog: ProviderLog?
    do {
      requestLog = try parsed[log].map { path throws(ProviderLog.Failure) in try ProviderLog(path: path) }
    } catch {
      throw InputFiles.Failure(description: error.description)
    }

    let provider = LoopbackProvider(settings: settings, log: requestLog)
    let server: LoopbackHTTPServer
    do {
      server = try LoopbackHTTPServer(
        port: listenPort, refused: { provider.record($0) }, handler: { request in await provider.respond(to: request) })
    } catch {
      throw InputFiles.Failure(description: "\(error); choose another --port (0 picks a free one)")
    }
    let base = server.baseURL.absoluteString
    Output.stdout("Serving OAuth 1.0a at \(base)\n")
    Output.stderr(
      """
      Temporary credentials: POST \(base)/oauth/request_token
      Authorization:         GET  \(base)/oauth/authorize?oauth_token=...
      Token credentials:     POST \(base)/oauth/access_token
      Any other path is a protected resource. Stop it with Ctrl-C.
      """)
    if let profile = settings.profile { Output.stderr(profile.summary) }
    if parsed[untilStdinCloses] {
      Thread {
        while !FileHandle.standardInput.availableData.isEmpty {}
        exit(0)
      }.start()
    }
    // The server answers on threads of its own until the process is stopped; it is held until then.
    _ = Unmanaged.passRetained(server)
    while true { try await Task.sleep(nanoseconds: 3_600_000_000_000) }
  }
}
