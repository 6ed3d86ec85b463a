import DateFormats
import Foundation
import NetworkClient
import OAuth1
import OAuth2
import XAPI

/// One run of the tool: the settings, where it writes, the stored profiles, and the client
/// built from them (for the real API or the sandbox).
struct Session {
  let options: GlobalOptions
  let terminal: Terminal
  let environment: [String: String]
  let store: ProfileStore
  /// The offline X API this build of `tweets` has (`tweets sandbox serve`, `--sandbox`).
  let sandboxType: any TweetsSandbox.Type
  /// With `--sandbox`, the one this command talks to, in process.
  let sandbox: (any TweetsSandbox)?
  /// The run's spending account, shared by its clients (and by copies of the session).
  let budget = RunBudget()

  init(options: GlobalOptions, terminal: Terminal, environment: [String: String], sandboxType: any TweetsSandbox.Type) {
    self.options = options
    self.terminal = terminal
    self.environment = environment
    store = ProfileStore(directory: options.configDirectory)
    self.sandboxType = sandboxType
    // In process, the sandbox lives as long as the command: the stream gets a rule to match.
    sandbox = options.sandbox ? sandboxType.inProcess(streamRules: [(value: "from:swift_lang", tag: "swift_lang")]) : nil
    if let sandbox {
      transport = sandbox
    } else {
      let chosen = DefaultTransport()
      if options.verbose { terminal.err("[verbose] transport: \(chosen.name) (\(chosen.reason))") }
      transport = chosen
    }
  }

  /// The run's transport: the in-process sandbox, or the platform's (said with `--verbose`).
  let transport: any HTTPTransport

  /// The stored profile, warning when its file is readable by others.
  func profile() throws -> Profile? {
    let profile = try store.profile(named: options.profileName)
    if profile != nil, let warning = store.permissionWarning() { terminal.err(warning) }
    return profile
  }

  /// The app's consumer credentials, each half from the options, then the environment, then
  /// the profile, then (in the sandbox) the demo app.
  func consumer(_ profile: Profile?) throws -> Credentials {
    let demo = sandbox != nil ? sandboxType.demoConsumer : nil
    if let key = options.consumerKey ?? profile?.consumerKey ?? demo?.key,
      let secret = options.consumerSecret ?? profile?.consumerSecret ?? demo?.secret
    {
      return Credentials(key: key, secret: secret)
    }
    throw TweetsFailure(
      """
      No consumer key and secret for profile "\(options.profileName)". Give --consumer-key and \
      --consumer-secret (or X_CONSUMER_KEY and X_CONSUMER_SECRET), then run `tweets login`; \
      or try everything offline with `tweets --sandbox timeline`.
      """, exitCode: .authentication)
  }

  /// The user's access token, each half from the environment, then the profile, then (in the
  /// sandbox) the demo account.
  func accessToken(_ profile: Profile?) throws -> Credentials {
    let demo = sandbox != nil ? sandboxType.demoAccessToken : nil
    let key = environment["X_ACCESS_TOKEN"] ?? environment["TWITTER_ACCESS_TOKEN"] ?? profile?.accessToken ?? demo?.key
    let secret = environment["X_ACCESS_TOKEN_SECRET"] ?? environment["TWITTER_ACCESS_TOKEN_SECRET"] ?? profile?.accessTokenSecret ?? demo?.secret
    if let key, let secret { return Credentials(key: key, secret: secret) }
    throw TweetsFailure(
      """
      Not logged in: profile "\(options.profileName)" has no access token in \(store.file.path). \
      Run `tweets login` (or set X_ACCESS_TOKEN and X_ACCESS_TOKEN_SECRET).
      """, exitCode: .authentication)
  }

  /// A client for the user's account: OAuth 2.0 user context when the profile has it and the
  /// request goes to v2 (`api`), OAuth 1.0a otherwise (and always for v1.1).
  func client(api: GlobalOptions.APIVersion? = nil) throws -> (client: XClient, profile: Profile?) {
    let profile = try profile()
    if let oauth2 = profile?.oauth2, (api ?? options.api) == .v2 {
      if options.verbose { terminal.err("[verbose] authentication: OAuth 2.0 user context (client \(oauth2.clientID))") }
      let terminal = self.terminal
      var tokenStore = ProfileTokenStore(store: store, name: options.profileName)
      if options.verbose { tokenStore.note = { terminal.err(TerminalText.visible("[verbose] \($0)")) } }
      let client = XClient(
        authentication: .oauth2(store: tokenStore, refresher: refresher(oauth2, profile: profile)),
        baseURL: options.baseURL, transport: transport, retry: retry, behaviors: try behaviors, timeout: options.timeout)
      return (client, profile)
    }
    let consumer = try consumer(profile)
    let token = try accessToken(profile)
    if options.verbose { terminal.err("[verbose] authentication: OAuth 1.0a user context") }
    let client = XClient(
      authentication: .oauth1(consumer: consumer, token: token),
      baseURL: options.baseURL, transport: transport, retry: retry, behaviors: try behaviors,
      timeout: options.timeout, onSign: signatureLogger)
    return (client, profile)
  }

  /// Which authentication ``client(api:)`` uses, in words, for `whoami`.
  func authenticationName(_ profile: Profile?, api: GlobalOptions.APIVersion? = nil) -> String {
    profile?.oauth2 != nil && (api ?? options.api) == .v2 ? "OAuth 2.0" : "OAuth 1.0a"
  }

