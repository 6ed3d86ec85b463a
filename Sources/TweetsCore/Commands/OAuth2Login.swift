import CommandLineSupport
import Foundation
import NetworkClient
import OAuth2
import XAPI

/// The options of X's OAuth 2.0 client that `login --oauth2` and `migrate` take.
enum OAuth2Options {
  static let clientID = Option.value("client-id", placeholder: "ID", help: "The app's OAuth 2.0 client id (env X_CLIENT_ID).")
  static let clientSecret = Option.value(
    "client-secret", placeholder: "SECRET", help: "Its secret, for a confidential client (env X_CLIENT_SECRET); stored 0600 for renewals.")
  static let scopes = Option.value(
    "scopes", placeholder: "LIST", help: "The scopes to ask for, separated by spaces (default: every command's, offline.access and media.write).")

  /// Every command `tweets` has, `offline.access` (refresh tokens) and `media.write`.
  static let defaultScopes = [
    "tweet.read", "tweet.write", "users.read", "follows.read", "like.read", "list.read", "bookmark.read", "bookmark.write", "offline.access",
    "media.write",
  ]

  /// The client from the options, the environment, then (in the sandbox) the demo client.
  static func client(_ arguments: ParsedArguments, _ session: Session) throws -> (id: String, secret: String?) {
    let demo = session.sandbox != nil ? session.sandboxType.demoOAuth2Client.key : nil
    guard let id = arguments[clientID] ?? session.environment["X_CLIENT_ID"] ?? demo, !id.isEmpty else {
      throw UsageError("--client-id ID is needed (the OAuth 2.0 client id in the app's settings; env X_CLIENT_ID)")
    }
    return (id, arguments[clientSecret] ?? session.environment["X_CLIENT_SECRET"])
  }

  static func scopes(_ arguments: ParsedArguments) -> [String] {
    arguments[scopes].map { $0.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init) } ?? defaultScopes
  }

  /// Saves the OAuth 2.0 side into the profile (the OAuth 1.0a side stays), with the account
  /// the token belongs to, and says so.
  static func save(_ token: BearerToken, client: (id: String, secret: String?), _ session: Session, verb: String) async throws {
    let me = try await XClient(
      authentication: .oauth2(
        store: InMemoryBearerTokenStore(token), refresher: session.tokenEndpoint(clientID: client.id, clientSecret: client.secret)),
      baseURL: session.options.baseURL, transport: session.transport, retry: session.retry, behaviors: try session.behaviors,
      timeout: session.options.timeout
    ).v2.me()
    let name = session.options.profileName
    try await session.store.update(name) { stored in
      var profile = stored ?? Profile()
      profile.oauth2 = OAuth2Credentials(clientID: client.id, clientSecret: client.secret, token: token)
      profile.userID = me.id
      profile.username = me.username
      return (profile, ())
    }
    session.terminal.out(
      "\(verb) @\(me.username) with OAuth 2.0 (profile \"\(name)\", saved in \(session.store.file.path)); X granted: \(token.scopes.joined(separator: " "))"
    )
  }
}

/// `tweets login --oauth2`: the authorization-code flow with PKCE, the code received on a
/// loopback redirect URI (or pasted, with `--no-browser`).
enum OAuth2Login {
  static let flag = Option.flag("oauth2", help: "Log in with OAuth 2.0 (authorization code with PKCE) instead of the PIN flow.")
  static let redirectURI = Option<String>.value(
    "redirect-uri", placeholder: "URL", default: .value("http://127.0.0.1:8976/callback"),
    help: "The loopback redirect URI registered for the app (default \(.default)).", .string)
  static let noBrowser = Option.flag("no-browser", help: "Print the authorize URL and read the redirected URL from standard input.")
  static let authorizeURL = Option.value(
    "authorize-url", placeholder: "URL", help: "X's authorize page (default https://x.com/i/oauth2/authorize; env TWEETS_AUTHORIZE_URL).")
  static let options: [any OptionDeclaration] = [
    flag, OAuth2Options.clientID, OAuth2Options.clientSecret, OAuth2Options.scopes, redirectURI, noBrowser, authorizeURL,
  ]

