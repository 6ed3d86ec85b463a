import CommandLineSupport

/// `tweets logout`: forgets the profile's credentials.
struct LogoutCommand: TweetsCommand {
  let name = "logout"
  let shared = SharedOptions.session
  var spec: CommandSpec { makeSpec(summary: "Remove the profile's stored credentials.") }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    if let oauth2 = try session.profile()?.oauth2 {
      let endpoint = session.tokenEndpoint(clientID: oauth2.clientID, clientSecret: oauth2.clientSecret)
      do {
        if let refresh = oauth2.token.refreshToken { try await endpoint.revoke(refresh, hint: "refresh_token") }
        try await endpoint.revoke(oauth2.token.accessToken, hint: "access_token")
        session.terminal.out("Revoked the OAuth 2.0 tokens at X.")
      } catch {
        session.terminal.err(
          "tweets: could not revoke the OAuth 2.0 tokens at X (\(error.description)); they stay valid until they expire. Removing the profile anyway."
        )
      }
    }
    if try session.store.remove(session.options.profileName) {
      session.terminal.out("Logged out: removed profile \"\(session.options.profileName)\" from \(session.store.file.path)")
    } else {
      session.terminal.out("No profile \"\(session.options.profileName)\" was stored; nothing to do.")
    }
    return .success
  }
}
