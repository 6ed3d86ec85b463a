import CommandLineSupport
import NetworkClient
import OAuth2

/// `tweets migrate`: exchanges the profile's OAuth 1.0a token for OAuth 2.0 tokens of the same
/// user, with no consent screen, as X documents
/// (`fundamentals/authentication/oauth-2-0/oauth-1-0a-token-exchange.mdx`).
struct MigrateCommand: TweetsCommand {
  let name = "migrate"
  let shared = SharedOptions.signedIn
  var spec: CommandSpec {
    makeSpec(
      summary: "Exchange the profile's OAuth 1.0a token for OAuth 2.0 tokens (X retires 1.0a).",
      options: [OAuth2Options.clientID, OAuth2Options.clientSecret, OAuth2Options.scopes],
      discussion: """
        The OAuth 1.0a token and secret stay in the profile (v1.1 endpoints and recovery need
        them). Each exchange invalidates the OAuth 2.0 pair the previous one issued.
        """)
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    let profile = try session.profile()
    let token = try session.accessToken(profile)
    let client = try OAuth2Options.client(arguments, session)
    let endpoint = session.tokenEndpoint(clientID: client.id, clientSecret: client.secret)
    let exchanged: BearerToken
    do {
      exchanged = try await endpoint.exchangeOAuth1(
        token: token.key, secret: token.secret, scopes: arguments.has(OAuth2Options.scopes) ? OAuth2Options.scopes(arguments) : nil)
    } catch {
      guard case .invalidGrant(let text) = error else { throw error }
      throw TweetsFailure(
        "X refused to exchange the OAuth 1.0a token (invalid_grant: \(text)). It was revoked, or its secret is wrong: run `tweets login`, then `tweets migrate` again. The profile is unchanged.",
        exitCode: .authentication)
    }
    try await OAuth2Options.save(exchanged, client: client, session, verb: "Migrated")
    return .success
  }
}
