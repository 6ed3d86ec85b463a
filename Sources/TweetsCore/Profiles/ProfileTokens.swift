import Foundation
import NetworkClient
import OAuth1
import OAuth2

/// A profile's OAuth 2.0 tokens as a `BearerTokenStore`: read from the credentials file, and
/// renewed holding its lock from reading to writing, so that two `tweets` processes sharing a
/// profile (a cron job and a terminal) never both spend the same single-use refresh token: the
/// second waits, re-reads, and finds the token the first one saved.
struct ProfileTokenStore: BearerTokenStore {
  let store: ProfileStore
  let name: String
  /// Told when a renewal was saved (`--verbose`).
  var note: (@Sendable (String) -> Void)? = nil

  static func loginAgain(_ name: String) -> TweetsFailure {
    TweetsFailure("profile \"\(name)\" has no OAuth 2.0 tokens any more: log in again with `tweets login --oauth2`", exitCode: .authentication)
  }

  func load() async throws -> BearerToken {
    guard let token = try store.profile(named: name)?.oauth2?.token else { throw Self.loginAgain(name) }
    return token
  }

  /// The renewed token is written (atomically, 0600) before it is returned, so no request uses
  /// a token that a kill could lose.
  func update(_ renew: @Sendable (BearerToken) async throws -> BearerToken) async throws -> BearerToken {
    try await store.update(name) { stored in
      guard var profile = stored, var oauth2 = profile.oauth2 else { throw Self.loginAgain(name) }
      let before = oauth2.token.accessToken
      oauth2.token = try await renew(oauth2.token)
      profile.oauth2 = oauth2
      if oauth2.token.accessToken != before { note?("renewed the OAuth 2.0 access token; the new pair is saved in the profile before use") }
      return (profile, oauth2.token)
    }
  }
}

/// Renews a profile's access token at X's token endpoint. A refusal is final (any 400: X is
/// reported to answer a spent refresh token with `invalid_request`): then, when the profile
/// still holds its OAuth 1.0a token, it exchanges that again for a new pair (the refresh token
/// was lost, say by a kill after X rotated it); otherwise it says to log in again. Never the
/// same refresh token twice. A redirect from the token endpoint is no refusal: it fails the
/// renewal as it is (nothing was sent where it pointed), and the token stays in the profile.
struct ProfileRefresher: BearerTokenRefresher {
  let endpoint: TokenEndpoint
  /// The profile's OAuth 1.0a access token and secret, if it has them.
  let oauth1: Credentials?
  let profileName: String
  /// Where to say that a recovery happened.
  let note: @Sendable (String) -> Void

  func refresh(_ token: BearerToken) async throws -> BearerToken {
    do {
      return try await endpoint.renew(token)
    } catch .redirected(let status, let location) {
      // Not a refusal of the refresh token: the endpoint pointed elsewhere, and nothing was
      // sent there. Exchanging the 1.0a token would meet the same endpoint.
      let error = OAuth2Error.redirected(status: status, location: location)
      throw TweetsFailure("could not renew the OAuth 2.0 access token: \(error.description)", exitCode: .failure)
    } catch  where error.isFinal {
      guard let oauth1 else {
        throw TweetsFailure(
          "X refused the OAuth 2.0 refresh token (\(error.code)): log in again with `tweets login --oauth2`", exitCode: .authentication)
      }
      note("X refused the OAuth 2.0 refresh token (\(error.code)); exchanging the profile's OAuth 1.0a token for a new pair.")
      do {
        return try await endpoint.exchangeOAuth1(token: oauth1.key, secret: oauth1.secret, scopes: token.scopes.isEmpty ? nil : token.scopes)
      } catch {
        throw TweetsFailure(
          "X refused the OAuth 2.0 refresh token, and the exchange of the OAuth 1.0a token failed too (\(error.code)): log in again with `tweets login --oauth2`",
          exitCode: .authentication)
      }
    } catch {
      throw TweetsFailure("could not renew the OAuth 2.0 access token: \(error.description)", exitCode: .failure)
    }
  }
}