  /// X's token endpoint for `client` (it follows `--base-url`, and the sandbox in process).
  func tokenEndpoint(clientID: String, clientSecret: String?) -> TokenEndpoint {
    TokenEndpoint(client: .x(clientID: clientID, clientSecret: clientSecret, apiBaseURL: options.baseURL), transport: transport)
  }

  /// Renews the profile's token, exchanging its OAuth 1.0a token again when the refresh token
  /// is refused for good.
  func refresher(_ oauth2: OAuth2Credentials, profile: Profile?) -> ProfileRefresher {
    let oauth1 = profile.flatMap { profile in
      profile.accessToken.flatMap { key in profile.accessTokenSecret.map { Credentials(key: key, secret: $0) } }
    }
    let terminal = self.terminal
    return ProfileRefresher(
      endpoint: tokenEndpoint(clientID: oauth2.clientID, clientSecret: oauth2.clientSecret), oauth1: oauth1, profileName: options.profileName,
      note: { terminal.err(TerminalText.visible("tweets: \($0)")) })
  }

  /// A client with the app's bearer token, for the endpoints X serves app-only (full-archive
  /// search, tweet counts, the filtered stream), which refuse user context. The token is
  /// `X_BEARER_TOKEN` when set; otherwise it is obtained from the app's consumer key and secret
  /// (the options, the environment, the profile, or the sandbox's demo app) with X's client
  /// credentials grant, `POST /oauth2/token`. It is never printed.
  func appClient(for command: String) async throws -> XClient {
    var token = environment["X_BEARER_TOKEN"] ?? environment["TWITTER_BEARER_TOKEN"]
    if token?.isEmpty ?? true {
      guard let consumer = try? consumer(try profile()) else {
        throw TweetsFailure(
          "tweets \(command) uses an endpoint X serves app-only: set X_BEARER_TOKEN to your app's bearer token (from the developer portal), "
            + "or give the app's consumer key and secret (X_CONSUMER_KEY and X_CONSUMER_SECRET, or a profile's, from tweets login) "
            + "to obtain one",
          exitCode: .authentication)
      }
      let endpoint = TokenEndpoint(
        client: .xAppOnly(consumerKey: consumer.key, consumerSecret: consumer.secret, apiBaseURL: options.baseURL), transport: transport)
      do {
        token = try await endpoint.clientCredentials().accessToken
      } catch {
        throw TweetsFailure(
          "tweets \(command) needs the app's bearer token, and X did not issue one for consumer key \(consumer.key): \(error.description)",
          exitCode: error.isFinal ? .authentication : .serverError)
      }
      if options.verbose { terminal.err("[verbose] authentication: app-only, with a bearer token obtained from the consumer key and secret") }
    } else if options.verbose {
      terminal.err("[verbose] authentication: app-only, with X_BEARER_TOKEN")
    }
    return XClient(
      authentication: .bearer(token ?? ""), baseURL: options.baseURL, transport: transport, retry: retry, behaviors: try behaviors,
      timeout: options.timeout)
  }

  /// With `--verbose`, prints each signature base string (it holds no secret).
  var signatureLogger: (@Sendable (String) -> Void)? {
    guard options.verbose else { return nil }
    let terminal = self.terminal
    return { baseString in terminal.err("[verbose] signature base string: \(baseString)") }
  }

  /// The retry policy of ``RetryBehavior`` with at most 4 attempts, backoff waits of 1, 2 and
  /// at most 4 s, rate limits waited out up to --max-wait (saying so on stderr) unless
  /// --no-wait. Each attempt is bounded by --timeout, so a server that never answers costs about
  /// 4 × timeout + 8 s.
  var retry: RetryBehavior {
    let terminal = self.terminal
    return RetryBehavior(
      maxAttempts: 4, maxTotalWait: options.maxWait, baseDelay: 1, maxBackoff: 4,
      retryableStatuses: options.noWait ? [500, 502, 503, 504] : [429, 500, 502, 503, 504],
      sleeper: terminal.errorIsInteractive ? CountdownSleeper(terminal: terminal) : TaskSleeper(),
      onWait: { wait in
        terminal.status("")
        let until = RFC3339.string(from: wait.until)
        if wait.isRateLimit {
          terminal.err(
            "Rate limited on \(wait.requestLine): waiting \(Int(wait.seconds.rounded(.up))) s, until \(until), for the limit to reset (--no-wait to fail instead)."
          )
        } else {
          terminal.err(
            "\(wait.requestLine) failed (\(wait.failure), attempt \(wait.attempt) of \(wait.maxAttempts)); retrying in \(String(format: "%.1f", wait.seconds)) s."
          )
        }
      })
  }

  /// The behaviors every X client of the run carries: the budget (which keeps the account of X's
  /// charges, and holds the run to its limit), then the `--verbose` log.
  var behaviors: [any RequestBehavior] {
    get throws { [try budget.behavior(self)] + verboseBehaviors }
  }

  var verboseBehaviors: [any RequestBehavior] {
    guard options.verbose else { return [] }
    let terminal = self.terminal
    return [
      LoggingBehavior(includeHeaders: true) { text in
        for line in text.split(separator: "\n") { terminal.err(TerminalText.visible("[verbose] \(line)")) }
      }
    ]
  }
}
