import CommandLineSupport
import Foundation
import OAuth1
import OAuthNetworking
import XAPI

/// `tweets login`: the PIN flow, or storing tokens you already have.
struct LoginCommand: TweetsCommand {
  let name = "login"
  let shared = SharedOptions.signedIn
  static let pin = Option.value("pin", placeholder: "PIN", help: "The PIN from the authorize page (default: read from standard input).")
  static let accessToken = Option.value("access-token", placeholder: "TOKEN", help: "Store this access token instead of running the PIN flow.")
  static let accessTokenSecret = Option.value("access-token-secret", placeholder: "SECRET", help: "Its secret.")
  var spec: CommandSpec {
    makeSpec(
      summary: "Log in with a PIN (or store existing tokens) and save the profile.",
      options: [Self.pin, Self.accessToken, Self.accessTokenSecret] + OAuth2Login.options,
      discussion: """
        The consumer key and secret come from --consumer-key/--consumer-secret, X_CONSUMER_KEY/
        X_CONSUMER_SECRET (TWITTER_* too) or the profile. With --sandbox the built-in demo app is used.
        --oauth2 logs in with OAuth 2.0 instead (no consumer key needed): it opens the authorize
        page ($BROWSER, else the platform's opener; the URL is always printed) and receives the
        code on the loopback redirect URI, which must be registered in the app.
        """)
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    if arguments[OAuth2Login.flag] { return try await OAuth2Login.run(arguments, session) }
    let terminal = session.terminal
    if arguments.has(Self.accessToken) != arguments.has(Self.accessTokenSecret) {
      throw UsageError("--access-token and --access-token-secret go together")
    }
    let stored = try session.profile()
    let consumer = try session.consumer(stored)

    let account: (token: Credentials, userID: String?, username: String?)
    if let token = arguments[Self.accessToken] {
      let secret = arguments[Self.accessTokenSecret] ?? ""
      let client = XClient(
        authentication: .oauth1(consumer: consumer, token: Credentials(key: token, secret: secret)),
        baseURL: session.options.baseURL, transport: session.transport, retry: session.retry, behaviors: try session.behaviors,
        timeout: session.options.timeout)
      let me = try await client.v2.me()
      account = (Credentials(key: token, secret: secret), me.id, me.username)
    } else {
      let login = XLogin(consumer: consumer, baseURL: session.options.baseURL, transport: session.transport)
      let pending = try await login.start()
      terminal.err("Open this page, authorize the app, and type the PIN it shows:")
      terminal.err("  \(pending.authorizeURL.absoluteString)")
      if let sandbox = session.sandbox, let pin = sandbox.pin(forRequestToken: pending.temporary.credentials.key) {
        terminal.err("(sandbox: there is no browser here; the page would show the PIN \(pin))")
      }
      let pin: String
      if let given = arguments[Self.pin] {
        pin = given
      } else {
        terminal.writeError("PIN: ")
        guard let line = terminal.readLine(), !line.trimmingCharacters(in: .whitespaces).isEmpty else {
          throw TweetsFailure("no PIN given (type it, or pass --pin)", exitCode: .usage)
        }
        pin = line
      }
      let tokens = try await login.finish(pending, pin: pin)
      account = (tokens.credentials, tokens.userID, tokens.screenName)
    }

    var profile = stored ?? Profile()
    profile.consumerKey = consumer.key
    profile.consumerSecret = consumer.secret
    profile.accessToken = account.token.key
    profile.accessTokenSecret = account.token.secret
    profile.userID = account.userID
    profile.username = account.username
    try session.store.save(profile, as: session.options.profileName)
    terminal.out(
      "Logged in as @\(TerminalText.visible(account.username ?? "?")) (profile \"\(session.options.profileName)\", saved in \(session.store.file.path))"
    )
    return .success
  }
}
