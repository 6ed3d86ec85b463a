import CommandLineSupport
import Foundation
import Loopback
import NetworkClient
import OAuth1
import OAuthNetworking
import PercentEncoding

/// `oauth1 login`: the three-legged flow with a named provider or explicit endpoints. The
/// verifier is typed on standard input (`--callback oob`, the default) or received by a
/// one-shot server on 127.0.0.1 (`--callback loopback`). The token credentials are saved as a
/// profile for `oauth1 request --profile`; no secret is ever printed.
struct LoginCommand: OAuth1Subcommand {
  static let spec = CommandSpec(
    name: "oauth1 login",
    summary: "Log in to an OAuth 1.0a provider (three-legged flow) and save the token as a profile.",
    options: [SigningSetup.profile, SigningSetup.provider, SigningSetup.site] + [
      requestTokenURL, authorizeURL, accessTokenURL, authorizeParameter, SigningOptions.consumerKey, SigningOptions.consumerSecret,
      SigningOptions.signatureMethod,
    ] + SigningOptions.keyOptions + [SigningOptions.realm, callback, callbackPort, noBrowser, wait, OAuth1Command.versionOption],
    discussion: """
      The authorize URL is always printed (on stderr); the browser is opened where one can be.
      With --callback oob (the default) type the PIN or verifier the provider shows; with
      --callback loopback the provider redirects the browser to http://127.0.0.1:PORT/callback.

      Examples:
        oauth1 login --provider x --consumer-key KEY --profile me        # OAUTH1_CONSUMER_SECRET in the environment
        oauth1 login --provider jira --site https://jira.example.com --consumer-key app \\
          --private-key jira.pem --callback loopback --profile jira
        oauth1 login --request-token-url https://api.example.com/oauth/request_token \\
          --authorize-url https://example.com/oauth/authorize \\
          --access-token-url https://api.example.com/oauth/access_token --consumer-key KEY --profile example
      """)

  static let requestTokenURL = Option.value("request-token-url", placeholder: "URL", help: "The temporary-credentials endpoint (POST).")
  static let authorizeURL = Option.value("authorize-url", placeholder: "URL", help: "The page where the user authorizes.")
  static let accessTokenURL = Option.value("access-token-url", placeholder: "URL", help: "The token-credentials endpoint (POST).")
  static let authorizeParameter = Option.repeatable(
    "authorize-param", placeholder: "NAME=VALUE", help: "A query parameter of the authorize URL (overrides the provider's).")
  static let callback = Option<String>.value(
    "callback", placeholder: "oob|loopback|URL", default: .value("oob"),
    help: "How the verifier comes back: typed (\(.default), default), or a loopback server.", .string)
  static let callbackPort = Option.value("callback-port", placeholder: "PORT", help: "The loopback server's port (default: any free one).")
  static let noBrowser = Option.flag("no-browser", help: "Do not try to open a browser; only print the authorize URL.")
  static let wait = Option<Int>.value(
    "wait", placeholder: "SECONDS", default: .value(300), help: "How long to wait for the verifier (default \(.default)).", .integer(in: 1...86_400))

