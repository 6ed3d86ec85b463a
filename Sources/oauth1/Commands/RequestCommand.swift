import CommandLineSupport
import Foundation
import NetworkClient
import OAuth1
import OAuthNetworking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `oauth1 request METHOD URL`: a curl for any OAuth 1.0a API. It signs with a saved profile,
/// a provider's rules or the options `oauth1 sign` takes, sends through `NetworkClient` (whose
/// redirect policy never carries the signature to another origin), prints the body, and
/// explains a refusal with the provider's base string next to ours.
struct RequestCommand: OAuth1Subcommand {
  static let spec = CommandSpec(
    name: "oauth1 request",
    summary: "Send one signed request to an OAuth 1.0a API and print the response body.",
    options: SigningSetup.options + [
      data, dataBinary, RequestBodyInput.contentType, json, header, queryAuth, include, output, verbose, timeout, OAuth1Command.versionOption,
    ],
    positionals: [
      PositionalSpec("method", help: "The HTTP method: GET, POST, PUT, DELETE..."),
      PositionalSpec("url", help: "The absolute URL, with its query as it should be sent."),
    ],
    discussion: """
      Credentials come from --profile (saved by `oauth1 login`) or from --consumer-key, --token and the
      secrets (--consumer-secret, --token-secret, or OAUTH1_CONSUMER_SECRET and OAUTH1_TOKEN_SECRET); a
      consumer alone signs one-legged. The body is on stdout. An error answer's body is on stderr, or
      with -i on stdout after its status line, headers and a blank line, as curl -i prints it (secrets
      redacted); the explanation, with the first difference from ours when the provider reports its
      own base string, is on stderr.

      Exit status: 0 for a 2xx answer, 1 for any other answer (or a request refused before it was sent),
      2 for wrong usage, 3 when no answer came.

      Examples:
        oauth1 request GET 'https://api.x.com/2/users/me' --profile x
        oauth1 request POST http://shop.example/wp-json/wc/v3/orders --provider woocommerce \\
          --site http://shop.example --consumer-key ck_... --json '{"status":"pending"}'
        oauth1 request GET https://api.discogs.com/oauth/identity --profile discogs -v
      """)

  static let data = Option.repeatable(
    "data", short: "d", placeholder: "NAME=VALUE", help: "A form parameter, decoded (the command encodes it).")
  static let dataBinary = Option.value(
    "data-binary", placeholder: "@FILE|TEXT", help: "The raw body, from FILE with @ (not a form: not signed without --body-hash).")
  static let json = Option.value("json", placeholder: "JSON", help: "A JSON body (Content-Type: application/json).")
  static let header = Option.repeatable("header", short: "H", placeholder: "'NAME: VALUE'", help: "A request header.")
  static let queryAuth = Option.flag("query-auth", help: "Send the protocol parameters in the query instead of the Authorization header.")
  static let include = Option.flag("include", short: "i", help: "Print the status line and the response headers before the body.")
  static let output = Option.value("output", short: "o", placeholder: "FILE", help: "Write the body to FILE instead of stdout.")
  static let verbose = Option.flag("verbose", short: "v", help: "Print every signing stage on stderr (secrets redacted).")
  static let timeout = Option<Int>.value(
    "max-time", placeholder: "SECONDS", default: .value(30), help: "Give up after this many seconds (default \(.default)).", .integer(in: 1...86_400))