  static func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    let client = try OAuth2Options.client(arguments, session)
    let redirect = try arguments.value(redirectURI)
    guard let redirectURL = URL(string: redirect), redirectURL.scheme == "http", ["127.0.0.1", "localhost"].contains(redirectURL.host ?? "") else {
      throw UsageError("--redirect-uri must be a loopback http URL registered for the app, such as http://127.0.0.1:8976/callback")
    }
    let page =
      arguments[authorizeURL] ?? session.environment["TWEETS_AUTHORIZE_URL"]
      ?? (session.sandbox != nil
        ? session.options.baseURL.appendingPathComponent("i/oauth2/authorize").absoluteString : "https://x.com/i/oauth2/authorize")
    guard let pageURL = URL(string: page), pageURL.scheme != nil else { throw UsageError("--authorize-url takes a full URL, not \(page)") }
    let oauth2Client = OAuth2Client.x(clientID: client.id, clientSecret: client.secret, apiBaseURL: session.options.baseURL, authorizeURL: pageURL)
    let login = try AuthorizationRequest(client: oauth2Client, redirectURI: redirect, scopes: OAuth2Options.scopes(arguments))
    let terminal = session.terminal

    let redirected: String
    if let sandbox = session.sandbox {
      // In process there is no browser: the sandbox's page consents at once; follow it.
      let answer = try await sandbox.send(HTTPRequest(method: .get, url: login.url))
      guard let location = answer.headers["Location"] else {
        throw TweetsFailure("the sandbox's authorize page refused: \(answer.text)", exitCode: .failure)
      }
      terminal.err("(sandbox: the authorize page approved at once and redirected to \(redirectURL.path))")
      redirected = location
    } else if arguments[noBrowser] {
      terminal.err("Open this page on any machine, approve the app, and paste the whole URL the browser was sent to (it may fail to load):")
      terminal.err("  \(login.url.absoluteString)")
      terminal.writeError("Redirected URL: ")
      guard let line = terminal.readLine()?.trimmingCharacters(in: .whitespaces), !line.isEmpty else {
        throw TweetsFailure("no redirected URL given", exitCode: .usage)
      }
      redirected = line
    } else {
      let receiver: LoopbackRedirectReceiver
      do {
        // It waits for this login's state: a forged request to the redirect URI gets an error
        // page, and the wait goes on.
        receiver = try LoopbackRedirectReceiver(login: login)
      } catch {
        throw TweetsFailure(error.description, exitCode: .failure)
      }
      terminal.err("Open this page and approve the app (waiting for the redirect to \(redirect)):")
      terminal.err("  \(login.url.absoluteString)")
      openBrowser(login.url, environment: session.environment)
      do {
        redirected = try await receiver.redirect()
      } catch {
        throw TweetsFailure("\(error.description); run the login again", exitCode: .authentication)
      }
    }

    let code: String
    do {
      code = try login.code(fromRedirect: redirected)
    } catch {
      throw TweetsFailure(error.description, exitCode: .authentication)
    }
    let token = try await session.tokenEndpoint(clientID: client.id, clientSecret: client.secret).exchange(code: code, for: login)
    try await OAuth2Options.save(token, client: client, session, verb: "Logged in as")
    return .success
  }

  /// Runs `$BROWSER URL` (or the platform's opener) without waiting for it.
  static func openBrowser(_ url: URL, environment: [String: String]) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    if let browser = environment["BROWSER"], !browser.isEmpty {
      process.arguments = ["-c", browser + " \"$1\"", "sh", url.absoluteString]
    } else {
      #if os(macOS)
        process.arguments = ["-c", "open \"$1\"", "sh", url.absoluteString]
      #else
        process.arguments = ["-c", "command -v xdg-open >/dev/null && xdg-open \"$1\"", "sh", url.absoluteString]
      #endif
    }
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try? process.run()
  }
}