  /// Whether a request to the loopback callback is the provider's redirect for the request
  /// token being authorized (`token`, `nil` before the provider issued it): its `oauth_token`,
  /// or X's `denied=<token>` for a refusal. Any other request (a page on the machine poking the
  /// port) gets a 400 and the wait goes on.
  static func verdict(_ fields: [String: String], token: String?) -> RedirectReceiver.Judgement {
    func page(_ status: Int, _ text: String) -> LoopbackHTTPServer.Response {
      let body = "<!doctype html><meta charset=utf-8><title>oauth1</title><p>\(text)</p>\n"
      return .init(status: status, headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store")], body: Data(body.utf8))
    }
    let sent = fields["oauth_token"] ?? fields["denied"]
    guard let token, let sent, RedirectReceiver.constantTimeEquals(sent, token) else {
      return .other(page(400, "Not the callback of the authorization this login started."))
    }
    let done = fields["oauth_verifier"] != nil
    return .arrived(page(200, done ? "Authorized. You can close this window and go back to the terminal." : "The authorization was not completed."))
  }

  static func run(_ parsed: ParsedArguments) async throws -> Int32 {
    let environment = ProcessInfo.processInfo.environment
    guard let profileName = parsed[SigningSetup.profile] else { throw UsageError("missing --profile NAME: the name to save the login under") }
    // The profile is written, not read: sign with what the options say.
    let setup = try SigningSetup(parsed, environment: environment, readingProfile: false)
    let flow = try makeFlow(parsed, setup)
    let seconds = Double(try parsed.value(wait))

    let mode = try parsed.value(callback)
    var server: RedirectReceiver?
    // The request token the callback must carry, known once the provider issued it: until then
    // every request to the callback is some other page's, and the wait goes on.
    let awaited = Locked<String?>(nil)
    let callbackURL: String
    switch mode {
    case "oob": callbackURL = "oob"
    case "loopback":
      let port = try parsed.integer(callbackPort, in: 0...65_535).map { UInt16($0) } ?? 0
      do {
        server = try RedirectReceiver(port: port, path: "/callback", timeout: seconds) { fields in
          verdict(fields, token: awaited.withLock { $0 })
        }
      } catch {
        throw LoginFailure("\(error)" + (port == 0 ? "" : "; choose another --callback-port"))
      }
      callbackURL = "http://127.0.0.1:\(server!.port)/callback"
    default:
      guard let url = URL(string: mode), url.scheme != nil, url.host != nil else {
        throw UsageError("--callback takes oob, loopback or an absolute URL, not \(CommandSpec.shown(mode))")
      }
      callbackURL = mode
    }
    if server == nil && parsed.has(callbackPort) { throw UsageError("--callback-port needs --callback loopback") }

    if flow.endpoints.authorize.isEmpty && server != nil {
      throw UsageError("this provider has no authorize page to redirect from: leave out --callback loopback and type the verifier")
    }
    let temporary = try await flow.requestToken(callback: callbackURL)
    let verifier: String
    if flow.endpoints.authorize.isEmpty {
      Output.stderr("This provider has no authorize page: it sends the verifier to the integration's callback URL.")
      verifier = try readVerifier(prompt: "Verifier: ")
    } else {
      let authorize = flow.authorizeURL(for: temporary)
      Output.stderr("Open this URL to authorize the application:\n\n  \(authorize.absoluteString)\n")
      if !parsed[noBrowser] { Browser.open(authorize, environment: environment) }
      if let server {
        awaited.withLock { $0 = temporary.credentials.key }
        Output.stderr("Waiting for the provider to redirect to \(callbackURL) ...")
        guard let target = await server.redirect() else {
          throw LoginFailure("no callback arrived in time; authorize sooner, or use --callback oob")
        }
        server.close()
        var fields: [String: String] = [:]
        for pair in PercentEncoding.decodeForm(target.drop { $0 != "?" }.dropFirst()) where fields[pair.name] == nil {
          fields[pair.name] = pair.value
        }
        if fields["denied"] != nil { throw LoginFailure("the authorization was denied in the browser") }
        guard let received = fields["oauth_verifier"] else { throw LoginFailure("the callback carried no oauth_verifier") }
        verifier = received
      } else {
        verifier = try readVerifier(prompt: "Enter the PIN or verifier shown after authorizing: ")
      }
    }
    let tokens = try await flow.accessToken(for: temporary, verifier: verifier)

    var fields = tokens.fields
    for secret in ["oauth_token", "oauth_token_secret"] { fields.removeValue(forKey: secret) }
    let profile = ProviderProfile(
      provider: setup.provider?.name, site: parsed[SigningSetup.site], consumerKey: setup.consumer.key,
      consumerSecret: setup.consumer.secret.isEmpty ? nil : setup.consumer.secret, token: tokens.credentials.key,
      tokenSecret: tokens.credentials.secret, signatureMethod: setup.configuration.signatureMethod.rawValue, privateKey: setup.privateKeyPath,
      realm: setup.configuration.realm, fields: fields.isEmpty ? nil : fields)
    let store = ProviderProfile.store(environment: environment)
    try store.save(profile, as: profileName)
    let user = tokens.screenName.map { " (@\($0))" } ?? tokens.userID.map { " (user \($0))" } ?? ""
    Output.stdout("Logged in\(user). Saved profile \(profileName) in \(store.file.path) (the token and its secret are not shown).\n")
    Output.stdout("Try: oauth1 request GET URL --profile \(profileName)\n")
    return 0
  }

  /// The flow: the named provider's, or the explicit endpoints (which override it).
  static func makeFlow(_ parsed: ParsedArguments, _ setup: SigningSetup) throws -> OAuthFlow {
    let explicit = [parsed[requestTokenURL], parsed[authorizeURL], parsed[accessTokenURL]]
    var endpoints = setup.provider?.endpoints
    if explicit.contains(where: { $0 != nil }) {
      guard let request = parsed[requestTokenURL] ?? endpoints?.requestToken, let access = parsed[accessTokenURL] ?? endpoints?.accessToken,
        let authorize = parsed[authorizeURL] ?? endpoints?.authorize
      else { throw UsageError("give --request-token-url, --authorize-url and --access-token-url together (or --provider)") }
      for url in [request, access] + (authorize.isEmpty ? [] : [authorize]) where !RequestCommand.isAbsoluteHTTP(url) && setup.provider == nil {
        throw UsageError("\(CommandSpec.shown(url)) is not an absolute http or https URL")
      }
      endpoints = OAuthFlow.Endpoints(requestToken: request, authorize: authorize, authenticate: authorize, accessToken: access)
    }
    guard let endpoints else {
      if let provider = setup.provider {
        throw UsageError("\(provider.name) has no three-legged flow: requests are signed with the consumer alone (oauth1 request without --token)")
      }
      throw UsageError("give --provider NAME, or --request-token-url, --authorize-url and --access-token-url")
    }
    var parameters = (setup.provider?.authorizeParameters ?? []).map { (name: $0.name, value: $0.value) }
    for pair in parsed[authorizeParameter] {
      let (name, value) = try NameValue.split(pair, option: "--authorize-param")
      parameters.removeAll { $0.name == name }
      parameters.append((name, value))
    }
    guard let base = setup.provider?.baseURL ?? URL(string: endpoints.requestToken) else {
      throw UsageError("\(CommandSpec.shown(endpoints.requestToken)) is not an absolute URL")
    }
    return OAuthFlow(
      baseURL: base, consumer: setup.consumer, endpoints: endpoints, configuration: setup.configuration, authorizeParameters: parameters,
      behavior: HeadersBehavior(setup.providerHeaders))
  }

  static func readVerifier(prompt: String) throws -> String {
    CheckedOutput.standardError.write(prompt)
    guard let line = readLine(), !line.trimmingCharacters(in: .whitespaces).isEmpty else {
      throw LoginFailure("no verifier was typed (standard input ended)")
    }
    return line.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  struct LoginFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }
}

/// Opens a URL in the user's browser where there is one: `$BROWSER`, else `open` on macOS,
/// else `xdg-open` when a display is set. Failing to open is not an error: the URL is printed.
enum Browser {
  static func open(_ url: URL, environment: [String: String]) {
    var command: [String]
    if let browser = environment["BROWSER"], !browser.isEmpty {
      command = [browser]
    } else {
      #if os(macOS)
        command = ["open"]
      #else
        guard environment["DISPLAY"] != nil || environment["WAYLAND_DISPLAY"] != nil else { return }
        command = ["xdg-open"]
      #endif
    }
    command.append(url.absoluteString)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = command
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try? process.run()
  }
}