  static func run(_ parsed: ParsedArguments) async throws -> Int32 {
    let environment = ProcessInfo.processInfo.environment
    guard parsed.positionals.count == 2 else {
      throw UsageError("give the METHOD and the URL, as in: oauth1 request GET https://api.example.com/items")
    }
    let method = HTTPMethod(rawValue: parsed.positionals[0])
    let urlText = parsed.positionals[1]
    guard isAbsoluteHTTP(urlText), let url = URL(string: urlText) else {
      throw UsageError("\(CommandSpec.shown(urlText)) is not an absolute http or https URL (percent-encode spaces and other reserved characters)")
    }
    let setup = try SigningSetup(parsed, environment: environment)
    let (body, contentType) = try requestBody(parsed)
    var headers = try requestHeaders(parsed)
    if let contentType, !headers.contains("Content-Type") { headers["Content-Type"] = contentType }
    // The provider's own User-Agent rule (a behavior header) wins over this default.
    if !headers.contains("User-Agent") && !setup.providerHeaders.contains("User-Agent") {
      headers["User-Agent"] = "oauth1/\(OAuth1Command.version)"
    }
    let seconds = try parsed.value(timeout)

    // One nonce and timestamp chosen here, so that -v shows the stages of what is sent.
    let nonce = try OAuthNonce.random()
    let timestamp = SystemClock().secondsSince1970()
    var configuration = setup.configuration
    configuration.clock = FixedClock(seconds: timestamp)
    configuration.nonceSource = FirstNonce(nonce)
    let signedBaseString = Locked<String?>(nil)
    let signer = OAuthRequestBehavior(
      consumer: setup.consumer, token: setup.token, configuration: configuration, placement: setup.placement(queryAuth: parsed[queryAuth])
    ) { baseString in signedBaseString.withLock { $0 = baseString } }
    let transport = DefaultTransport()
    let client = NetworkClient(
      configuration: RequestConfiguration(
        baseURL: url, defaultBehavior: CombinedRequestBehavior([HeadersBehavior(setup.providerHeaders), signer]),
        transport: transport, timeout: TimeInterval(seconds)))
    let request = Request<HTTPResponse>(
      method: method, path: "", headers: headers, body: body.map { .data($0, contentType: contentType ?? "application/octet-stream") } ?? .none)

    if parsed[verbose] {
      Output.stderr("transport: \(transport.name) (\(transport.reason))")
      let prepared = try client.prepare(request)
      let generator = try OAuthSignatureGenerator(
        consumer: setup.consumer, token: setup.token,
        request: OAuthRequest(
          method: method.rawValue, url: prepared.url.absoluteString, body: body, contentType: prepared.headers["Content-Type"] ?? contentType),
        options: .init(configuration: configuration, nonce: nonce, timestamp: timestamp))
      Output.stderr(SigningReport(generator: generator, example: nil).text(redacted: true))
    }

    let response: HTTPResponse
    do throws(NetworkError) {
      response = try await client.send(request)
    } catch .httpStatus(let failure) {
      let text = String(decoding: failure.body, as: UTF8.self)
      let rejection = OAuthRejection(failure, signatureBaseString: signedBaseString.withLock { $0 })
      // Signed form values such as a password are hidden; oauth_* parameters are shown.
      let redacted = rejection.redacted { !$0.hasPrefix("oauth_") && Redaction.isSensitive(parameter: $0) }
      if parsed[include] {
        // As curl -i: the status line, the headers, a blank line and the body, then exit 1.
        Output.stdout(statusAndHeaders(failure.statusCode, failure.headers))
        try write(Data(refusedBody(text, rejection, redacted).utf8), to: parsed[output])
      }
      Output.error("the provider answered HTTP \(failure.statusCode) to \(failure.requestLine)")
      // A body that carries the provider's base string is shown below, read and redacted.
      if !parsed[include] && !text.isEmpty && rejection.report?.signatureBaseString == nil { Output.stderr(Redaction.text(text)) }
      if failure.statusCode == 401 || rejection.report != nil { Output.stderr(redacted.description) }
      return 1
    } catch .transport(let failure) {
      Output.error(failure.description)
      return 3
    } catch {
      // Refused before or after sending (a signing failure, a redirect policy): not "no answer".
      Output.error(error.description)
      return 1
    }
    if parsed[include] { Output.stdout(statusAndHeaders(response.statusCode, response.headers)) }
    try write(response.body, to: parsed[output])
    return 0
  }

  /// The body and its content type from `-d`, `--data-binary` or `--json` (one of them).
  static func requestBody(_ parsed: ParsedArguments) throws -> (Data?, String?) {
    let given = [(parsed.has(data), "-d"), (parsed.has(dataBinary), "--data-binary"), (parsed.has(json), "--json")].filter(\.0).map(\.1)
    if given.count > 1 { throw UsageError("give only one of -d, --data-binary and --json (got \(given.joined(separator: " and ")))") }
    let contentType = parsed[RequestBodyInput.contentType]
    if parsed.has(data) {
      return (try RequestBodyInput.formBody(parsed[data], option: "-d"), contentType ?? "application/x-www-form-urlencoded")
    }
    if let raw = parsed[dataBinary] {
      return (try RequestBodyInput.data(raw), contentType ?? "application/octet-stream")
    }
    if let text = parsed[json] {
      guard (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])) != nil else {
        throw UsageError("--json is not valid JSON: \(CommandSpec.shown(String(text.prefix(60))))")
      }
      return (Data(text.utf8), contentType ?? "application/json")
    }
    return (nil, contentType)
  }

  /// The `-H 'Name: value'` headers (of `option`, `-H` by default).
  static func requestHeaders(_ parsed: ParsedArguments, option: Option<[String]> = header) throws(UsageError) -> HTTPHeaders {
    var headers = HTTPHeaders()
    for field in parsed[option] {
      guard let colon = field.firstIndex(of: ":"), colon != field.startIndex else {
        throw UsageError("-H takes 'Name: value', not \(CommandSpec.shown(field))")
      }
      headers.add(name: String(field[..<colon]), value: field[field.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    }
    return headers
  }

  /// Whether `text` is an absolute http or https URL with a host.
  static func isAbsoluteHTTP(_ text: String) -> Bool {
    (try? OAuthURLComponents(text, requireHTTP: true)) != nil && URL(string: text) != nil
  }

  /// A refused answer's body as `-i` prints it: secrets redacted (``Redaction/text(_:)``), and the
  /// provider's base string, as it stands or percent-encoded, with the form values the
  /// diagnosis hides hidden too.
  static func refusedBody(_ text: String, _ rejection: OAuthRejection, _ redacted: OAuthRejection) -> String {
    var text = text
    if let theirs = rejection.diff?.provider, let hidden = redacted.diff?.provider, theirs != hidden {
      text = text.replacingOccurrences(of: theirs, with: hidden)
        .replacingOccurrences(of: OAuthPercentEncoding.encode(theirs), with: OAuthPercentEncoding.encode(hidden))
    }
    return Redaction.text(text)
  }

  static func statusAndHeaders(_ status: Int, _ headers: HTTPHeaders) -> String {
    var lines = ["HTTP \(status) \(HTTPURLResponse.localizedString(forStatusCode: status))"]
    lines += headers.map { "\($0.name): \($0.value)" }
    return lines.joined(separator: "\r\n") + "\r\n\r\n"
  }

  static func write(_ body: Data, to path: String?) throws {
    guard let path else {
      CheckedOutput.standardOutput.write(body)
      return
    }
    do {
      try body.write(to: URL(fileURLWithPath: path))
    } catch {
      throw InputFiles.Failure(description: "cannot write \(path): \((error as NSError).localizedDescription)")
    }
  }

  /// The nonce chosen for the first signing (the one -v shows), then fresh ones for any
  /// redirect the client signs again.
  final class FirstNonce: OAuthNonceSource {
    private let first: Locked<String?>
    init(_ nonce: String) { first = Locked(nonce) }
    func nextNonce() throws(OAuthError) -> String {
      if let nonce = first.withLock({ value -> String? in
        defer { value = nil }
        return value
      }) {
        return nonce
      }
      return try OAuthNonce.random()
    }
  }
}
